//! The tuned terms as they were first written, kept for tests only: the
//! reference that `terms.rs` (one pass over the lines per side) must reproduce bit for bit.
//! It reads the lines three times per side, with the functions v1 and the seed still use.

use ludus_engine::{Rules, Seat};

use super::eval::{completion_points, lines_and_potential, lines_behind_presses, movement_lines};
use super::rules::{NoPressRule, QilinOptions};
use super::state::{Qilin, Stage};
use super::tables::slide_count;
use super::terms::TERMS;
use crate::weights::assert_same_terms;

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

/// The terms of `state` from `seat`'s view into `out` (see the module doc).
fn terms(state: &Qilin, seat: Seat, out: &mut [f64]) {
    out.fill(0.0);
    for (side, sign) in [(seat, 1.0), (seat.opponent(), -1.0)] {
        side_terms(state, side, sign, out);
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
    let potential = f64::from(lines_and_potential(own, empty).1);
    match state.stage {
        Stage::Place => {
            // Each side fills about half of the empty points; the side to act one more.
            let spaces = empty.count_ones() as i32;
            let share = if to_act { (spaces + 1) / 2 } else { spaces / 2 };
            let placements = share.min(i32::from(state.hands[side]));
            out[PLACE_MATERIAL] += sign * f64::from(count + placements);
            if state.pending == 0 {
                let (points, best) = completion_points(own, empty);
                let points = points.count_ones() as i32;
                if to_act {
                    out[PLACE_BEST] += sign * f64::from(best);
                    out[PLACE_EXTRA] += sign * f64::from((points - 1).max(0));
                } else {
                    out[PLACE_WAITING] += sign * f64::from(points);
                    out[PLACE_DOUBLE] += sign * f64::from(u8::from(points >= 2));
                }
            }
            out[PLACE_BEHIND_PRESSES] += sign * f64::from(lines_behind_presses(own, state.pressed));
            out[PLACE_POTENTIAL] += sign * potential;
        }
        Stage::Transition | Stage::Move => {
            let (closable, open_lines, _) = movement_lines(own, theirs, empty);
            let threat = to_act && state.pending == 0 && closable > 0;
            out[MOVE_PIECES] += sign * f64::from(count);
            out[MOVE_SCARCE] += sign * f64::from((4 - count).max(0));
            out[MOVE_THREAT] += sign * f64::from(u8::from(threat));
            out[MOVE_CLOSABLE] += sign * f64::from(closable);
            out[MOVE_OPEN_LINES] += sign * f64::from(open_lines);
            out[MOVE_MOBILITY] += sign * f64::from(slide_count(own, empty));
            out[MOVE_POTENTIAL] += sign * potential;
        }
    }
}

/// The start of the `game`-th reference game: both no-press rules and protected lines in
/// turn, so that every stage and transition is reached.
fn start(game: u64) -> Qilin {
    let options = QilinOptions {
        no_press_rule: [NoPressRule::RemoveOwn, NoPressRule::FirstPlayerLoses][(game % 2) as usize],
        protect_lines: game / 2 % 2 == 1,
        ..QilinOptions::default()
    };
    Qilin::new(&options, game)
}

#[test]
fn the_fast_terms_are_the_reference_terms_bit_for_bit() {
    let seen = assert_same_terms(start, 200, TERMS.len(), terms);
    assert!(seen > 10_000, "only {seen} positions");
}
