//! Replica's tuned evaluation: the terms a position is scored by, and their weights read at
//! build time from `weights.txt` (fitted by `ludus tune replica`).
//!
//! The terms are v1's evaluation taken apart (each from `seat`'s view): men and kings counted
//! by their Chebyshev distance to the target corner, the best capture of the side to move,
//! the number of squares on which the waiting side would win (one, or several), and a win at
//! once for the side to move (then every other term is 0, as v1 returned its win score
//! alone). Four terms v1 did not have: the best capture of the waiting side, the non-kings a
//! king could transform, the free kings (no enemy piece between a king and its target corner,
//! so that nothing can take or stop it) and the race of the nearest free kings (who arrives
//! first). The race is there because a search sees a king's walk to its corner only when the
//! king is a few steps away, while a free king's arrival is certain from afar. With
//! [`V1_WEIGHTS`] the sum is exactly v1's evaluation.

use ludus_engine::Seat;

use super::eval::{chebyshev, squares};
use super::state::{Replica, TARGET};
use super::tables::Square;
use crate::weights::TunedWeights;

/// The names of the terms, as in `weights.txt`.
pub const TERMS: &[&str] = &[
    "man_0",
    "man_1",
    "man_2",
    "man_3",
    "man_4",
    "man_5",
    "man_6",
    "man_7",
    "king_0",
    "king_1",
    "king_2",
    "king_3",
    "king_4",
    "king_5",
    "king_6",
    "king_7",
    "capture_to_move",
    "one_threat",
    "many_threats",
    "win_now",
    "capture_waiting",
    "transformable",
    "free_kings",
    "race",
];

/// Men and kings by distance, then the prospects.
const MEN: usize = 0;
const KINGS: usize = 8;
const CAPTURE: usize = 16;
const ONE_THREAT: usize = 17;
const MANY_THREATS: usize = 18;
const WIN_NOW: usize = 19;
const CAPTURE_WAITING: usize = 20;
const TRANSFORMABLE: usize = 21;
const FREE_KINGS: usize = 22;
const RACE: usize = 23;

/// v1's weights, in the order of [`TERMS`]: a piece is 100 plus its progress bonus.
pub(super) const V1_WEIGHTS: [f64; 24] = [
    140.0, 136.0, 130.0, 124.0, 118.0, 112.0, 106.0, 100.0, // men
    100.0, 500.0, 300.0, 200.0, 150.0, 120.0, 100.0, 100.0, // kings
    0.5, -250.0, -1500.0, 50_000.0, 0.0, 0.0, 0.0, 0.0,
];

/// The tuned weights, read from `weights.txt`.
pub(super) static WEIGHTS: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights.txt"), TERMS, V1_WEIGHTS);

/// `CORNER_RINGS[side][c]`: the squares at Chebyshev distance `c` from `side`'s target
/// corner, so that counting pieces by distance is a popcount per ring.
const CORNER_RINGS: [[u64; 8]; 2] = corner_rings();

const fn corner_rings() -> [[u64; 8]; 2] {
    let mut rings = [[0; 8]; 2];
    let mut index = 0;
    while index < 64 {
        let square = Square::from_index(index);
        let mut side = 0;
        while side < 2 {
            let target = TARGET[side];
            let distance = max(
                square.file().abs_diff(target.file()),
                square.rank().abs_diff(target.rank()),
            );
            rings[side][distance as usize] |= square.bit();
            side += 1;
        }
        index += 1;
    }
    rings
}

/// `AHEAD[side][s]`: the squares between `s` and `side`'s target corner (file and rank both
/// between theirs), `s` included. Every piece only moves toward its own target, so an enemy
/// piece can reach `s`, or stand in the way of a piece on `s`, only from one of these
/// squares: a king with no enemy piece there can never be taken or stopped.
const AHEAD: [[u64; 64]; 2] = ahead();

const fn ahead() -> [[u64; 64]; 2] {
    let mut table = [[0; 64]; 2];
    let mut from = 0;
    while from < 64 {
        let a = Square::from_index(from);
        let mut to = 0;
        while to < 64 {
            let b = Square::from_index(to);
            let white = b.file() >= a.file() && b.rank() >= a.rank();
            let black = b.file() <= a.file() && b.rank() <= a.rank();
            table[0][from as usize] |= if white { b.bit() } else { 0 };
            table[1][from as usize] |= if black { b.bit() } else { 0 };
            to += 1;
        }
        from += 1;
    }
    table
}

/// The free kings of `side` (no enemy piece ahead of them) and the distance of the nearest
/// to the target corner: whatever the enemy does, it arrives in about that many of its own
/// turns (fewer when it jumps own pieces, more when own pieces fill its way to the edge).
fn free_kings(state: &Replica, side: usize) -> (u32, Option<usize>) {
    let enemies = state.pieces[1 - side];
    let mut count = 0;
    let mut nearest = None;
    for king in squares(state.kings[side]) {
        if AHEAD[side][king.to_usize()] & enemies == 0 {
            count += 1;
            let distance = chebyshev(king, side);
            nearest = Some(nearest.map_or(distance, |d: usize| d.min(distance)));
        }
    }
    (count, nearest)
}

const fn max(a: u8, b: u8) -> u8 {
    if a > b {
        a
    } else {
        b
    }
}

/// The terms of `state` from `seat`'s view into `out` (see the module doc). Each count is
/// ours minus theirs, as small integers: exact in `f64`, whatever the order of counting.
pub(super) fn terms(state: &Replica, seat: Seat, out: &mut [f64]) {
    out.fill(0.0);
    let mover = state.side();
    let sign = if seat.to_usize() == mover { 1.0 } else { -1.0 };
    let mover_transformable = state.transformable(mover);
    let mine = state.prospects(mover, mover_transformable);
    if mine.wins > 0 {
        out[WIN_NOW] = sign;
        return;
    }
    let waiting_transformable = state.transformable(1 - mover);
    let theirs = state.prospects(1 - mover, waiting_transformable);
    let (us, them) = (seat.to_usize(), 1 - seat.to_usize());
    // Ours minus theirs among `sets` (one per side) at distance `c` from their corners.
    let difference = |sets: [u64; 2], c: usize| {
        let count = |side: usize| f64::from((sets[side] & CORNER_RINGS[side][c]).count_ones());
        count(us) - count(them)
    };
    let men = [0, 1].map(|side| state.pieces[side] & !state.kings[side]);
    for c in 0..8 {
        out[MEN + c] = difference(men, c);
        out[KINGS + c] = difference(state.kings, c);
    }
    let mut transformable = [0; 2];
    transformable[mover] = mover_transformable.count_ones();
    transformable[1 - mover] = waiting_transformable.count_ones();
    out[TRANSFORMABLE] = f64::from(transformable[us]) - f64::from(transformable[them]);
    // The race of the free kings: the side to move arrives first at equal distance.
    let free = [0, 1].map(|side| free_kings(state, side));
    out[FREE_KINGS] = f64::from(free[us].0) - f64::from(free[them].0);
    let mover_wins_race = match (free[mover].1, free[1 - mover].1) {
        (None, None) => None,
        (Some(m), Some(w)) => Some(m <= w),
        (m, _) => Some(m.is_some()),
    };
    if let Some(mover_wins) = mover_wins_race {
        out[RACE] = if mover_wins { sign } else { -sign };
    }
    out[CAPTURE] = sign * f64::from(mine.best_capture);
    out[CAPTURE_WAITING] = -sign * f64::from(theirs.best_capture);
    match theirs.wins {
        0 => {}
        1 => out[ONE_THREAT] = sign,
        _ => out[MANY_THREATS] = sign,
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Heuristic, Notation, Rules};

    use super::super::eval::{
        KING_PROGRESS, MANY_THREATS, MAN_PROGRESS, ONE_THREAT, PIECE, WIN_NOW,
    };
    use super::*;
    use crate::replica::ReplicaOptions;

    #[test]
    // The weights are small integers: exact in f64.
    #[allow(clippy::float_cmp)]
    fn v1_weights_are_v1_constants_and_the_weights_file_fits() {
        for c in 0..8 {
            assert_eq!(V1_WEIGHTS[MEN + c], f64::from(PIECE + MAN_PROGRESS[c]));
            assert_eq!(V1_WEIGHTS[KINGS + c], f64::from(PIECE + KING_PROGRESS[c]));
        }
        assert_eq!(V1_WEIGHTS[super::ONE_THREAT], -f64::from(ONE_THREAT));
        assert_eq!(V1_WEIGHTS[super::MANY_THREATS], -f64::from(MANY_THREATS));
        assert_eq!(V1_WEIGHTS[super::WIN_NOW], f64::from(WIN_NOW));
        let weights = WEIGHTS.read();
        assert_eq!(weights.map(|w| w.len()), Ok(TERMS.len()));
    }

    /// The race term of `position` from each seat's view.
    fn race(position: &str) -> [f64; 2] {
        let state = Replica::from_position(position, &ReplicaOptions::default()).unwrap();
        [Seat::FIRST, Seat::SECOND].map(|seat| {
            let mut out = [0.0; TERMS.len()];
            terms(&state, seat, &mut out);
            out[RACE]
        })
    }

    #[test]
    // The race term is -1, 0 or 1: exact in f64.
    #[allow(clippy::float_cmp)]
    fn the_nearer_free_king_wins_the_race_and_the_mover_wins_ties() {
        // White's king f6 is two steps from h8, Black's d4 three from a1: White is ahead
        // whoever moves.
        assert_eq!(race("8/8/5W2/8/3B4/8/8/8 w"), [1.0, -1.0]);
        assert_eq!(race("8/8/5W2/8/3B4/8/8/8 b"), [1.0, -1.0]);
        // Black's king c3 is two steps from a1 too: the side to move arrives first.
        assert_eq!(race("8/8/5W2/8/8/2B5/8/8 w"), [1.0, -1.0]);
        assert_eq!(race("8/8/5W2/8/8/2B5/8/8 b"), [-1.0, 1.0]);
        // A black man on g7 stands between White's king and h8: only Black's king is free.
        assert_eq!(race("8/6b1/5W2/8/3B4/8/8/8 w"), [-1.0, 1.0]);
        // A black man behind White's king does not stop it.
        assert_eq!(race("8/8/5W2/4b3/3B4/8/8/8 w"), [1.0, -1.0]);
        // Neither king free: no race.
        assert_eq!(race("8/6b1/5W2/8/3B4/8/1w6/8 w"), [0.0, 0.0]);
    }

    #[test]
    fn v1_weights_times_the_terms_are_exactly_v1() {
        let seen = crate::weights::assert_terms_reproduce_v1(
            |game| Replica::new(&ReplicaOptions::default(), game),
            terms,
            Replica::evaluate_v1,
            &V1_WEIGHTS,
        );
        assert!(seen > 1000, "{seen}");
    }
}
