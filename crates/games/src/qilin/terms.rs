//! Qilin's tuned evaluation: the terms a position is scored by, and their weights read at
//! build time from `weights.txt` (fitted by `ludus tune qilin`).
//!
//! The terms are v1's evaluation taken apart, each `seat`'s count minus the opponent's. In
//! the placement stage: the material each side will have (pieces plus the placements still
//! to come), the points completing lines (the best one's lines and the others for the side to
//! act; for the side waiting the points and whether there are two or more), and lines that
//! open when pressed points are cleared. In both stages: presses or removals owed (+ for the
//! side that owes them). In the movement stage (and the transition): pieces, pieces short of
//! four, a line one slide from completion for the side to act, such lines (2 unblockable, 1
//! blockable), complete lines a piece can step out of, and mobility. Two terms v1 did not
//! have: lines with two own pieces and an empty point, in each stage. With [`V1_WEIGHTS`] the
//! sum is exactly v1's evaluation.

use ludus_engine::Seat;

use super::eval::movement_lines;
use super::state::{Qilin, Stage};
use super::tables::{slide_count, LINES};
use crate::weights::TunedWeights;

/// The names of the terms, as in `weights.txt`.
pub const TERMS: &[&str] = &[
    "place_material",
    "place_best_completion",
    "place_extra_completions",
    "place_waiting_completions",
    "place_waiting_double",
    "place_lines_behind_presses",
    "owed",
    "move_pieces",
    "move_scarce",
    "move_threat",
    "move_closable",
    "move_open_lines",
    "move_mobility",
    "place_potential",
    "move_potential",
];

const PLACE_MATERIAL: usize = 0;
const PLACE_BEST: usize = 1;
const PLACE_EXTRA: usize = 2;
const PLACE_WAITING: usize = 3;
const PLACE_DOUBLE: usize = 4;
const PLACE_BEHIND_PRESSES: usize = 5;
const OWED: usize = 6;
const MOVE_PIECES: usize = 7;
const MOVE_SCARCE: usize = 8;
const MOVE_THREAT: usize = 9;
const MOVE_CLOSABLE: usize = 10;
const MOVE_OPEN_LINES: usize = 11;
const MOVE_MOBILITY: usize = 12;
const PLACE_POTENTIAL: usize = 13;
const MOVE_POTENTIAL: usize = 14;

/// v1's weights, in the order of [`TERMS`].
pub(super) const V1_WEIGHTS: [f64; 15] = [
    100.0, 90.0, 15.0, 15.0, 30.0, 10.0, 50.0, 100.0, -60.0, 60.0, 20.0, 15.0, 6.0, 0.0, 0.0,
];

/// The tuned weights, read from `weights.txt`.
pub(super) static WEIGHTS: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights.txt"), TERMS, V1_WEIGHTS);

/// The terms of `state` from `seat`'s view into `out` (see the module doc).
pub(super) fn terms(state: &Qilin, seat: Seat, out: &mut [f64]) {
    out.fill(0.0);
    for (side, sign) in [(seat, 1.0), (seat.opponent(), -1.0)] {
        side_terms(state, side, sign, out);
    }
}

/// What one pass over the lines finds for one side in the placement stage: the potential
/// lines (two own pieces and an empty point), the empty points that would complete lines and
/// the most lines one of them completes ([`completion_points`]: a line completes at its
/// empty third point when two are own), and the lines behind presses
/// ([`lines_behind_presses`]). One pass instead of three, for the same counts.
///
/// [`completion_points`]: super::eval::completion_points
/// [`lines_behind_presses`]: super::eval::lines_behind_presses
#[derive(Debug)]
struct PlacementLines {
    potential: i32,
    completion_points: u32,
    best_completion: u32,
    behind_presses: i32,
}

fn placement_lines(own: u32, empty: u32, pressed: u32) -> PlacementLines {
    let (mut potential, mut behind_presses) = (0, 0);
    // The completion points of at least one, two and three lines.
    let (mut once, mut twice, mut thrice) = (0, 0, 0);
    for &line in &LINES {
        if (own & line).count_ones() != 2 {
            continue;
        }
        let hole = line & !own & empty;
        if hole != 0 {
            potential += 1;
            thrice |= twice & hole;
            twice |= once & hole;
            once |= hole;
        }
        behind_presses += i32::from(pressed & line != 0);
    }
    let best_completion = match (once, twice, thrice) {
        (0, _, _) => 0,
        (_, 0, _) => 1,
        (_, _, 0) => 2,
        _ => 3,
    };
    PlacementLines {
        potential,
        completion_points: once,
        best_completion,
        behind_presses,
    }
}

/// Adds `side`'s terms times `sign` to `out`.
fn side_terms(state: &Qilin, side: Seat, sign: f64, out: &mut [f64]) {
    let empty = state.empty();
    let (own, theirs) = (state.own(side), state.own(side.opponent()));
    let to_act = side == state.core.to_move;
    let owes = f64::from(state.pending);
    out[OWED] += sign * if to_act { owes } else { -owes };
    let count = own.count_ones() as i32;
    match state.stage {
        Stage::Place => {
            let lines = placement_lines(own, empty, state.pressed);
            // Each side fills about half of the empty points; the side to act one more.
            let spaces = empty.count_ones() as i32;
            let share = if to_act { (spaces + 1) / 2 } else { spaces / 2 };
            let placements = share.min(i32::from(state.hands[side]));
            out[PLACE_MATERIAL] += sign * f64::from(count + placements);
            if state.pending == 0 {
                let (points, best) = (lines.completion_points, lines.best_completion);
                let points = points.count_ones() as i32;
                if to_act {
                    out[PLACE_BEST] += sign * f64::from(best);
                    out[PLACE_EXTRA] += sign * f64::from((points - 1).max(0));
                } else {
                    out[PLACE_WAITING] += sign * f64::from(points);
                    out[PLACE_DOUBLE] += sign * f64::from(u8::from(points >= 2));
                }
            }
            out[PLACE_BEHIND_PRESSES] += sign * f64::from(lines.behind_presses);
            out[PLACE_POTENTIAL] += sign * f64::from(lines.potential);
        }
        Stage::Transition | Stage::Move => {
            let (closable, open_lines, potential) = movement_lines(own, theirs, empty);
            let threat = to_act && state.pending == 0 && closable > 0;
            out[MOVE_PIECES] += sign * f64::from(count);
            out[MOVE_SCARCE] += sign * f64::from((4 - count).max(0));
            out[MOVE_THREAT] += sign * f64::from(u8::from(threat));
            out[MOVE_CLOSABLE] += sign * f64::from(closable);
            out[MOVE_OPEN_LINES] += sign * f64::from(open_lines);
            out[MOVE_MOBILITY] += sign * f64::from(slide_count(own, empty));
            out[MOVE_POTENTIAL] += sign * f64::from(potential);
        }
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Heuristic, Notation, Rules};
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    use super::super::eval::PIECE;
    use super::*;
    use crate::qilin::QilinOptions;

    #[test]
    // The weights are small integers: exact in f64.
    #[allow(clippy::float_cmp)]
    fn the_weights_file_fits_the_terms() {
        assert_eq!(V1_WEIGHTS[PLACE_MATERIAL], f64::from(PIECE));
        let weights = WEIGHTS.read();
        assert_eq!(weights.map(|w| w.len()), Ok(TERMS.len()));
    }

    #[test]
    fn v1_weights_times_the_terms_are_exactly_v1() {
        let mut rng = SmallRng::seed_from_u64(18);
        let mut actions = Vec::new();
        let mut out = [0.0; TERMS.len()];
        let mut stages = [0; 3];
        for game in 0..40 {
            let mut state = Qilin::new(&QilinOptions::default(), game);
            for _ in 0..300 {
                if state.to_move().is_none() {
                    break;
                }
                for seat in [Seat::FIRST, Seat::SECOND] {
                    terms(&state, seat, &mut out);
                    let linear = crate::weights::weighted_sum(&out, &V1_WEIGHTS);
                    assert_eq!(linear, state.evaluate_v1(seat), "{}", state.position());
                }
                stages[state.stage as usize] += 1;
                state.legal_actions(&mut actions);
                state.apply(*actions.choose(&mut rng).unwrap());
            }
        }
        assert!(stages[0] > 1000 && stages[2] > 1000, "{stages:?}");
    }
}
