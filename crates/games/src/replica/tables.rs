//! Replica's geometry: squares, the eight queen directions and their rays as `u64` bitboards,
//! computed once at compile time. Bit `rank * 8 + file` is the square (`a1` = bit 0, `h8` = 63).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use ludus_engine::{grid_name, zobrist_table};

/// A square of the 8×8 board, `a1` (lower left) to `h8`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// White's home corner, Black's target.
    pub const A1: Square = Square(0);
    /// Black's home corner, White's target.
    pub const H8: Square = Square(63);

    // Each of these is a few instructions, called from the searches and playouts that other
    // crates instantiate for Replica, where without `#[inline]` each is a call.

    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    ///
    /// # Panics
    /// If `file` or `rank` is 8 or more (squares are built from checked input).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 8, "square out of the board");
        Square(rank * 8 + file)
    }

    /// The square with bit index `index` (0..64).
    ///
    /// # Panics
    /// If `index >= 64`.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index)
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The bit index, for indexing tables.
    #[inline]
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }

    /// The square's bit in a bitboard.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Every square, a1 b1 … h1 a2 … h8 (the §3.3 scan order).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The square's name (`a1`), lent from the names made once for every grid board.
    pub fn name(self) -> Cow<'static, str> {
        grid_name(self.file(), self.rank())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A text that is not a square name `a1`..`h8`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("bad square '{0}': expected a1..h8")]
pub struct BadCell(pub String);

impl FromStr for Square {
    type Err = BadCell;

    /// Reads `a1`..`h8`, in either case.
    fn from_str(text: &str) -> Result<Square, BadCell> {
        match text.as_bytes() {
            &[f, r] => {
                let f = f.to_ascii_lowercase();
                if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
                    Ok(Square::new(f - b'a', r - b'1'))
                } else {
                    Err(BadCell(text.to_string()))
                }
            }
            _ => Err(BadCell(text.to_string())),
        }
    }
}

/// One of the eight queen directions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Dir(u8);

/// (file step, rank step) of each direction, by index.
const STEPS: [(i8, i8); 8] = [
    (0, 1),   // N
    (1, 0),   // E
    (1, 1),   // NE
    (0, -1),  // S
    (-1, 0),  // W
    (-1, -1), // SW
    (-1, 1),  // NW
    (1, -1),  // SE
];

impl Dir {
    /// North (up the board).
    pub const N: Dir = Dir(0);
    /// East.
    pub const E: Dir = Dir(1);
    /// North-east.
    pub const NE: Dir = Dir(2);
    /// South.
    pub const S: Dir = Dir(3);
    /// West.
    pub const W: Dir = Dir(4);
    /// South-west.
    pub const SW: Dir = Dir(5);
    /// North-west.
    pub const NW: Dir = Dir(6);
    /// South-east.
    pub const SE: Dir = Dir(7);
    /// All eight, in table order.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::E,
        Dir::NE,
        Dir::S,
        Dir::W,
        Dir::SW,
        Dir::NW,
        Dir::SE,
    ];

    /// Whether squares along this direction have growing bit indices (N, E, NE, NW), so that
    /// the nearest square of a ray is its lowest bit.
    #[inline]
    pub const fn is_increasing(self) -> bool {
        let (df, dr) = STEPS[self.0 as usize];
        dr * 8 + df > 0
    }

    /// The index into per-direction tables.
    #[inline]
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }
}

/// `RAYS[d][s]`: the squares strictly beyond `s` in direction `d`, up to the edge.
pub static RAYS: [[u64; 64]; 8] = rays();

const fn rays() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = STEPS[d];
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i8 + df, (s / 8) as i8 + dr);
            let mut ray = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            table[d][s] = ray;
            s += 1;
        }
        d += 1;
    }
    table
}

/// The square of `set` nearest to the start of a ray in direction `d` (`set` non-empty and on
/// one such ray).
#[inline]
pub const fn nearest(set: u64, d: Dir) -> u8 {
    if d.is_increasing() {
        set.trailing_zeros() as u8
    } else {
        set.ilog2() as u8
    }
}

/// The squares a viewer on `from` sees in direction `d` when only `blockers` stop sight: the ray
/// up to, not including, the first blocker.
#[inline]
pub fn sight_ray(from: Square, d: Dir, blockers: u64) -> u64 {
    let ray = RAYS[d.to_usize()][from.to_usize()];
    let hit = ray & blockers;
    if d.is_increasing() {
        // The ray's squares below the lowest blocker (all of it when there is none).
        ray & (hit & hit.wrapping_neg()).wrapping_sub(1)
    } else {
        // The ray's squares above the highest blocker.
        ray & u64::MAX.checked_shl(64 - hit.leading_zeros()).unwrap_or(0)
    }
}

/// Zobrist keys: 64 per piece kind (white man, white king, black man, black king), then one for
/// Black to move.
pub static KEYS: [u64; 4 * 64 + 1] = zobrist_table(0x5245_504C_4943_4100);

/// The key index of Black to move.
pub const BLACK_TO_MOVE_KEY: usize = 4 * 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_have_the_right_lengths() {
        let a1 = Square::A1.to_usize();
        assert_eq!(RAYS[Dir::N.to_usize()][a1].count_ones(), 7);
        assert_eq!(RAYS[Dir::NE.to_usize()][a1].count_ones(), 7);
        assert_eq!(RAYS[Dir::S.to_usize()][a1], 0);
        assert_eq!(RAYS[Dir::SE.to_usize()][Square::H8.to_usize()], 0);
        // Every square sees 21 to 27 others along the eight rays.
        let total: u32 = (0..64)
            .map(|s| RAYS.iter().map(|r| r[s].count_ones()).sum::<u32>())
            .sum();
        assert_eq!(total, 1456);
    }

    #[test]
    fn opposite_rays_are_mirrors() {
        for s in Square::all() {
            for (a, b) in [(0, 3), (1, 4), (2, 5), (6, 7)] {
                for t in Square::all() {
                    let forward = RAYS[a][s.to_usize()] & t.bit() != 0;
                    let back = RAYS[b][t.to_usize()] & s.bit() != 0;
                    assert_eq!(forward, back);
                }
            }
        }
    }

    #[test]
    fn nearest_and_sight_stop_at_the_first_blocker() {
        let c3: Square = "c3".parse().unwrap();
        let blockers = Square::new(2, 5).bit() | Square::new(2, 6).bit();
        let seen = sight_ray(c3, Dir::N, blockers);
        assert_eq!(seen, Square::new(2, 3).bit() | Square::new(2, 4).bit());
        assert_eq!(nearest(blockers, Dir::N), Square::new(2, 5).0);
        assert_eq!(nearest(blockers, Dir::S), Square::new(2, 6).0);
    }

    #[test]
    fn square_names_round_trip() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
        assert_eq!("H8".parse::<Square>(), Ok(Square::H8));
        for bad in ["", "a", "a9", "i1", "a10", "1a", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
