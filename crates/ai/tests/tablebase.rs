//! Endgame tablebases against the solver: generated tables hold the value and distance the
//! solver proves on random positions, generation gives the same bytes on 1 and 2 threads,
//! and a damaged file is refused with one line.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ludus_ai::tablebase::{file_name, generate, Tablebases, TablebaseError};
use ludus_ai::{Proved, SolveBudget, Solver, StopFlag};
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
        .install(|| generate(endgames, Qilin::INFO.id, pieces, dir, |r| println!("{r:?}")))
        .unwrap();
}

/// The 2-a-side tables, made once for the tests of this file.
fn two_a_side() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("two");
        make(2, 2, &dir);
        dir
    })
}

#[test]
fn generation_gives_the_same_bytes_on_one_and_two_threads() {
    let one = scratch("one-thread");
    make(2, 1, &one);
    let mut names: Vec<_> = fs::read_dir(&one)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 4, "{names:?}");
    for name in names {
        let a = fs::read(one.join(&name)).unwrap();
        let b = fs::read(two_a_side().join(&name)).unwrap();
        assert!(a == b, "{name:?} differs between 1 and 2 threads");
    }
}

/// A random table position as a game state (Red to move), with its stored result.
fn random_position(rng: &mut SmallRng, pieces: u8, options: &QilinOptions) -> (Qilin, Material) {
    let endgames = Qilin::endgames().unwrap();
    let material = Material {
        mover: rng.random_range(1..=pieces),
        other: rng.random_range(1..=pieces),
    };
    let index = rng.random_range(0..endgames.size(material));
    let text = endgames.position(material, index);
    (Qilin::from_position(&text, options).unwrap(), material)
}

/// The solver's result for `state`, without tables, or `None` if it did not prove it.
fn solve(solver: &mut Solver<Qilin>, state: &Qilin, nodes: u64) -> Option<Proved> {
    if let Some(outcome) = state.outcome() {
        // A position the rules end at once: no slide for the side to move (it loses).
        assert!(matches!(outcome.verdict, Verdict::Win(w) if Some(w) != Some(ludus_engine::Seat::FIRST)));
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
fn check_against_solver(dir: &Path, pieces: u8, count: usize, options: &QilinOptions) -> (usize, usize) {
    let tables = Tablebases::open::<Qilin>(dir).unwrap();
    let mut solver = Solver::<Qilin>::new(16).with_tablebases(None);
    let mut rng = SmallRng::seed_from_u64(36);
    let (mut proved, mut draws) = (0, 0);
    for _ in 0..count {
        let (state, material) = random_position(&mut rng, pieces, options);
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
    let (proved, draws) = check_against_solver(two_a_side(), 2, 300, &no_draw_rules());
    println!("proved {proved} draws {draws}");
    assert!(proved >= 270, "the solver proved only {proved} of 300");
}

/// The check over 10,000 positions of up to 3 a side (docs/SOLVING.md gives its result):
/// `cargo test --release -p ludus-ai --test tablebase -- --ignored --nocapture`.
#[test]
#[ignore = "makes the 3-a-side tables and solves 10,000 positions (minutes)"]
fn ten_thousand_positions_of_three_a_side() {
    let dir = scratch("three");
    make(3, 2, &dir);
    let (proved, draws) = check_against_solver(&dir, 3, 10_000, &QilinOptions::default());
    println!("10000 positions: the solver proved {proved} ({draws} draws), all equal to the tables");
    assert!(proved >= 9_000);
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
    let error = Tablebases::open::<Qilin>(&dir).unwrap().check().unwrap_err();
    assert!(matches!(error, TablebaseError::Damaged { .. }), "{error}");
    let text = error.to_string();
    assert!(text.contains("checksum mismatch") && !text.contains('\n'), "{text}");
    // A damaged table is left out of probes rather than trusted.
    let state = Qilin::from_position(
        &format!("R{}B move R 0/0 0", ".".repeat(22)),
        &QilinOptions::default(),
    )
    .unwrap();
    assert_eq!(Tablebases::open::<Qilin>(&dir).unwrap().probe(&state), None);
    fs::write(&path, &bytes[..last]).unwrap();
    let error = Tablebases::open::<Qilin>(&dir).unwrap().check().unwrap_err();
    assert!(error.to_string().contains("expected 552 positions"), "{error}");
}

#[test]
fn the_solver_and_level_five_use_the_tables() {
    let tables = std::sync::Arc::new(Tablebases::open::<Qilin>(two_a_side()).unwrap());
    // Red a1 d1 against Black b2 g7: Red cannot move a1 (b2, a4 ... ) — any 2-a-side position
    // the solver alone proves slowly is proved at once with the tables.
    let state = Qilin::from_position(
        "RR.B...................B move R 0/0 0",
        &QilinOptions::default(),
    )
    .unwrap();
    let mut solver = Solver::<Qilin>::new(16).with_tablebases(Some(tables.clone()));
    let solution = solver.solve(&state, &SolveBudget::default(), &StopFlag::default());
    assert_eq!(solution.proved(), tables.probe(&state));
    assert!(solution.tablebase_hits > 0);
    assert!(solution.turns <= 1, "searched {} turns", solution.turns);
}
