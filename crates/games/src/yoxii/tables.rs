//! Geometry of the Yoxii board, computed at compile time: squares, the on-board mask, the
//! eight directions, one step and the whole ray in each direction, the neighbourhood of every
//! square, and the Zobrist keys.
//!
//! Squares are numbered file-major over the full 7×7 grid (`index = file * 7 + rank`, both
//! from 0), so iterating a bitboard's bits visits squares in name order (`a3 a4 a5 b2 …`).
//! The 12 cut corners (`a1 b1 f1 g1 a2 g2 a6 g6 a7 b7 f7 g7`) have names and indices but are
//! never on the board.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use ludus_engine::{grid_name, zobrist_table};
use thiserror::Error;

/// Files and ranks of the grid.
pub const SIZE: u8 = 7;
/// Squares of the full grid, off-board corners included.
pub const GRID: usize = 49;
/// "No square" in the step tables.
pub const NONE: u8 = u8::MAX;

/// A cell of the 7×7 grid, `a1`..`g7`; 37 of them are on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The centre, where the Totem starts.
    pub const D4: Square = Square::new(3, 3);

    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    ///
    /// # Panics
    /// If `file` or `rank` is 7 or more (only game code builds squares from numbers).
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < SIZE && rank < SIZE, "square out of the grid");
        Square(file * SIZE + rank)
    }

    /// The square with grid index `index` (`file * 7 + rank`), if there is one.
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < GRID {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The file, 0 for `a`.
    pub const fn file(self) -> u8 {
        self.0 / SIZE
    }

    /// The rank, 0 for rank 1.
    pub const fn rank(self) -> u8 {
        self.0 % SIZE
    }

    /// The grid index, for indexing per-square arrays.
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }

    /// This square's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Whether the square is one of the 37 squares of the board.
    pub const fn is_on_board(self) -> bool {
        ON_BOARD & self.bit() != 0
    }

    /// The on-board squares of `bits`, in name order.
    pub fn iter(bits: u64) -> impl Iterator<Item = Square> {
        Bits(bits)
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

/// Text that is not a square name `a1`..`g7`.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("bad square '{0}': expected a file a-g and a rank 1-7, like d4")]
pub struct BadCell(pub String);

impl FromStr for Square {
    type Err = BadCell;

    /// Reads `a1`..`g7` (either case). Off-board corners are read too: check
    /// [`Square::is_on_board`].
    fn from_str(text: &str) -> Result<Square, BadCell> {
        match text.as_bytes() {
            &[file, rank] => {
                let file = file.to_ascii_lowercase().wrapping_sub(b'a');
                let rank = rank.wrapping_sub(b'1');
                if file < SIZE && rank < SIZE {
                    Ok(Square::new(file, rank))
                } else {
                    Err(BadCell(text.to_string()))
                }
            }
            _ => Err(BadCell(text.to_string())),
        }
    }
}

/// Iterates the squares of a bitboard, lowest index first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }
}

const fn on_board(file: u8, rank: u8) -> bool {
    let f = if file < 3 { file } else { 6 - file };
    let r = if rank < 3 { rank } else { 6 - rank };
    f + r >= 2
}

const fn on_board_mask() -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < GRID as u8 {
        if on_board(i / SIZE, i % SIZE) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// The 37 squares of the board.
pub const ON_BOARD: u64 = on_board_mask();

/// The eight directions as (file, rank) steps: N, NE, E, SE, S, SW, W, NW.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const fn step_table() -> [[u8; GRID]; 8] {
    let mut table = [[NONE; GRID]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut i = 0;
        while i < GRID as u8 {
            let file = (i / SIZE) as i8 + df;
            let rank = (i % SIZE) as i8 + dr;
            let inside = file >= 0 && file < SIZE as i8 && rank >= 0 && rank < SIZE as i8;
            if inside && on_board(i / SIZE, i % SIZE) && on_board(file as u8, rank as u8) {
                table[d][i as usize] = file as u8 * SIZE + rank as u8;
            }
            i += 1;
        }
        d += 1;
    }
    table
}

/// `STEP[d][s]`: the on-board square one step from on-board square `s` in direction `d`, or
/// [`NONE`]. The board is convex along every line, so a ray that leaves it never comes back.
pub const STEP: [[u8; GRID]; 8] = step_table();

const fn ray_table() -> [[u64; 8]; GRID] {
    let mut table = [[0u64; 8]; GRID];
    let mut i = 0;
    while i < GRID {
        let mut d = 0;
        while d < 8 {
            let mut p = STEP[d][i];
            while p != NONE {
                table[i][d] |= 1 << p;
                p = STEP[d][p as usize];
            }
            d += 1;
        }
        i += 1;
    }
    table
}

/// `RAYS[s][d]`: the on-board squares beyond `s` in direction `d`, as a bitboard. A step N,
/// NE, E or SE (directions 0-3) adds 1, 8, 7 or 6 to the index and the others subtract as
/// much, so the square of a ray nearest `s` is its lowest bit in directions 0-3 and its
/// highest in 4-7. One square's eight rays fill one cache line.
pub const RAYS: [[u64; 8]; GRID] = ray_table();

/// The squares the Totem on `from` can reach for a side whose pieces are `own`, `empty` the
/// empty squares: per direction, the first empty square after an unbroken (possibly empty)
/// run of `own` pieces. For the real board ([`Yoxii::totem_targets`]) and for boards a search
/// only imagines. Per direction, the first square that is not `own` is the nearest bit of
/// the ray without `own`: a destination if it is empty (a ray ends at the board's edge).
///
/// [`Yoxii::totem_targets`]: super::Yoxii::totem_targets
pub fn totem_targets_from(from: usize, own: u64, empty: u64) -> u64 {
    let rays = &RAYS[from];
    let mut stops = 0;
    for ray in &rays[..4] {
        let beyond = ray & !own;
        stops |= beyond & beyond.wrapping_neg();
    }
    for ray in &rays[4..] {
        let beyond = ray & !own;
        stops |= (1u64 << 63)
            .checked_shr(beyond.leading_zeros())
            .unwrap_or(0);
    }
    stops & empty
}

const fn neighbour_table() -> [u64; GRID] {
    let mut table = [0u64; GRID];
    let mut i = 0;
    while i < GRID {
        let mut d = 0;
        while d < 8 {
            if STEP[d][i] != NONE {
                table[i] |= 1 << STEP[d][i];
            }
            d += 1;
        }
        i += 1;
    }
    table
}

/// `NEIGHBOURS[s]`: the on-board squares adjacent to `s` (8-neighbourhood): 8, 7, 5 or 4.
pub const NEIGHBOURS: [u64; GRID] = neighbour_table();

const fn view_ids() -> [u16; GRID] {
    let mut ids = [u16::MAX; GRID];
    let mut next = 0;
    let mut i = 0;
    while i < GRID {
        if ON_BOARD & (1 << i) != 0 {
            ids[i] = next;
            next += 1;
        }
        i += 1;
    }
    ids
}

/// `VIEW_ID[s]`: the index of on-board square `s` among the view's cells (name order).
pub const VIEW_ID: [u16; GRID] = view_ids();

/// Zobrist keys: a piece of seat `s` and value `v` (1..=4) on square `q` is
/// `KEYS[(s * 4 + v - 1) * 49 + q]`, the Totem on `q` is `KEYS[TOTEM_KEYS + q]`, Red to move
/// is `KEYS[RED_KEY]`, a pending placement is `KEYS[PLACING_KEY]`.
pub static KEYS: [u64; KEY_COUNT] = zobrist_table(0x594F_5849_4921);
/// Offset of the Totem keys in [`KEYS`].
pub const TOTEM_KEYS: usize = 8 * GRID;
/// The key of "Red to move".
pub const RED_KEY: usize = TOTEM_KEYS + GRID;
/// The key of "the Totem has moved, a placement is pending".
pub const PLACING_KEY: usize = RED_KEY + 1;
const KEY_COUNT: usize = PLACING_KEY + 1;

/// The key of a piece of `seat` (0 White, 1 Red) and `value` (1..=4) on `square`.
pub fn piece_key(seat: usize, value: u8, square: Square) -> u64 {
    KEYS[(seat * 4 + value as usize - 1) * GRID + square.to_usize()]
}

/// The key of the Totem on `square`.
pub fn totem_key(square: Square) -> u64 {
    KEYS[TOTEM_KEYS + square.to_usize()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn the_board_has_37_squares_and_12_cut_corners() {
        assert_eq!(ON_BOARD.count_ones(), 37);
        let off: Vec<String> = (0..GRID as u8)
            .filter_map(Square::from_index)
            .filter(|s| !s.is_on_board())
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            off,
            ["a1", "a2", "a6", "a7", "b1", "b7", "f1", "f7", "g1", "g2", "g6", "g7"]
        );
    }

    #[test]
    fn neighbour_counts_match_the_spec() {
        let count = |n: u32| {
            Square::iter(ON_BOARD)
                .filter(|s| NEIGHBOURS[s.to_usize()].count_ones() == n)
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(count(8), "b4 c3 c4 c5 d2 d3 d4 d5 d6 e3 e4 e5 f4");
        assert_eq!(count(7), "b3 b5 c2 c6 e2 e6 f3 f5");
        assert_eq!(count(5), "a4 b2 b6 d1 d7 f2 f6 g4");
        assert_eq!(count(4), "a3 a5 c1 c7 e1 e7 g3 g5");
        for s in Square::iter(ON_BOARD) {
            assert_eq!(NEIGHBOURS[s.to_usize()] & !ON_BOARD, 0);
            assert_eq!(NEIGHBOURS[s.to_usize()] & s.bit(), 0);
        }
    }

    #[test]
    fn steps_stop_at_the_edge() {
        assert_eq!(STEP[0][sq("d4").to_usize()], sq("d5").to_usize() as u8);
        assert_eq!(STEP[0][sq("d7").to_usize()], NONE);
        // c7 west is the cut corner b7.
        assert_eq!(STEP[6][sq("c7").to_usize()], NONE);
        assert_eq!(STEP[5][sq("b2").to_usize()], NONE);
    }

    #[test]
    fn the_nearest_square_of_a_ray_is_its_lowest_bit_going_up_and_highest_going_down() {
        for s in Square::iter(ON_BOARD) {
            for (d, step) in STEP.iter().enumerate() {
                let ray = RAYS[s.to_usize()][d];
                let nearest = match step[s.to_usize()] {
                    NONE => 0,
                    p => 1u64 << p,
                };
                let end = if d < 4 {
                    ray & ray.wrapping_neg()
                } else {
                    (1u64 << 63).checked_shr(ray.leading_zeros()).unwrap_or(0)
                };
                assert_eq!(end, nearest, "{s} direction {d}");
                assert_eq!(ray & !ON_BOARD, 0);
            }
        }
        // d4 north: d5 d6 d7.
        assert_eq!(
            RAYS[sq("d4").to_usize()][0],
            sq("d5").bit() | sq("d6").bit() | sq("d7").bit()
        );
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for i in 0..GRID as u8 {
            let s = Square::from_index(i).unwrap();
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
        assert_eq!(sq("D4"), Square::D4);
        for bad in ["", "d", "d0", "d8", "h4", "d44", "4d", "é"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert_eq!(VIEW_ID[sq("a3").to_usize()], 0);
        assert_eq!(VIEW_ID[sq("g5").to_usize()], 36);
    }
}
