//! Every legal slide of a side as one bit of a `u64`, computed with a few shifts and no loop
//! over pieces: the playout fast path counts the slides with one population count and draws
//! one by its bit.
//!
//! Each of the 40 edges joins a lower point `a` and a higher point `a + s`, where the shift
//! `s` is 1 (the 16 edges along a row), 3 (the two halves of file d and the 8 diagonal edges)
//! or one of 4, 5, 7, 8, 9, 12 (two edges each, on files a b c e f g). For a shift `s`, the
//! lower points `a` of the edges whose one end holds an own piece and the other is empty are
//! `lower_s & ((own & empty >> s) | (empty & own >> s))`; the two cases exclude each other,
//! so one bit per edge tells a slide and its direction. The rows' bits stay at `a`, the
//! shift-3 edges go to `24 + a`, and the edges of the six small shifts, whose lower points
//! are all different, share the bits `48 + a`: 40 distinct bits (checked when compiling).

use super::rules::QilinAction;
use super::tables::{Point, EDGES, EDGE_COUNT};

/// The shifts of the small classes, which share one field of the mask.
const SMALL_SHIFTS: [u32; 6] = [4, 5, 7, 8, 9, 12];

/// The lower points of the edges of each shift 0..=12.
const LOWER: [u32; 13] = {
    let mut lower = [0; 13];
    let mut i = 0;
    while i < EDGE_COUNT {
        let (a, b) = EDGES[i];
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        lower[(high - low) as usize] |= 1 << low;
        i += 1;
    }
    lower
};

/// The bit of the mask that stands for the edge from `low` up by `shift`.
const fn mask_bit(low: u8, shift: u8) -> usize {
    match shift {
        1 => low as usize,
        3 => 24 + low as usize,
        _ => 48 + low as usize,
    }
}

/// Edge `i` of [`EDGES`] as (its bit in the mask, its lower point, its higher point).
const fn edge_bit(i: usize) -> (usize, u8, u8) {
    let (a, b) = EDGES[i];
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    let shift = high - low;
    assert!(
        shift == 1 || shift == 3 || is_small(shift as u32),
        "an edge of a shift the mask does not compute"
    );
    (mask_bit(low, shift), low, high)
}

/// For each bit of the mask, the slides along its edge: `[down, up]`, where up goes from the
/// lower point to the higher one (unused bits: a1 to a1).
const SLIDES_AT: [[QilinAction; 2]; 64] = {
    let unused = QilinAction::Slide(Point::A1, Point::A1);
    let mut at = [[unused; 2]; 64];
    let mut used = 0u64;
    let mut i = 0;
    while i < EDGE_COUNT {
        let (bit, low, high) = edge_bit(i);
        assert!(
            used & (1 << bit) == 0,
            "two edges on one bit of the slide mask"
        );
        used |= 1 << bit;
        let (low, high) = (Point::new(low), Point::new(high));
        at[bit] = [QilinAction::Slide(high, low), QilinAction::Slide(low, high)];
        i += 1;
    }
    at
};

/// For each bit of the mask, the lower point of its edge (unused bits: a1).
const LOWER_AT: [u8; 64] = {
    let mut at = [0; 64];
    let mut i = 0;
    while i < EDGE_COUNT {
        let (bit, low, _) = edge_bit(i);
        at[bit] = low;
        i += 1;
    }
    at
};

/// For each bit of the mask, the two points of its edge as bits (unused bits: none). A slide
/// along the edge, either way, flips exactly these two bits of the mover's pieces.
pub const EDGE_AT: [u32; 64] = {
    let mut at = [0; 64];
    let mut i = 0;
    while i < EDGE_COUNT {
        let (bit, low, high) = edge_bit(i);
        at[bit] = 1 << low | 1 << high;
        i += 1;
    }
    at
};

/// Whether `shift` is one of [`SMALL_SHIFTS`].
const fn is_small(shift: u32) -> bool {
    let mut i = 0;
    while i < SMALL_SHIFTS.len() {
        if SMALL_SHIFTS[i] == shift {
            return true;
        }
        i += 1;
    }
    false
}

/// The edges from a point of `own` to a point of `empty` by `shift`, at their lower points.
#[inline]
const fn open_edges(own: u32, empty: u32, shift: u32) -> u32 {
    LOWER[shift as usize] & ((own & (empty >> shift)) | (empty & (own >> shift)))
}

/// The slides of the pieces `own` into the points `empty`, one bit each.
#[inline]
pub const fn slide_mask(own: u32, empty: u32) -> u64 {
    let mut small = 0;
    let mut i = 0;
    while i < SMALL_SHIFTS.len() {
        small |= open_edges(own, empty, SMALL_SHIFTS[i]);
        i += 1;
    }
    open_edges(own, empty, 1) as u64
        | (open_edges(own, empty, 3) as u64) << 24
        | (small as u64) << 48
}

/// The slide of bit `bit` of `slide_mask(own, _)`: along its edge, away from the own piece.
/// Chosen by indexing, not by a branch: the direction is a coin toss in a random playout.
#[inline]
pub fn slide_at(bit: u32, own: u32) -> QilinAction {
    let bit = bit as usize & 63;
    let up = (own >> LOWER_AT[bit]) & 1;
    SLIDES_AT[bit][up as usize]
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::qilin::tables::{Points, ADJACENT, ALL_POINTS};

    #[test]
    fn the_mask_has_one_bit_per_slide() {
        let mut rng = SmallRng::seed_from_u64(40);
        for _ in 0..5000 {
            let own = rng.next_u32() & ALL_POINTS;
            let empty = rng.next_u32() & ALL_POINTS & !own;
            let mut expected = Vec::new();
            for from in Points(own) {
                for to in Points(ADJACENT[from.to_usize()] & empty) {
                    expected.push(QilinAction::Slide(from, to));
                }
            }
            let mask = slide_mask(own, empty);
            let mut found: Vec<_> = (0..64)
                .filter(|bit| mask & (1 << bit) != 0)
                .map(|bit| slide_at(bit, own))
                .collect();
            let key = |action: &QilinAction| match *action {
                QilinAction::Slide(from, to) => (from, to),
                _ => unreachable!("only slides"),
            };
            found.sort_by_key(key);
            expected.sort_by_key(key);
            assert_eq!(found, expected, "own {own:06x} empty {empty:06x}");
        }
    }
}
