//! Endgame tablebases against the solver: generated tables hold the value and distance the
//! solver proves on random positions, generation gives the same bytes on 1 and 2 threads,
//! and a damaged file is refused with one line.

use ludus_engine::{Material, Notation, Rules};
use std::fs;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use tempfile::TempDir;

use ludus_ai::tablebase::{
    check, file_name, generate, install, stored_after, turn_ends, CheckPlan, CheckReport,
    TablebaseError, Tablebases,
};
use ludus_ai::{
    build_agent, AgentSpec, Evaluation, Proved, SolveBudget, Solver, StopFlag, LEVEL_FIVE_WITHIN,
};
use ludus_games::qilin::{Qilin, QilinOptions};

/// A fresh directory under the system's temporary one, removed when the guard drops (also
/// when a test fails).
fn scratch(name: &str) -> TempDir {
    tempfile::TempDir::with_prefix(format!("ludus-tb-{name}-")).unwrap()
}

/// Tables up to `pieces` a side, made on `threads` threads into `dir`.
fn make(pieces: u8, threads: usize, dir: &Path) {
    let endgames = Qilin::endgames().expect("the game numbers its endings");
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| generate(endgames, Qilin::INFO.id, pieces, dir, |_| {}))
        .unwrap();
}

/// The 3-a-side tables (the smallest with wins: a line needs three pieces), made on two
/// threads and shared by the tests of this file that run at the same time. The directory is
/// removed when the last of them drops it (a static's never would be: statics are not
/// dropped), and made again for a test that starts later.
fn three_a_side() -> Arc<TempDir> {
    static SHARED: Mutex<Weak<TempDir>> = Mutex::new(Weak::new());
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(dir) = shared.upgrade() {
        return dir;
    }
    let dir = Arc::new(scratch("three"));
    make(3, 2, dir.path());
    *shared = Arc::downgrade(&dir);
    dir
}

#[test]
fn generation_gives_the_same_bytes_on_one_and_two_threads() {
    let one = scratch("one-thread");
    make(3, 1, one.path());
    let mut names: Vec<_> = fs::read_dir(one.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 9, "{names:?}");
    let two = three_a_side();
    for name in names {
        let a = fs::read(one.path().join(&name)).unwrap();
        let b = fs::read(two.path().join(&name)).unwrap();
        assert!(a == b, "{name:?} differs between 1 and 2 threads");
    }
}

/// The rules without the draw rules: the solver's table then keys movement positions.
fn no_draw_rules() -> QilinOptions {
    QilinOptions {
        draw_no_removal_plies: 0,
        draw_repetition: 0,
        ..QilinOptions::default()
    }
}

/// Checks `positions` random positions of up to 3 a side under `options` (against the
/// solver too when `solver_nodes` is not 0), and that no check disagreed.
fn check_three_a_side(positions: usize, solver_nodes: u64, options: &QilinOptions) -> CheckReport {
    // Tables are read when first probed: the directory is kept until the check's end.
    let three = three_a_side();
    let tables = Tablebases::open::<Qilin>(three.path()).unwrap();
    let plan = CheckPlan {
        positions,
        pieces: 3,
        solver_nodes,
        seed: 36,
    };
    let report = check::<Qilin>(&tables, options, &plan);
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
    assert_eq!(
        (report.positions, report.missing, report.unreadable),
        (positions, 0, 0)
    );
    report
}

#[test]
fn stored_values_equal_the_solvers_on_random_positions() {
    // Materials are drawn alike, and most with fewer than three pieces on a side are draws the
    // solver cannot prove (nobody can form a line): about a third of the positions are proved.
    let report = check_three_a_side(300, 50_000, &no_draw_rules());
    assert!(report.solver_proved >= 60, "{report:?}");
    let report = check_three_a_side(200, 50_000, &QilinOptions::default());
    assert!(report.solver_proved >= 25, "{report:?}");
}

#[test]
fn a_damaged_or_cut_file_is_refused_with_one_line() {
    let guard = scratch("damaged");
    let dir = guard.path();
    make(1, 1, dir);
    let path = dir.join(file_name(Qilin::INFO.id, Material { mover: 1, other: 1 }));
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, &bytes).unwrap();
    let error = Tablebases::open::<Qilin>(dir).unwrap().check().unwrap_err();
    assert!(matches!(error, TablebaseError::Damaged { .. }), "{error}");
    let text = error.to_string();
    assert!(
        text.contains("checksum mismatch") && !text.contains('\n'),
        "{text}"
    );
    // A damaged table is left out of probes rather than trusted.
    let state = Qilin::from_position(
        &format!("R{}B move R 0/0 0", ".".repeat(22)),
        &QilinOptions::default(),
    )
    .unwrap();
    assert_eq!(Tablebases::open::<Qilin>(dir).unwrap().probe(&state), None);
    fs::write(&path, &bytes[..last]).unwrap();
    let error = Tablebases::open::<Qilin>(dir).unwrap().check().unwrap_err();
    assert!(
        error.to_string().contains("expected 552 positions"),
        "{error}"
    );
}

#[test]
fn the_solver_level_five_and_the_hint_use_the_tables() {
    let three = three_a_side();
    let tables = Arc::new(Tablebases::open::<Qilin>(three.path()).unwrap());
    // Red a1 d1 c3 against Black g7: a 3-against-1 ending.
    let state = Qilin::from_position(
        "RR....R................B move R 0/0 0",
        &QilinOptions::default(),
    )
    .unwrap();
    let stored = tables.probe(&state).unwrap();
    assert!(matches!(stored, Proved::Win(_)), "{stored:?}");
    let mut solver = Solver::<Qilin>::new(16).with_tablebases(Some(tables.clone()));
    let solution = solver.solve(&state, &SolveBudget::default(), &StopFlag::default());
    assert_eq!(solution.proved(), Some(stored));
    assert!(solution.tablebase_hits > 0);
    assert_eq!(
        solution.turns, 1,
        "one turn of search suffices below the root"
    );
    // Level 5 (the process's installed tables) plays and reports the stored result.
    install(Some(three.path().to_path_buf()));
    let spec: AgentSpec = "ai:5:depth=2".parse().unwrap();
    let mut agent = build_agent::<Qilin>(&spec, 1).unwrap();
    let analysis = agent.analyse(&state, &StopFlag::default());
    // The hint's player (level 4 trying the solver, as the app and the web page ask it) too.
    let hint: AgentSpec = format!("ai:4:depth=2,solve={LEVEL_FIVE_WITHIN}")
        .parse()
        .unwrap();
    let hinted = build_agent::<Qilin>(&hint, 1)
        .unwrap()
        .analyse(&state, &StopFlag::default());
    // `tables=false` keeps the solver but not the tables: far from the game's end, level 5
    // then has no reason to try the solver and searches as usual.
    let without: AgentSpec = "ai:5:depth=2,tables=false".parse().unwrap();
    let unproved = build_agent::<Qilin>(&without, 1)
        .unwrap()
        .analyse(&state, &StopFlag::default());
    install(None);
    assert!(
        !matches!(unproved.evaluation, Some(Evaluation::Proved(_))),
        "{:?}",
        unproved.evaluation
    );
    assert_eq!(analysis.evaluation, Some(Evaluation::Proved(stored)));
    assert_eq!(hinted.evaluation, Some(Evaluation::Proved(stored)));
    // Its decision keeps the value: some way to finish the turn keeps it.
    let mut next = state.clone();
    next.apply(analysis.action);
    let mut ends = Vec::new();
    if next.turn() > state.turn() || next.outcome().is_some() {
        ends.push(next);
    } else {
        turn_ends(&next, &mut ends);
    }
    assert!(ends
        .iter()
        .any(|end| stored_after(&tables, end) == Some(stored)));
}

/// Every stored value is the best over the turns the rules allow (their results looked up
/// in turn): by induction on the distance, that holds only for the true values.
#[test]
fn stored_values_are_the_best_over_every_turn_of_the_rules() {
    check_three_a_side(3000, 0, &no_draw_rules());
}
