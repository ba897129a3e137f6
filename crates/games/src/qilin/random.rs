//! The playout fast path: a uniformly random legal decision drawn without listing the legal
//! decisions (`Game::random_action`). Random playouts are most of what MCTS does, and building
//! the list, with the vector's length stored and reloaded for each slide, cost more than the
//! rest of a decision. Here the decisions are bits of a mask (the empty points, the targets,
//! or every slide at once from [`slide_mask`]): one population count gives their number, one
//! index is drawn, and the decision is that index's bit. Each legal decision is one bit, so
//! each is equally likely; the order differs from `legal_actions`, which only playouts may do.

use ludus_engine::bits::draw_bit;
use rand::Rng;

use super::rules::QilinAction;
use super::slide_mask::{slide_at, slide_mask};
use super::state::{Qilin, Stage};
use super::tables::Point;

impl Qilin {
    /// A uniformly random legal decision, or `None` when the game is over.
    #[inline]
    pub(super) fn draw_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<QilinAction> {
        if self.core.outcome.is_some() {
            return None;
        }
        let point = |bits: u32, rng: &mut R| {
            let bit = draw_bit(u64::from(bits), rng);
            Point::new(bit as u8 % 24)
        };
        Some(match (self.stage, self.pending) {
            (Stage::Place, 0) => QilinAction::Place(point(self.empty(), rng)),
            (Stage::Transition, _) => QilinAction::Take(point(self.own(self.core.to_move), rng)),
            (Stage::Move, 0) => {
                let own = self.own(self.core.to_move);
                slide_at(draw_bit(slide_mask(own, self.empty()), rng), own)
            }
            _ => QilinAction::Take(point(self.targets(), rng)),
        })
    }
}
