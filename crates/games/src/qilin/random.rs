//! The playout fast path: a uniformly random legal decision drawn without listing the legal
//! decisions (`Game::random_action`). Random playouts are most of what MCTS does, and building
//! the list, with the vector's length stored and reloaded for each slide, cost more than the
//! rest of a decision. Here the decisions are bits of a mask (the empty points, the targets,
//! or every slide at once from [`slide_mask`]): one population count gives their number, one
//! index is drawn, and the decision is that index's bit. Each legal decision is one bit, so
//! each is equally likely; the order differs from `legal_actions`, which only playouts may do.

use rand::Rng;

use super::rules::QilinAction;
use super::slide_mask::{slide_at, slide_mask};
use super::state::{Qilin, Stage};
use super::tables::Point;

impl Qilin {
    /// A uniformly random legal decision, or `None` when the game is over.
    #[inline]
    pub(super) fn draw_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<QilinAction> {
        if self.outcome.is_some() {
            return None;
        }
        let take = |bits: u32, rng: &mut R| {
            let index = below(rng, bits.count_ones());
            QilinAction::Take(nth_point(bits, index))
        };
        Some(match (self.stage, self.pending) {
            (Stage::Place, 0) => {
                let empty = self.empty();
                QilinAction::Place(nth_point(empty, below(rng, empty.count_ones())))
            }
            (Stage::Transition, _) => take(self.own(self.side), rng),
            (Stage::Move, 0) => self.draw_slide(rng),
            _ => take(self.targets(), rng),
        })
    }

    /// A uniformly random slide of the side to move (there is one: the game is not over).
    #[inline]
    fn draw_slide<R: Rng + ?Sized>(&self, rng: &mut R) -> QilinAction {
        let own = self.own(self.side);
        let slides = slide_mask(own, self.empty());
        let index = below(rng, slides.count_ones());
        slide_at(nth_bit(slides, index), own)
    }
}

/// The `index`-th lowest point of `bits` (`index` below the number of points).
#[inline]
fn nth_point(bits: u32, index: u32) -> Point {
    Point::new(nth_bit(u64::from(bits), index) as u8 % 24)
}

/// The position of the `index`-th lowest set bit of `bits` (`index` below their number).
#[inline]
fn nth_bit(mut bits: u64, index: u32) -> u32 {
    for _ in 0..index {
        bits &= bits.wrapping_sub(1);
    }
    bits.trailing_zeros() % 64
}

/// A uniform integer below `bound` (at least 1): Lemire's multiply-and-shift with rejection,
/// exact, and one 32-bit draw nearly always ("Fast Random Integer Generation in an Interval",
/// 2019).
#[inline]
fn below<R: Rng + ?Sized>(rng: &mut R, bound: u32) -> u32 {
    let bound = bound.max(1);
    let mut product = u64::from(rng.next_u32()) * u64::from(bound);
    if (product as u32) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(bound);
        }
    }
    (product >> 32) as u32
}
