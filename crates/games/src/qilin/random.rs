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
        let point = |bits: u32, rng: &mut R| {
            let bit = draw_bit(u64::from(bits), rng);
            Point::new(bit as u8 % 24)
        };
        Some(match (self.stage, self.pending) {
            (Stage::Place, 0) => QilinAction::Place(point(self.empty(), rng)),
            (Stage::Transition, _) => QilinAction::Take(point(self.own(self.side), rng)),
            (Stage::Move, 0) => {
                let own = self.own(self.side);
                slide_at(draw_bit(slide_mask(own, self.empty()), rng), own)
            }
            _ => QilinAction::Take(point(self.targets(), rng)),
        })
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The position of a uniformly random set bit of `bits` (not empty), without a branch on the
/// bits: the set bits are counted per byte, the byte counts summed into running totals by one
/// multiplication (its top byte is the population count), and the bit with the drawn rank is
/// found by comparing the rank with all eight totals at once, then a table inside its byte
/// (the broadword selection of Vigna, "Broadword Implementation of Rank/Select Queries", 2008).
#[inline]
fn draw_bit<R: Rng + ?Sized>(bits: u64, rng: &mut R) -> u32 {
    let mut counts = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i: the set bits in bytes 0..=i.
    let totals = counts.wrapping_mul(ONES);
    let rank = below(rng, (totals >> 56) as u32);
    // A byte's high bit is set where its total is at most the rank (all values are below 128,
    // so no byte borrows from the next): those are the bytes below the rank's byte.
    let at_most = (((u64::from(rank) * ONES) | HIGHS) - totals) & HIGHS;
    let byte = ((at_most >> 7).wrapping_mul(ONES) >> 56) as u32 & 7;
    let before = ((totals << 8) >> (8 * byte)) as u32 & 0xFF;
    let in_byte = ((bits >> (8 * byte)) & 0xFF) as usize;
    8 * byte + u32::from(SELECT_IN_BYTE[in_byte][(rank - before) as usize & 7])
}

/// `SELECT_IN_BYTE[b][i]`: the position of the `i`-th lowest set bit of the byte `b`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut rank = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

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

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn draw_bit_draws_every_set_bit_and_no_other() {
        let mut rng = SmallRng::seed_from_u64(3);
        for bits in [
            1u64,
            1 << 63,
            0x8000_0000_0000_0001,
            0x00F0_0000_FF00_0F01,
            u64::MAX,
        ] {
            let mut seen = 0u64;
            for _ in 0..4000 {
                let bit = draw_bit(bits, &mut rng);
                assert!(bits & (1 << bit) != 0, "{bits:x}: bit {bit} is not set");
                seen |= 1 << bit;
            }
            assert_eq!(seen, bits, "{bits:x}: some set bit never drawn");
        }
    }
}
