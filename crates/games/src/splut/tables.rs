//! Geometry computed once: squares of a padded 27×27 grid, the four directions, the diamond of
//! every board size, the setup squares of §2 and the Zobrist keys.
//!
//! Every board size (9..=25) lives in the same grid: square (x, y) of the N×N bounding grid has
//! index `(y + 1) * 27 + x + 1`, so a step is `±1` or `±27` and the ring of padding cells (and
//! every grid cell outside the diamond) is marked [`OFF`] in the board array: a walk off the
//! board always meets an `OFF` cell before it could leave the array.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use ludus_engine::{grid_name, zobrist_table};

/// Width of the padded grid.
pub(super) const STRIDE: usize = 27;
/// Cells of the padded grid.
pub(super) const GRID: usize = STRIDE * STRIDE;
/// Length of a board array: the grid rounded up to a power of two, so that an index masked
/// with `BOARD - 1` needs no bounds check (the cells past the grid are `OFF` and never read).
pub(super) const BOARD: usize = 1024;
/// The smallest board size.
pub const MIN_SIZE: u32 = 9;
/// The largest board size (files `a..y`).
pub const MAX_SIZE: u32 = 25;

/// Board-array code of an empty on-board square.
pub(super) const EMPTY: u8 = 0;
/// Board-array code of a cell outside the diamond.
pub(super) const OFF: u8 = 255;

/// A square of the board, named as in the spec (`e1`, `f10`). It may also denote a padding
/// cell next to the board while a walk is in progress; [`Square::on_board`] tells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u16);

impl Square {
    /// Marks "no square" (a removed piece); never on any board.
    pub(super) const NONE: Square = Square(0);

    /// The square with 0-based `file` (from the west) and `rank` (from the south).
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((rank as u16 + 1) * STRIDE as u16 + file as u16 + 1)
    }

    /// The 0-based file, from the west.
    pub const fn file(self) -> u8 {
        (self.0 as usize % STRIDE) as u8 - 1
    }

    /// The 0-based rank, from the south.
    pub const fn rank(self) -> u8 {
        (self.0 as usize / STRIDE) as u8 - 1
    }

    /// The index into the padded grid.
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }

    /// The index into a board array (masked: provably in bounds).
    #[inline]
    pub(super) const fn cell(self) -> usize {
        self.0 as usize & (BOARD - 1)
    }

    /// The neighbour in direction `dir` (possibly off the board, never outside the grid when
    /// `self` is on the board).
    #[inline]
    pub(super) const fn step(self, dir: Dir) -> Square {
        Square((self.0 as i32 + dir.offset()) as u16)
    }

    /// Whether the square is on the diamond of an N×N board.
    pub fn on_board(self, size: u32) -> bool {
        let (x, y) = (
            self.0 as i32 % STRIDE as i32 - 1,
            self.0 as i32 / STRIDE as i32 - 1,
        );
        let (n, c) = (size as i32, (size as i32 - 1) / 2);
        (0..n).contains(&x) && (0..n).contains(&y) && (x - c).abs() + (y - c).abs() <= c
    }

    /// The direction from `self` to the adjacent square `to`, if they are neighbours.
    pub fn direction_to(self, to: Square) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d) == to)
    }

    /// Manhattan distance between two squares.
    pub fn distance(self, other: Square) -> u32 {
        (self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())) as u32
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

/// A square name that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("bad square '{0}': expected a file a..y and a rank 1..25, like e1 or f10")]
pub struct BadCell(pub String);

impl FromStr for Square {
    type Err = BadCell;
    fn from_str(text: &str) -> Result<Square, BadCell> {
        let bad = || BadCell(text.to_string());
        let mut chars = text.chars();
        let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        let rank = chars.as_str();
        if !('a'..='y').contains(&file)
            || rank.is_empty()
            || rank.len() > 2
            || !rank.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let rank: u8 = rank.parse().map_err(|_| bad())?;
        if !(1..=MAX_SIZE as u8).contains(&rank) || rank.to_string().len() != text.len() - 1 {
            return Err(bad());
        }
        Ok(Square::new(file as u8 - b'a', rank - 1))
    }
}

/// One of the four directions; diagonals do not exist in Splut!.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Dir {
    /// Rank + 1.
    North,
    /// File + 1.
    East,
    /// Rank − 1.
    South,
    /// File − 1.
    West,
}

impl Dir {
    /// All directions, in the order `n e s w`.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The grid offset of one step.
    #[inline]
    pub(super) const fn offset(self) -> i32 {
        match self {
            Dir::North => STRIDE as i32,
            Dir::East => 1,
            Dir::South => -(STRIDE as i32),
            Dir::West => -1,
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// The notation letter: `n`, `e`, `s` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Dir::North => 'n',
            Dir::East => 'e',
            Dir::South => 's',
            Dir::West => 'w',
        }
    }

    /// The direction written `letter` (either case).
    pub fn from_letter(letter: char) -> Option<Dir> {
        match letter.to_ascii_lowercase() {
            'n' => Some(Dir::North),
            'e' => Some(Dir::East),
            's' => Some(Dir::South),
            'w' => Some(Dir::West),
            _ => None,
        }
    }
}

/// A seat's place at the table, named after the tip its rock starts on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Side {
    /// The tip at the bottom (rank 1); always the first seat.
    South,
    /// The tip on the left (file a).
    West,
    /// The tip at the top.
    North,
    /// The tip on the right.
    East,
}

impl Side {
    /// All sides in clockwise turn order (also the ids of the rocks starting on their tips).
    pub const ALL: [Side; 4] = [Side::South, Side::West, Side::North, Side::East];

    /// The lowercase name used by position strings.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::West => "west",
            Side::North => "north",
            Side::East => "east",
        }
    }

    /// The sides in play for `players` players, in turn order (§2).
    pub fn seated(players: u32) -> &'static [Side] {
        match players {
            2 => &[Side::South, Side::North],
            3 => &[Side::South, Side::West, Side::North],
            _ => &Side::ALL,
        }
    }

    /// The setup of §2 on an N×N board: the tip (rock), sorcerer, dwarf and troll squares.
    pub fn setup(self, size: u32) -> [Square; 4] {
        let n = size as u8;
        let c = (n - 1) / 2;
        let sq = Square::new;
        match self {
            Side::South => [sq(c, 0), sq(c - 1, 1), sq(c, 1), sq(c + 1, 1)],
            Side::North => [
                sq(c, n - 1),
                sq(c + 1, n - 2),
                sq(c, n - 2),
                sq(c - 1, n - 2),
            ],
            Side::West => [sq(0, c), sq(1, c + 1), sq(1, c), sq(1, c - 1)],
            Side::East => [
                sq(n - 1, c),
                sq(n - 2, c - 1),
                sq(n - 2, c),
                sq(n - 2, c + 1),
            ],
        }
    }
}

/// The squares of the N×N diamond, rank by rank from the south, west to east.
pub fn squares(size: u32) -> impl Iterator<Item = Square> {
    (0..size as u8)
        .flat_map(move |y| (0..size as u8).map(move |x| Square::new(x, y)))
        .filter(move |s| s.on_board(size))
}

/// The board sizes, smallest first (odd, 9..=25): the tables made once per size are in this
/// order.
pub(super) fn sizes() -> impl Iterator<Item = u32> {
    (MIN_SIZE..=MAX_SIZE).step_by(2)
}

/// Where `size` lies among [`sizes`] (a size out of range counts as the nearest).
pub(super) fn size_index(size: u32) -> usize {
    ((size.clamp(MIN_SIZE, MAX_SIZE) - MIN_SIZE) / 2) as usize
}

/// The empty board of each size: `EMPTY` on the diamond, `OFF` elsewhere.
static TEMPLATES: LazyLock<Vec<[u8; BOARD]>> = LazyLock::new(|| {
    sizes()
        .map(|size| {
            let mut board = [OFF; BOARD];
            for s in squares(size) {
                board[s.to_usize()] = EMPTY;
            }
            board
        })
        .collect()
});

/// The empty board array of an N×N board (N odd, 9..=25).
pub(super) fn empty_board(size: u32) -> &'static [u8; BOARD] {
    &TEMPLATES[size_index(size)]
}

/// How far each square of each size's board reaches in each direction: bit `d` set where
/// the neighbour in direction `d` is on the board, bit `4 + d` where the square two steps
/// that way is too (a dwarf's push needs room behind the neighbour).
static REACH_TEMPLATES: LazyLock<Vec<[u8; BOARD]>> = LazyLock::new(|| {
    sizes()
        .map(|size| {
            let board = empty_board(size);
            let mut reach = [0; BOARD];
            for s in squares(size) {
                for d in Dir::ALL {
                    let one = board[s.step(d).cell()] == EMPTY;
                    let two = one && board[s.step(d).step(d).cell()] == EMPTY;
                    reach[s.cell()] |= (u8::from(one) | u8::from(two) << 4) << d as u32;
                }
            }
            reach
        })
        .collect()
});

/// How far each square of the empty N×N board (N odd, 9..=25) reaches, by cell: the on-board
/// neighbours (bits `0..4`) and the on-board squares two steps away (bits `4..8`).
pub(super) fn reach(size: u32) -> &'static [u8; BOARD] {
    &REACH_TEMPLATES[size_index(size)]
}

/// Zobrist layout: 13 piece tables (0 = rock, 1 + seat × 3 + kind), then the locked, moved
/// and active-levitation flags per rock square, then seat to move (4), steps left (4) and
/// "levitation spent" (1).
pub(super) const Z_LOCKED: usize = 13 * GRID;
pub(super) const Z_MOVED: usize = 14 * GRID;
pub(super) const Z_ACTIVE: usize = 15 * GRID;
pub(super) const Z_TO_MOVE: usize = 16 * GRID;
pub(super) const Z_STEPS: usize = Z_TO_MOVE + 4;
pub(super) const Z_SPENT: usize = Z_STEPS + 4;
const Z_LEN: usize = Z_SPENT + 1;

/// The Zobrist keys.
pub(super) static ZOBRIST: [u64; Z_LEN] = zobrist_table(0x5350_4C55_5421);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_square_reaches_the_squares_on_its_board() {
        for size in sizes() {
            for sq in squares(size) {
                let reach = reach(size)[sq.cell()];
                for d in Dir::ALL {
                    let one = sq.step(d).on_board(size);
                    let two = sq.step(d).step(d).on_board(size);
                    assert_eq!(reach >> d as u32 & 1 != 0, one, "{size} {sq} {d:?}");
                    assert_eq!(reach >> (4 + d as u32) & 1 != 0, two, "{size} {sq} {d:?}");
                }
            }
        }
    }

    #[test]
    fn square_counts_follow_the_formula() {
        for size in (MIN_SIZE..=MAX_SIZE).step_by(2) {
            assert_eq!(squares(size).count() as u32, (size * size).div_ceil(2));
            let board = empty_board(size);
            assert_eq!(
                board.iter().map(|&c| u32::from(c == EMPTY)).sum::<u32>(),
                (size * size).div_ceil(2)
            );
        }
        assert_eq!(squares(9).count(), 41);
        assert_eq!(squares(13).count(), 85);
    }

    #[test]
    fn only_the_tips_have_a_single_neighbour() {
        let board = empty_board(9);
        let lonely: Vec<String> = squares(9)
            .filter(|s| {
                Dir::ALL
                    .iter()
                    .filter(|&&d| board[s.step(d).cell()] == EMPTY)
                    .count()
                    == 1
            })
            .map(|s| s.to_string())
            .collect();
        assert_eq!(lonely, ["e1", "a5", "i5", "e9"]);
        // Interior squares have four neighbours; the edge is never left silently.
        for size in [9, 25] {
            let board = empty_board(size);
            for s in squares(size) {
                for d in Dir::ALL {
                    let t = s.step(d);
                    assert!(t.to_usize() < GRID);
                    assert_eq!(board[t.cell()] == EMPTY, t.on_board(size));
                }
            }
        }
    }

    #[test]
    fn squares_read_and_write_the_spec_names() {
        for text in ["e1", "a5", "f10", "y13"] {
            assert_eq!(text.parse::<Square>().unwrap().to_string(), text);
        }
        for bad in ["", "e", "z1", "e0", "e26", "e01", "5e", "e1x", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert!(!"h7".parse::<Square>().unwrap().on_board(9));
        assert!("g7".parse::<Square>().unwrap().on_board(9));
    }

    #[test]
    fn setup_matches_the_official_picture() {
        let names = |side: Side| side.setup(9).map(|s| s.to_string());
        assert_eq!(names(Side::South), ["e1", "d2", "e2", "f2"]);
        assert_eq!(names(Side::West), ["a5", "b6", "b5", "b4"]);
        assert_eq!(names(Side::North), ["e9", "f8", "e8", "d8"]);
        assert_eq!(names(Side::East), ["i5", "h4", "h5", "h6"]);
    }
}
