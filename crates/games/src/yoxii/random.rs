//! The playout fast path: a uniformly random legal decision drawn without listing the legal
//! decisions (`Game::random_action`). Listing them and choosing from the list was two thirds
//! of a random playout's time (`perf` of `ludus bench yoxii`).
//!
//! A Totem move is a random set bit of the Totem's targets. A placement is one of the pairs
//! (square, value in hand): a rank is drawn below their number and split into the square's
//! rank among the placement squares and the value's rank among the values in hand, so each
//! pair is equally likely. The order of draws differs from `legal_actions`, which only
//! playouts may do.

use ludus_engine::bits::{below, draw_bit, select_bit};
use rand::Rng;

use super::rules::YoxiiAction;
use super::state::Yoxii;
use super::tables::Square;

impl Yoxii {
    /// A uniformly random legal decision, or `None` when there is none (the game is over).
    #[inline]
    pub(super) fn draw_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<YoxiiAction> {
        if self.end.is_over() {
            return None;
        }
        let seat = self.core.to_move;
        if !self.placing {
            let targets = self.totem_targets(seat);
            if targets == 0 {
                return None;
            }
            return square_at(draw_bit(targets, rng)).map(YoxiiAction::Totem);
        }
        let squares = self.placement_squares();
        let hand = u64::from(self.hand_mask(seat));
        let values = hand.count_ones();
        let pairs = squares.count_ones() * values;
        if pairs == 0 {
            return None;
        }
        let rank = below(rng, pairs);
        let square = square_at(select_bit(squares, rank / values))?;
        // Values are 1..=4, bit `v - 1` of the hand.
        let value = select_bit(hand, rank % values) as u8 + 1;
        Some(YoxiiAction::Place { value, square })
    }
}

/// The square of a bit index drawn from a mask of squares (always on the grid).
#[inline]
fn square_at(index: u32) -> Option<Square> {
    Square::from_index(index as u8)
}
