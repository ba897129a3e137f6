//! Checking tables against the rules and the solver on random positions (`ludus tablebase
//! GAME --check N`, and the tests).
//!
//! Two checks of each position drawn:
//! - **the rules**: the stored value is the best over every turn the rules allow from it,
//!   each turn's end looked up in the tables (or ended by the rules). By induction on the
//!   distance only the true values and distances pass this for every position, so it checks
//!   the whole retrograde analysis without trusting it.
//! - **the solver**: the solver, without tables and within a node budget, proves the same
//!   value and distance (positions it cannot prove within the budget are counted apart).

use ludus_engine::{Endgames, Game, Heuristic, Material, Verdict};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::Tablebases;
use crate::{Proved, SolveBudget, Solver, StopFlag};

/// How many disagreements a check keeps (it counts them all).
const KEPT_MISMATCHES: usize = 10;

/// What to check.
#[derive(Clone, Copy, Debug)]
pub struct CheckPlan {
    /// Random positions to draw.
    pub positions: usize,
    /// The most pieces a side of the positions drawn.
    pub pieces: u8,
    /// Nodes the solver may search per position (0: no solver check).
    pub solver_nodes: u64,
    /// The generator's seed.
    pub seed: u64,
}

/// A position where a check and the table disagree.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mismatch {
    /// The position string.
    pub position: String,
    /// The table's value.
    pub stored: Proved,
    /// What the check found.
    pub found: Proved,
    /// Which check: `rules` or `solver`.
    pub check: &'static str,
}

/// What a check found.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct CheckReport {
    /// Positions drawn and checked against the rules.
    pub positions: usize,
    /// Positions the solver proved (and so checked).
    pub solver_proved: usize,
    /// Of those, draws.
    pub solver_draws: usize,
    /// Disagreements counted.
    pub mismatches: usize,
    /// The first few of them.
    pub examples: Vec<Mismatch>,
    /// Positions the tables number but the rules refuse to read (a fault of the numbering).
    pub unreadable: usize,
    /// Positions whose material, or a material one of their turns leads into, has no table in
    /// the directory (not checked).
    pub missing: usize,
}

impl CheckReport {
    fn disagree(&mut self, mismatch: Mismatch) {
        self.mismatches += 1;
        if self.examples.len() < KEPT_MISMATCHES {
            self.examples.push(mismatch);
        }
    }
}

/// Checks `plan.positions` random positions of `tables` under `options`.
pub fn check<G: Game + Heuristic>(
    tables: &Tablebases,
    options: &G::Options,
    plan: &CheckPlan,
) -> CheckReport {
    let mut report = CheckReport::default();
    let Some(endgames) = G::endgames() else {
        return report;
    };
    let mut rng = SmallRng::seed_from_u64(plan.seed);
    let mut solver = Solver::<G>::new(16).with_tablebases(None);
    let mut ends = Vec::new();
    for _ in 0..plan.positions {
        let (material, index) = random_entry(endgames, plan.pieces, &mut rng);
        let Ok(state) = G::from_position(&endgames.position(material, index), options) else {
            report.unreadable += 1;
            continue;
        };
        let Some(stored) = stored(tables, &state) else {
            report.missing += 1;
            continue;
        };
        ends.clear();
        if state.outcome().is_none() {
            turn_ends(&state, &mut ends);
        }
        // A turn that leads into a material the folder lacks: not checked, as above.
        let Some(best) = best_after(tables, &ends) else {
            report.missing += 1;
            continue;
        };
        report.positions += 1;
        if best != stored {
            report.disagree(Mismatch {
                position: state.position(),
                stored,
                found: best,
                check: "rules",
            });
        }
        if plan.solver_nodes > 0 {
            if let Some(found) = solve(&mut solver, &state, plan.solver_nodes) {
                report.solver_proved += 1;
                report.solver_draws += usize::from(found == Proved::Draw);
                if found != stored {
                    report.disagree(Mismatch {
                        position: state.position(),
                        stored,
                        found,
                        check: "solver",
                    });
                }
            }
        }
    }
    report
}

/// A random material of at most `pieces` a side and a random position of it.
fn random_entry(endgames: &dyn Endgames, pieces: u8, rng: &mut SmallRng) -> (Material, u64) {
    let materials = endgames.materials(pieces);
    let material = materials[rng.random_range(0..materials.len())];
    (material, rng.random_range(0..endgames.size(material)))
}

/// The best result over the turns ending in `ends` for the side that plays them (a loss in
/// 0 if there is none); `None` if an end is not in the tables.
fn best_after<G: Game>(tables: &Tablebases, ends: &[G]) -> Option<Proved> {
    let mut best = Proved::Loss(0);
    for end in ends {
        let after = stored_after(tables, end)?;
        if after.score() > best.score() {
            best = after;
        }
    }
    Some(best)
}

/// The result of a turn's end for the side that just played it.
pub fn stored_after<G: Game>(tables: &Tablebases, end: &G) -> Option<Proved> {
    Some(match stored(tables, end)? {
        Proved::Win(n) => Proved::Loss(n + 1),
        Proved::Draw => Proved::Draw,
        Proved::Loss(n) => Proved::Win(n + 1),
    })
}

/// The stored result of `state` for the side to move, or the rules' if the game is over: a
/// draw, or a loss in 0 turns (in the games with tables a turn that ends the game wins it for
/// the side that played it, as a Morris ending is lost by the side left without a slide).
pub fn stored<G: Game>(tables: &Tablebases, state: &G) -> Option<Proved> {
    match state.verdict() {
        Some(Verdict::Draw) => Some(Proved::Draw),
        Some(Verdict::Win(_)) => Some(Proved::Loss(0)),
        None => tables.probe(state),
    }
}

/// The end of every turn from `state` (its decisions played by the rules), into `out`.
pub fn turn_ends<G: Game>(state: &G, out: &mut Vec<G>) {
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

/// The solver's result for `state` without tables, or `None` if it did not prove it.
fn solve<G: Game + Heuristic>(solver: &mut Solver<G>, state: &G, nodes: u64) -> Option<Proved> {
    match state.verdict() {
        Some(Verdict::Draw) => return Some(Proved::Draw),
        Some(Verdict::Win(_)) => return Some(Proved::Loss(0)),
        None => {}
    }
    solver.clear();
    let budget = SolveBudget {
        nodes,
        ..SolveBudget::default()
    };
    solver.solve(state, &budget, &StopFlag::default()).proved()
}
