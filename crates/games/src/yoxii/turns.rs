//! What a side can do with its next Totem move, for the evaluation's terms: the most points it
//! can have around the Totem after one turn (its pieces there plus the best value it holds,
//! if a neighbour stays free), and whether it can end the game at once with a win (fill the
//! Totem's last free neighbour, or leave it surrounded, so that the opponent cannot move it).

use ludus_engine::Seat;

use super::rules::Tiebreak;
use super::state::Yoxii;
use super::tables::{totem_targets_from, Square, NEIGHBOURS};

/// What [`next_turn`] found for one side.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct NextTurn {
    /// The most points around the Totem after the side's best single turn.
    pub best_points: u32,
    /// Whether one turn ends the game with the side winning.
    pub closing_win: bool,
}

/// What `seat` can do if it moves the Totem next, on the board as it stands; `targets` are
/// the Totem's destinations then ([`Yoxii::totem_targets`]).
pub(super) fn next_turn(state: &Yoxii, seat: Seat, targets: u64) -> NextTurn {
    let own = state.colour[seat];
    let theirs = state.colour[seat.opponent()];
    let hand = state.hand_mask(seat);
    let best = if hand == 0 {
        0
    } else {
        8 - hand.leading_zeros()
    };
    // The Totem leaves its square: that square is empty for the placement.
    let vacated = state.empty() | state.totem.bit();
    let mut out = NextTurn::default();
    for target in Square::iter(targets) {
        let near = NEIGHBOURS[target.to_usize()];
        let empty = vacated & !target.bit();
        let free = near & empty;
        let mine = state.value_sum(near & own);
        let gain = if free == 0 { 0 } else { best };
        out.best_points = out.best_points.max(mine + gain);
        if best == 0 || free.count_ones() > 1 {
            continue;
        }
        // One free neighbour, filled now, or none (the piece goes elsewhere: ignored, as if it
        // blocked nothing): the game ends if the opponent cannot move the Totem.
        let (placed, count) = if free == 0 { (0, 0) } else { (best, 1) };
        // Every neighbour is taken then, so the opponent can only jump over its own pieces:
        // none next to the Totem, no move (the cheap test first).
        if near & theirs != 0 && totem_targets_from(target.to_usize(), theirs, empty & !free) != 0 {
            continue;
        }
        // The opponent's points are needed only here, for the few targets that may close.
        let other = state.value_sum(near & theirs);
        let (points, pieces) = (mine + placed, (near & own).count_ones() + count);
        let their_pieces = (near & theirs).count_ones();
        out.closing_win |= points > other
            || (points == other
                && pieces > their_pieces
                && state.core.options.tiebreak != Tiebreak::None);
    }
    out
}

#[cfg(test)]
mod tests {
    use ludus_engine::Notation;

    use super::*;
    use crate::yoxii::YoxiiOptions;

    fn at(position: &str) -> Yoxii {
        Yoxii::from_position(position, &YoxiiOptions::default()).unwrap()
    }

    #[test]
    fn the_start_offers_a_four_and_no_close() {
        let start = at(".../...../......./...#.../......./...../... w");
        let white = next_turn(&start, Seat::FIRST, start.totem_targets(Seat::FIRST));
        assert_eq!(
            white,
            NextTurn {
                best_points: 4,
                closing_win: false
            }
        );
    }

    #[test]
    fn filling_the_last_free_neighbour_that_leaves_red_stuck_is_a_closing_win() {
        // White jumps the Totem c3-c1 over its piece on c2; c1's neighbours are then b2 (Red
        // 4), c2, d2 (White 1s) and d1, free: White puts its 4 there, Red cannot move the
        // Totem (b2 leads to White's a3) and White wins 6 to 4.
        let closing = at(".../...../......o/......o/O.#..../xOO../... w");
        assert!(next_turn(&closing, Seat::FIRST, closing.totem_targets(Seat::FIRST)).closing_win);
        // With a3 empty Red would jump to it: no close.
        let open = at(".../...O./......o/......o/..#..../xOO../... w");
        assert!(!next_turn(&open, Seat::FIRST, open.totem_targets(Seat::FIRST)).closing_win);
        assert!(next_turn(&open, Seat::FIRST, open.totem_targets(Seat::FIRST)).best_points >= 6);
    }
}
