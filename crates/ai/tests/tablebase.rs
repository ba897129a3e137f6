//! Endgame tablebases against the solver: generated tables hold the value and distance the
//! solver proves on random positions, generation gives the same bytes on 1 and 2 threads,
//! and a damaged file is refused with one line.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ludus_ai::tablebase::{file_name, generate, install, TablebaseError, Tablebases};
use ludus_ai::{build_agent, AgentSpec, Evaluation, Proved, SolveBudget, Solver, StopFlag};
use ludus_engine::{Game, Material, Verdict};
use ludus_games::qilin::{Qilin, QilinOptions};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-tb-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
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

/// The 3-a-side tables (the smallest with wins: a line needs three pieces), made once on
/// two threads for the tests of this file.
fn three_a_side() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("three");
        make(3, 2, &dir);
        dir
    })
}

#[test]
fn generation_gives_the_same_bytes_on_one_and_two_threads() {
    let one = scratch("one-thread");
    make(3, 1, &one);
    let mut names: Vec<_> = fs::read_dir(&one)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 9, "{names:?}");
    for name in names {
        let a = fs::read(one.join(&name)).unwrap();
        let b = fs::read(three_a_side().join(&name)).unwrap();
        assert!(a == b, "{name:?} differs between 1 and 2 threads");
    }
}

/// A random table position as a game state (Red to move), with its stored result.
fn random_position(
    rng: &mut SmallRng,
    pieces: u8,
    decisive: bool,
    options: &QilinOptions,
) -> (Qilin, Material) {
    let endgames = Qilin::endgames().unwrap();
    let material = loop {
        let material = Material {
            mover: rng.random_range(1..=pieces),
            other: rng.random_range(1..=pieces),
        };
        // With fewer than three pieces a side nobody can form a line: every position is a
        // draw, which the solver cannot prove without a table; the rules check covers them.
        if !decisive || material.mover.max(material.other) >= 3 {
            break material;
        }
    };
    let index = rng.random_range(0..endgames.size(material));
    let text = endgames.position(material, index);
    (Qilin::from_position(&text, options).unwrap(), material)
}

/// The solver's result for `state`, without tables, or `None` if it did not prove it.
fn solve(solver: &mut Solver<Qilin>, state: &Qilin, nodes: u64) -> Option<Proved> {
    if let Some(outcome) = state.outcome() {
        // A position the rules end at once: no slide for the side to move (it loses).
        assert!(
            matches!(outcome.verdict, Verdict::Win(w) if Some(w) != Some(ludus_engine::Seat::FIRST))
        );
        return Some(Proved::Loss(0));
    }
    solver.clear();
    let budget = SolveBudget {
        nodes,
        ..SolveBudget::default()
    };
    solver.solve(state, &budget, &StopFlag::default()).proved()
}

/// The rules without the draw rules: the solver's table then keys movement positions.
fn no_draw_rules() -> QilinOptions {
    QilinOptions {
        draw_no_removal_plies: 0,
        draw_repetition: 0,
        ..QilinOptions::default()
    }
}

/// Checks `count` random positions of up to `pieces` a side against the solver under
/// `options`; returns how many the solver proved, and how many of those were draws.
fn check_against_solver(
    dir: &Path,
    pieces: u8,
    count: usize,
    options: &QilinOptions,
) -> (usize, usize) {
    let tables = Tablebases::open::<Qilin>(dir).unwrap();
    let mut solver = Solver::<Qilin>::new(16).with_tablebases(None);
    let mut rng = SmallRng::seed_from_u64(36);
    let (mut proved, mut draws) = (0, 0);
    for _ in 0..count {
        let (state, material) = random_position(&mut rng, pieces, true, options);
        let stored = match state.outcome() {
            Some(_) => Some(Proved::Loss(0)),
            None => tables.probe(&state),
        };
        let stored = stored.unwrap_or_else(|| panic!("{material} not in the tables"));
        if let Some(value) = solve(&mut solver, &state, 50_000) {
            assert_eq!(stored, value, "{}", state.position());
            proved += 1;
            draws += usize::from(value == Proved::Draw);
        }
    }
    (proved, draws)
}

#[test]
fn stored_values_equal_the_solvers_on_random_positions() {
    let (proved, _) = check_against_solver(three_a_side(), 3, 300, &no_draw_rules());
    assert!(proved >= 150, "the solver proved only {proved} of 300");
    let (proved, _) = check_against_solver(three_a_side(), 3, 200, &QilinOptions::default());
    assert!(proved >= 50, "the solver proved only {proved} of 200");
}

#[test]
fn a_damaged_or_cut_file_is_refused_with_one_line() {
    let dir = scratch("damaged");
    make(1, 1, &dir);
    let path = dir.join(file_name(Qilin::INFO.id, Material { mover: 1, other: 1 }));
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, &bytes).unwrap();
    let error = Tablebases::open::<Qilin>(&dir)
        .unwrap()
        .check()
        .unwrap_err();
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
    assert_eq!(Tablebases::open::<Qilin>(&dir).unwrap().probe(&state), None);
    fs::write(&path, &bytes[..last]).unwrap();
    let error = Tablebases::open::<Qilin>(&dir)
        .unwrap()
        .check()
        .unwrap_err();
    assert!(
        error.to_string().contains("expected 552 positions"),
        "{error}"
    );
}

#[test]
fn the_solver_and_level_five_use_the_tables() {
    let tables = std::sync::Arc::new(Tablebases::open::<Qilin>(three_a_side()).unwrap());
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
    install(Some(three_a_side().to_path_buf()));
    let spec: AgentSpec = "ai:5:depth=2".parse().unwrap();
    let mut agent = build_agent::<Qilin>(&spec, 1).unwrap();
    let analysis = agent.analyse(&state, &StopFlag::default());
    install(None);
    assert_eq!(analysis.evaluation, Some(Evaluation::Proved(stored)));
    // Its decision keeps the value: some way to finish the turn keeps it.
    let mut next = state.clone();
    next.apply(analysis.action);
    let mut ends = Vec::new();
    if next.turn() > state.turn() || next.outcome().is_some() {
        ends.push(next);
    } else {
        turn_ends(&next, &mut ends);
    }
    assert!(ends.iter().any(|end| stored_after(&tables, end) == stored));
}

/// The result for the side that just moved, of a turn's end.
fn stored_after(tables: &Tablebases, end: &Qilin) -> Proved {
    match stored(tables, end) {
        Proved::Win(n) => Proved::Loss(n + 1),
        Proved::Draw => Proved::Draw,
        Proved::Loss(n) => Proved::Win(n + 1),
    }
}

/// The end of every turn from `state` (its decisions played by the rules), into `out`.
fn turn_ends(state: &Qilin, out: &mut Vec<Qilin>) {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    for action in actions {
        let mut next = state.clone();
        next.apply(action);
        if next.turn() > state.turn() || next.outcome().is_some() {
            out.push(next);
        } else {
            turn_ends(&next, out);
        }
    }
}

/// The stored result of `state` from the table, or from the rules if the game is over.
fn stored(tables: &Tablebases, state: &Qilin) -> Proved {
    match state.outcome() {
        Some(_) => Proved::Loss(0),
        None => tables
            .probe(state)
            .expect("every position is in the tables"),
    }
}

/// Every stored value is the best over the turns the rules allow (their results looked up
/// in turn): by induction on the distance, that holds only for the true values.
#[test]
fn stored_values_are_the_best_over_every_turn_of_the_rules() {
    let tables = Tablebases::open::<Qilin>(three_a_side()).unwrap();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut ends = Vec::new();
    for _ in 0..3000 {
        let (state, _) = random_position(&mut rng, 3, false, &no_draw_rules());
        ends.clear();
        if state.outcome().is_none() {
            turn_ends(&state, &mut ends);
        }
        let best = ends
            .iter()
            .map(|end| stored_after(&tables, end))
            .max_by_key(|p| p.score())
            .unwrap_or(Proved::Loss(0));
        assert_eq!(stored(&tables, &state), best, "{}", state.position());
    }
}
