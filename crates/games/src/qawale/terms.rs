//! Qawale's tuned evaluation: the terms a position is scored by, and their weights read at
//! build time from `weights.txt` (fitted by `ludus tune qawale`, then tuned for strength by
//! `ludus spsa qawale`).
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

/// The tuned weights, read from `weights.txt`.
pub(super) static WEIGHTS: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights.txt"), TERMS, V1_WEIGHTS);

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
        if state.to_move == side {
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
    use ludus_engine::{Game, Heuristic};

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
        let weights = WEIGHTS.read();
        assert_eq!(weights.map(|w| w.len()), Ok(TERMS.len()));
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
