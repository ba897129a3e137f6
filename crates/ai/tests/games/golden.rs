//! Golden values: positions of every two-seat game with their proved value and distance, kept
//! in `crates/games/tests/data/GAME.solved` (one `position<TAB>value` a line, the value as
//! `ludus solve` prints it), proved again by the solver. A change to the rules, the solver or
//! its table that alters any of them fails here with the position.

use std::path::PathBuf;

use ludus_ai::{SolveBudget, Solver, StopFlag};
use ludus_engine::Game;
use ludus_games::{dispatch, GameVisitor, GAMES};

/// Nodes the solver may search per position (every golden position proves within it).
const NODES: u64 = 2_000_000;

/// The golden file of a game.
fn data_file(id: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../games/tests/data/{id}.solved"))
}

/// Proves every position of one game's file: the lines checked, or the first disagreement.
struct Golden(String);

impl GameVisitor for Golden {
    type Output = Result<usize, String>;
    fn visit<G: Game + ludus_engine::Heuristic>(self) -> Self::Output {
        let mut solver = Solver::<G>::new(16).with_tablebases(None).with_book(None);
        let budget = SolveBudget {
            nodes: NODES,
            ..SolveBudget::default()
        };
        let mut checked = 0;
        for line in self
            .0
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (position, value) = line
                .split_once('\t')
                .ok_or_else(|| format!("no tab in {line:?}"))?;
            let state = G::from_position(position, &G::Options::default())
                .map_err(|e| format!("{position}: {e}"))?;
            solver.clear();
            let proved = solver
                .solve(&state, &budget, &StopFlag::default())
                .proved()
                .map(|p| p.to_string());
            if proved.as_deref() != Some(value) {
                return Err(format!("{position}: expected {value}, proved {proved:?}"));
            }
            checked += 1;
        }
        Ok(checked)
    }
}

#[test]
fn golden_positions_keep_their_values() {
    let mut games = 0;
    for info in GAMES.iter().filter(|info| info.min_seats <= 2) {
        let Ok(text) = std::fs::read_to_string(data_file(info.id)) else {
            continue;
        };
        let checked = dispatch(info.id, Golden(text)).unwrap().unwrap();
        assert!(checked > 0, "{}: no golden position", info.id);
        games += 1;
    }
    assert!(games >= 1, "no golden file found");
}
