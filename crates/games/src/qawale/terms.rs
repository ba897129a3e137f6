//! Qawale's tuned evaluation: the terms a position is scored by, and their weights read at
//! build time from `weights.txt` (fitted by `ludus tune qawale`, then tuned for strength by
//! `ludus spsa qawale`) and, for the last turns, from `weights_late.txt`.
//!
//! The terms are v1's evaluation taken apart, each `seat`'s count minus the opponent's: open
//! lines (no opposing top) holding one, two or three of a colour's tops, the tops, the lines
//! three tops long (at most two counted) of the side that moves next and of the side that
//! waits, and own stones buried under tops. Two terms v1 did not have: tops on the four
//! central squares (each on three lines, not two), and stones still in hand. With
//! [`V1_WEIGHTS`] the sum is exactly v1's evaluation.

use ludus_engine::Seat;

use super::state::{Qawale, Stone};
use super::tables::LINES;
use crate::weights::TunedWeights;

/// The names of the terms, as in `weights.txt`.
pub const TERMS: &[&str] = &[
    "open_line_1",
    "open_line_2",
    "open_line_3",
    "tops",
    "threats_to_move",
    "threats_waiting",
    "buried",
    "centre_tops",
    "in_hand",
];

const OPEN_LINE: usize = 0;
const TOPS: usize = 3;
const THREATS_TO_MOVE: usize = 4;
const THREATS_WAITING: usize = 5;
const BURIED: usize = 6;
const CENTRE_TOPS: usize = 7;
const IN_HAND: usize = 8;

/// The four central squares b2, c2, b3, c3.
const CENTRE: u16 = 0x0660;

/// v1's weights, in the order of [`TERMS`].
pub(super) const V1_WEIGHTS: [f64; 9] = [4.0, 20.0, 80.0, 10.0, 150.0, 40.0, 2.0, 0.0, 0.0];

/// The tuned weights before [`LATE_FROM_TURN`], read from `weights.txt`.
static WEIGHTS: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights.txt"), TERMS, V1_WEIGHTS);

/// Completed turns from which [`LATE_WEIGHTS`] score a position instead of [`WEIGHTS`].
/// Games between strong players are decided when a defender misses the one drawing turn
/// some 4-6 turns before the end, where a search of 100 ms stops short of the end and its
/// horizon falls in the last turns: those positions get weights fitted to them.
pub const LATE_FROM_TURN: u32 = 11;

/// The weights from [`LATE_FROM_TURN`] on, read from `weights_late.txt`.
static LATE_WEIGHTS: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights_late.txt"), TERMS, V1_WEIGHTS);

/// The weights that score `state`: by the number of turns completed.
pub(super) fn weights(state: &Qawale) -> &'static TunedWeights<{ TERMS.len() }> {
    if state.core.turn >= LATE_FROM_TURN {
        &LATE_WEIGHTS
    } else {
        &WEIGHTS
    }
}

/// The terms of `state` from `seat`'s view into `out` (see the module doc).
pub(super) fn terms(state: &Qawale, seat: Seat, out: &mut [f64]) {
    out.fill(0.0);
    for (side, sign) in [(seat, 1.0), (seat.opponent(), -1.0)] {
        let mine = state.tops[Stone::of(side) as usize];
        let theirs = state.tops[Stone::of(side.opponent()) as usize];
        let mut threats = 0u32;
        for line in LINES {
            let (own, other) = ((mine & line).count_ones(), (theirs & line).count_ones());
            if other == 0 && (1..=3).contains(&own) {
                out[OPEN_LINE + own as usize - 1] += sign;
                threats += u32::from(own == 3);
            }
        }
        let threats = f64::from(threats.min(2));
        if state.core.to_move == side {
            out[THREATS_TO_MOVE] += sign * threats;
        } else {
            out[THREATS_WAITING] += sign * threats;
        }
        out[TOPS] += sign * f64::from(mine.count_ones());
        out[CENTRE_TOPS] += sign * f64::from((mine & CENTRE).count_ones());
        out[BURIED] += sign * f64::from(state.buried(Stone::of(side)));
        out[IN_HAND] += sign * f64::from(state.in_hand(side));
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Heuristic, Notation, Rules};

    use super::super::eval::{LINE_WEIGHT, THREAT_TO_MOVE, THREAT_WAITING, TOP};
    use super::*;
    use crate::qawale::QawaleOptions;

    #[test]
    // The weights are small integers: exact in f64.
    #[allow(clippy::float_cmp)]
    fn v1_weights_are_v1_constants_and_the_weights_file_fits() {
        for k in 1..=3 {
            assert_eq!(V1_WEIGHTS[OPEN_LINE + k - 1], f64::from(LINE_WEIGHT[k]));
        }
        assert_eq!(V1_WEIGHTS[TOPS], f64::from(TOP));
        assert_eq!(V1_WEIGHTS[THREATS_TO_MOVE], f64::from(THREAT_TO_MOVE));
        assert_eq!(V1_WEIGHTS[THREATS_WAITING], f64::from(THREAT_WAITING));
        assert_eq!(V1_WEIGHTS[BURIED], f64::from(super::super::eval::BURIED));
        for weights in [&WEIGHTS, &LATE_WEIGHTS] {
            assert_eq!(weights.read().map(|w| w.len()), Ok(TERMS.len()));
        }
    }

    #[test]
    fn the_late_weights_score_from_their_turn_on() {
        use rand::seq::IndexedRandom;
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let (mut actions, mut out) = (Vec::new(), [0.0; TERMS.len()]);
        let (mut early, mut late) = (0, 0);
        for game in 0..20 {
            let mut state = Qawale::new(&QawaleOptions::default(), game);
            while state.to_move().is_some() {
                terms(&state, Seat::FIRST, &mut out);
                let by = |weights: &TunedWeights<{ TERMS.len() }>| {
                    ludus_engine::weighted_sum(&out, weights.get())
                };
                let (before, after) = (by(&WEIGHTS), by(&LATE_WEIGHTS));
                let expected = if state.core.turn >= LATE_FROM_TURN {
                    late += usize::from(before != after);
                    after
                } else {
                    early += usize::from(before != after);
                    before
                };
                assert_eq!(
                    state.evaluate(Seat::FIRST),
                    expected,
                    "{}",
                    state.position()
                );
                state.legal_actions(&mut actions);
                state.apply(*actions.choose(&mut rng).unwrap());
            }
        }
        // Positions on both sides of the switch where the two sets disagree: the test sees it.
        assert!(early > 100 && late > 100, "{early} {late}");
    }

    #[test]
    fn v1_weights_times_the_terms_are_exactly_v1() {
        let seen = crate::weights::assert_terms_reproduce_v1(
            |game| Qawale::new(&QawaleOptions::default(), game),
            terms,
            Qawale::evaluate_v1,
            &V1_WEIGHTS,
        );
        assert!(seen > 1000, "{seen}");
    }
}
