//! The playout fast path: a uniformly random legal decision drawn without listing the legal
//! decisions (`Game::random_action`). Listing them was 63 % of a random playout's time.
//!
//! Every piece of the side to move has four *slots*: an advance in each forward direction and
//! a transform. A slot is drawn uniformly among all of them and kept if it is a legal decision,
//! else another is drawn (rejection sampling): each legal decision is one slot, so each is
//! equally likely. Most slots are legal (a piece is blocked only by friends up to the edge, and
//! the transform needs a king's sight), so a draw takes one or two tries; after
//! [`TRIES`] refused slots the decisions are listed and one is chosen, which keeps every
//! decision equally likely since every path chooses uniformly. A slot's piece is read from
//! the side's roster (`roster.rs`), in the pieces' own order. The order of draws differs
//! from `legal_actions`, which only playouts may do.

use ludus_engine::bits::below;
use rand::seq::IndexedRandom;
use rand::Rng;

use super::moves::{advance_target, ReplicaAction, FORWARD};
use super::state::Replica;
use super::tables::Square;

/// Slots tried before listing the decisions (a position where most slots are refused, such as
/// a few pieces hemmed in by friends, is rare).
pub(super) const TRIES: u32 = 8;

impl Replica {
    /// A uniformly random legal decision, or `None` when the game is over; `buffer` holds the
    /// list only when the draw falls back to it.
    #[inline]
    pub(super) fn draw_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buffer: &mut Vec<ReplicaAction>,
    ) -> Option<ReplicaAction> {
        if self.core.outcome.is_some() {
            return None;
        }
        let side = self.side();
        let own = self.pieces[side];
        let slots = 4 * own.count_ones();
        // Computed at most once, and only when a transform slot is drawn: the kings' sight is
        // the costliest part of the rules.
        let mut transformable = None;
        // No piece, no slot to draw: the list (empty) decides.
        let tries = if slots == 0 { 0 } else { TRIES };
        for _ in 0..tries {
            let slot = below(rng, slots);
            let from = Square::from_index((self.rosters[side].get(slot / 4) & 63) as u8);
            let kind = (slot % 4) as usize;
            if kind < 3 {
                if let Some(to) = advance_target(own, from, FORWARD[side][kind]) {
                    return Some(ReplicaAction::Advance { from, to });
                }
            } else if *transformable.get_or_insert_with(|| self.transformable(side)) & from.bit()
                != 0
            {
                return Some(ReplicaAction::Transform(from));
            }
        }
        self.generate(buffer);
        buffer.choose(rng).copied()
    }
}
