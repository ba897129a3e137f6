//! Drawing a uniformly random set bit of a 64-bit mask: the playout fast path of a game whose
//! legal decisions are the bits of a mask (Qilin's points and slides, Splut!'s step slots). One
//! population count gives their number, one index is drawn, and the decision is that index's
//! bit, so each legal decision is equally likely and no list is built.

use rand::Rng;

// Only the test uses the broadword selection when the build has a population count.
#[cfg_attr(target_feature = "popcnt", allow(dead_code))]
const ONES: u64 = 0x0101_0101_0101_0101;
#[cfg_attr(target_feature = "popcnt", allow(dead_code))]
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The position of a uniformly random set bit of `bits` (not empty; an empty mask gives some
/// position below 64): a rank drawn below the population count, then the bit of that rank,
/// found without a branch on the bits. The result depends only on `bits` and the generator,
/// whichever way the rank is resolved.
#[inline]
pub fn draw_bit<R: Rng + ?Sized>(bits: u64, rng: &mut R) -> u32 {
    #[cfg(target_feature = "popcnt")]
    {
        select_by_quarters(bits, below(rng, bits.count_ones()))
    }
    #[cfg(not(target_feature = "popcnt"))]
    {
        let totals = byte_totals(bits);
        select_by_bytes(bits, below(rng, (totals >> 56) as u32), totals)
    }
}

/// The position of the set bit of rank `rank` (from 0, the lowest; below the population
/// count of `bits`) in `bits`, found without a branch on the bits.
#[inline]
pub fn select_bit(bits: u64, rank: u32) -> u32 {
    #[cfg(target_feature = "popcnt")]
    {
        select_by_quarters(bits, rank)
    }
    #[cfg(not(target_feature = "popcnt"))]
    {
        select_by_bytes(bits, rank, byte_totals(bits))
    }
}

/// Byte `i` of the result: the set bits of `bits` in its bytes `0..=i` (the top byte is the
/// population count). The bits are counted per byte and summed by one multiplication.
#[cfg_attr(target_feature = "popcnt", allow(dead_code))]
#[inline]
fn byte_totals(bits: u64) -> u64 {
    let mut counts = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    counts.wrapping_mul(ONES)
}

/// The position of the set bit of rank `rank` (from 0, below the population count) in
/// `bits`, whose [`byte_totals`] are `totals`: the rank is compared with all eight totals at
/// once, then a table finishes inside its byte (the broadword selection of Vigna,
/// "Broadword Implementation of Rank/Select Queries", 2008). Without a population count
/// instruction this is the fastest way.
#[cfg_attr(target_feature = "popcnt", allow(dead_code))]
#[inline]
fn select_by_bytes(bits: u64, rank: u32, totals: u64) -> u32 {
    // A byte's high bit is set where its total is at most the rank (all values are below 128,
    // so no byte borrows from the next): those are the bytes below the rank's byte.
    let at_most = (((u64::from(rank) * ONES) | HIGHS) - totals) & HIGHS;
    let byte = ((at_most >> 7).wrapping_mul(ONES) >> 56) as u32 & 7;
    let before = ((totals << 8) >> (8 * byte)) as u32 & 0xFF;
    let in_byte = ((bits >> (8 * byte)) & 0xFF) as usize;
    8 * byte + u32::from(SELECT_IN_BYTE[in_byte][(rank - before) as usize & 7])
}

/// The same as [`select_by_bytes`] with a population count instruction, in two dependent
/// steps: the counts below each quarter (16, 32 and 48 bits, counted side by side) compared
/// with the rank at once give its quarter, then [`select_bit16`] finishes inside it. Three
/// halvings (32, 16, 8 bits) took three dependent counts before the table, and a random
/// playout waits on this selection at every decision: Qilin's playouts ran 3 % faster,
/// Splut!'s 1.5 % (`ludus bench`, the two builds side by side).
#[cfg_attr(not(target_feature = "popcnt"), allow(dead_code))]
#[inline]
fn select_by_quarters(bits: u64, rank: u32) -> u32 {
    let below_1 = (bits & 0xFFFF).count_ones();
    let below_2 = (bits & 0xFFFF_FFFF).count_ones();
    let below_3 = (bits & 0xFFFF_FFFF_FFFF).count_ones();
    let past = [below_1, below_2, below_3].map(|count| u32::from(rank >= count));
    let quarter = past[0] + past[1] + past[2];
    // The count below the rank's quarter: each quarter passed adds its own count.
    let before = past[0] * below_1 + past[1] * (below_2 - below_1) + past[2] * (below_3 - below_2);
    16 * quarter + select_bit16((bits >> (16 * quarter)) as u16, rank - before)
}

/// [`select_bit`] for a set of at most 16 bits (a 4×4 board's squares, or a quarter of a
/// 64-bit set): one halving and one look-up.
#[inline]
pub fn select_bit16(bits: u16, rank: u32) -> u32 {
    let low = (bits & 0xFF).count_ones();
    let upper = u32::from(rank >= low);
    let byte = usize::from(bits >> (8 * upper)) & 0xFF;
    8 * upper + u32::from(SELECT_IN_BYTE[byte][(rank - upper * low) as usize & 7])
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

/// A uniform integer below `bound` (a bound of 0 counts as 1): Lemire's multiply-and-shift
/// with rejection, exact, and one 32-bit draw nearly always ("Fast Random Integer Generation
/// in an Interval", 2019).
#[inline]
pub fn below<R: Rng + ?Sized>(rng: &mut R, bound: u32) -> u32 {
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
    use rand::{Rng, SeedableRng};

    use super::*;

    #[test]
    fn the_16_bit_selection_is_the_64_bit_one() {
        for bits in 1..=u16::MAX {
            for rank in 0..bits.count_ones() {
                let wide = select_bit(u64::from(bits), rank);
                assert_eq!(select_bit16(bits, rank), wide, "{bits:04x} rank {rank}");
            }
        }
    }

    #[test]
    fn both_selections_find_the_bit_of_every_rank() {
        let mut rng = SmallRng::seed_from_u64(4);
        for _ in 0..2000 {
            let bits = (rng.next_u64() & rng.next_u64()) | 1 << (rng.next_u32() % 64);
            let set: Vec<u32> = (0..64).filter(|b| bits & (1 << b) != 0).collect();
            for (rank, &bit) in set.iter().enumerate() {
                let rank = rank as u32;
                assert_eq!(
                    select_by_bytes(bits, rank, byte_totals(bits)),
                    bit,
                    "{bits:x}"
                );
                assert_eq!(select_by_quarters(bits, rank), bit, "{bits:x} rank {rank}");
            }
        }
    }

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
