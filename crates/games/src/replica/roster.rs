//! Each side's pieces as a list of their squares (a *roster*), kept beside the bitboards so
//! that a random draw names the piece of a rank with one look-up, where the bitboard needs the
//! n-th set bit found (a chain of dependent steps: a fifth of a playout's time). The order is
//! the pieces' own history, not the squares' order, which a uniform draw does not mind; the
//! listed decisions keep the squares' order (spec §3.3), from the bitboards.

/// A side has at most 12 pieces (spec §2): a byte each, sixteen bytes in all.
const CAPACITY: u32 = 16;
/// The byte of an unused entry: no square.
const UNUSED: u8 = 0xFF;
const LOW_BITS: u128 = u128::from_le_bytes([0x01; 16]);
const HIGH_BITS: u128 = u128::from_le_bytes([0x80; 16]);

/// The squares (bit indices, a1 = 0) of one side's pieces, a byte each, the unused bytes
/// [`UNUSED`]. The pieces are the entries below the side's piece count. Bytes rather than
/// one 128-bit word, so that reading or moving one entry is one load or store; finding a
/// square reads all sixteen at once as one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Roster([u8; CAPACITY as usize]);

impl Roster {
    /// The roster of the pieces of `bits`, in the squares' order.
    pub(super) fn of(bits: u64) -> Roster {
        let mut entries = [UNUSED; CAPACITY as usize];
        let squares = (0..64u8).filter(|&square| bits >> square & 1 != 0);
        for (entry, square) in entries.iter_mut().zip(squares) {
            *entry = square;
        }
        Roster(entries)
    }

    /// The square of entry `index` (below the piece count).
    #[inline]
    pub(super) fn get(self, index: u32) -> usize {
        usize::from(self.0[(index % CAPACITY) as usize])
    }

    /// The entry of the piece on `square`, which must be in the roster: the lowest byte equal
    /// to it, found in all sixteen at once (a byte is zero after the exclusive or exactly
    /// where it equals; borrows only reach bytes above the lowest zero one).
    #[inline]
    pub(super) fn index_of(self, square: usize) -> u32 {
        let equal = u128::from_le_bytes(self.0) ^ (LOW_BITS * (square as u128 & 0x3F));
        let zero = equal.wrapping_sub(LOW_BITS) & !equal & HIGH_BITS;
        zero.trailing_zeros() / 8
    }

    /// The piece of entry `index`, on `from`, moves to `to`.
    #[inline]
    pub(super) fn shift(&mut self, index: u32, to: usize) {
        self.0[(index % CAPACITY) as usize] = (to & 0x3F) as u8;
    }

    /// The piece on `square` leaves; `count` is the number of pieces before it leaves (at
    /// least 1). The last entry takes its place.
    #[inline]
    pub(super) fn remove(&mut self, square: usize, count: u32) {
        let last = ((count + CAPACITY - 1) % CAPACITY) as usize;
        let index = (self.index_of(square) % CAPACITY) as usize;
        // The removed entry takes the last one's square, then the last entry is cleared (when
        // they are the same entry, it ends cleared).
        self.0[index] = self.0[last];
        self.0[last] = UNUSED;
    }

    /// Whether the first `count` entries are exactly the squares of `bits` (each once), and
    /// the others unused.
    #[cfg(test)]
    pub(super) fn holds(self, bits: u64, count: u32) -> bool {
        let mut seen = 0u64;
        for index in 0..count {
            let square = self.get(index);
            if square >= 64 || seen & 1 << square != 0 {
                return false;
            }
            seen |= 1 << square;
        }
        let unused = (count..CAPACITY).all(|index| self.get(index) == usize::from(UNUSED));
        seen == bits && unused
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    #[test]
    fn a_roster_follows_its_pieces_as_they_move_and_leave() {
        let mut rng = SmallRng::seed_from_u64(12);
        for _ in 0..2_000 {
            // Up to 12 pieces on random squares.
            let mut bits = 0u64;
            for _ in 0..rng.random_range(1..=12) {
                bits |= 1 << rng.random_range(0..64);
            }
            let mut roster = Roster::of(bits);
            assert!(roster.holds(bits, bits.count_ones()), "{bits:x}");
            while bits != 0 {
                let count = bits.count_ones();
                let index = rng.random_range(0..count);
                let square = roster.get(index);
                assert_eq!(roster.index_of(square), index, "{bits:x}");
                if rng.random_bool(0.5) {
                    let to = rng.random_range(0..64);
                    if bits & 1 << to == 0 {
                        roster.shift(index, to);
                        bits ^= 1 << square | 1 << to;
                    }
                } else {
                    roster.remove(square, count);
                    bits ^= 1 << square;
                }
                assert!(roster.holds(bits, bits.count_ones()), "{bits:x}");
            }
        }
    }
}
