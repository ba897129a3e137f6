//! The tuned evaluation as the search calls it: [`TERMS`] times their weights, in integer
//! fixed point and without the terms array.
//!
//! The search evaluates every leaf, and the generic path ([`Heuristic::terms`] into an
//! array of `f64`, then a sequential floating-point sum) spent about a tenth of a Yoxii
//! search in the sum and the array alone (`perf` on `ludus bench yoxii --agent ai:4:depth=8`). Here the
//! weights are scaled by 2¹² and rounded once, the terms stay integers, and the two terms
//! scaled by how full the Totem's neighbourhood is share one division, since that fraction
//! is the same for both sides. The result is within one unit (a hundredth of a point) of
//! [`TunedWeights::evaluate`](crate::weights::TunedWeights::evaluate): the weights' rounding
//! is at most 2⁻¹³ per unit of a term, and the terms are small counts
//! (`the_fixed_point_evaluation_is_the_weighted_sum_within_one_unit`, in `eval_reference.rs`).
//!
//! [`Heuristic::terms`]: ludus_engine::Heuristic::terms

use std::sync::OnceLock;

use ludus_engine::{Seat, WIN_SCORE};

use super::eval::{best_value, TERMS, WEIGHTS};
use super::state::Yoxii;
use super::tables::NEIGHBOURS;
use super::turns::next_turn;

/// Fixed-point weights are the weights times `1 << SHIFT`.
const SHIFT: u32 = 12;

/// The term indices, as in [`TERMS`].
const POINTS: usize = 0;
const POINTS_FILLED: usize = 1;
const PIECES: usize = 2;
const PENDING: usize = 3;
const PENDING_FILLED: usize = 4;
const MOBILITY: usize = 5;
const HAND: usize = 6;
const BEST_TURN: usize = 7;
const CLOSING_WIN_NEXT: usize = 8;
const CLOSING_WIN_OTHER: usize = 9;
const TOTEM_NEXT: usize = 10;

/// The tuned weights in fixed point, computed at first use.
fn fixed_weights() -> &'static [i64; TERMS.len()] {
    static FIXED: OnceLock<[i64; TERMS.len()]> = OnceLock::new();
    FIXED.get_or_init(|| {
        let weights = WEIGHTS.get();
        // Weights are at most a few thousand: far inside i64 after scaling.
        std::array::from_fn(|i| (weights[i] * f64::from(1u32 << SHIFT)).round() as i64)
    })
}

/// The value `seat` still holds in hand.
fn hand_value(state: &Yoxii, seat: Seat) -> i64 {
    (1..=4u8)
        .map(|v| i64::from(v) * i64::from(state.in_hand(seat, v)))
        .sum()
}

/// The tuned evaluation of `state` for `seat` (see the module doc).
pub(super) fn evaluate(state: &Yoxii, seat: Seat) -> i32 {
    let w = fixed_weights();
    let opponent = seat.opponent();
    let targets = [state.totem_targets(seat), state.totem_targets(opponent)];
    let near = NEIGHBOURS[state.totem().to_usize()];
    let empty = state.empty();
    let ((our_points, our_pieces), (their_points, their_pieces)) =
        (state.around(seat), state.around(opponent));
    let points = i64::from(our_points) - i64::from(their_points);
    let pieces = i64::from(our_pieces) - i64::from(their_pieces);
    let sign_of = |s: Seat| if s == seat { 1 } else { -1 };
    // The side to move, mid-turn, is about to put its best piece next to the Totem.
    let pending = if state.is_placing() && near & empty != 0 {
        let mover = state.core.to_move;
        sign_of(mover) * i64::from(best_value(state, mover))
    } else {
        0
    };
    let mobility = i64::from(targets[0].count_ones()) - i64::from(targets[1].count_ones());
    let hand = hand_value(state, seat) - hand_value(state, opponent);
    // Who moves the Totem next: the side to move, unless it has moved it already.
    let next = if state.is_placing() {
        state.core.to_move.opponent()
    } else {
        state.core.to_move
    };
    let targets_of = |s: Seat| targets[usize::from(s != seat)];
    let first = next_turn(state, next, targets_of(next));
    let second = next_turn(state, next.opponent(), targets_of(next.opponent()));
    let sign = sign_of(next);
    let best_turn = sign * (i64::from(first.best_points) - i64::from(second.best_points));
    let mut sum = w[POINTS] * points
        + w[PIECES] * pieces
        + w[PENDING] * pending
        + w[MOBILITY] * mobility
        + w[HAND] * hand
        + w[BEST_TURN] * best_turn
        + w[CLOSING_WIN_NEXT] * sign * i64::from(first.closing_win)
        - w[CLOSING_WIN_OTHER] * sign * i64::from(second.closing_win)
        + w[TOTEM_NEXT] * sign;
    let filled = i64::from((near & !empty).count_ones());
    let neighbours = i64::from(near.count_ones().max(1));
    sum += (w[POINTS_FILLED] * points + w[PENDING_FILLED] * pending) * filled / neighbours;
    let bound = i64::from(WIN_SCORE / 4);
    // Rounded to the nearest unit (halves up); within ±WIN_SCORE / 4 the conversion is exact.
    ((sum + (1 << (SHIFT - 1))) >> SHIFT).clamp(-bound, bound) as i32
}
