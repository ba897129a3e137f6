//! Precomputed geometry of the 4x4 board: squares, directions, neighbours, the directions a
//! sowing may take next, and the 10 winning lines. Everything is `const`.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use ludus_engine::grid_name;

/// A square of the board, `a1` (index 0) to `d4` (index 15); index = rank * 4 + file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// Every square in index order: a1, b1, c1, d1, a2, ... d4.
    pub const ALL: [Square; 16] = {
        let mut all = [Square(0); 16];
        let mut i = 0;
        while i < 16 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are in 0..4.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 4 && rank < 4 {
            Some(Square(rank * 4 + file))
        } else {
            None
        }
    }

    /// The square with index `index` (0..16).
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 16 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The file, 0 (a) to 3 (d).
    pub const fn file(self) -> u8 {
        self.0 % 4
    }

    /// The rank, 0 (rank 1) to 3 (rank 4).
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// The index, for indexing per-square arrays.
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }

    /// This square's bit in a 16-bit square set.
    pub const fn bit(self) -> u16 {
        1 << self.0
    }

    /// The square one step in `dir`, if it is on the board.
    pub const fn step(self, dir: Dir) -> Option<Square> {
        let (file, rank) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (f, r) = (file + df, rank + dr);
        if f < 0 || r < 0 {
            return None;
        }
        Square::new(f as u8, r as u8)
    }

    /// The direction from `self` to the orthogonally adjacent square `to`, if adjacent.
    pub fn dir_to(self, to: Square) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d) == Some(to))
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

/// Text that is not a square `a1`..`d4`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BadCell;

impl FromStr for Square {
    type Err = BadCell;
    /// Reads `a1`..`d4`, either case.
    fn from_str(text: &str) -> Result<Square, BadCell> {
        match text.as_bytes() {
            &[file, rank] => {
                let file = file.to_ascii_lowercase().wrapping_sub(b'a');
                let rank = rank.wrapping_sub(b'1');
                Square::new(file, rank).ok_or(BadCell)
            }
            _ => Err(BadCell),
        }
    }
}

/// A sowing direction: `N` (rank + 1), `E` (file + 1), `S` (rank − 1), `W` (file − 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum Dir {
    /// Towards rank 4.
    N = 0,
    /// Towards file d.
    E = 1,
    /// Towards rank 1.
    S = 2,
    /// Towards file a.
    W = 3,
}

impl Dir {
    /// The four directions in the order legal steps are listed.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction with index `index & 3`.
    pub const fn from_index(index: u8) -> Dir {
        Dir::ALL[(index & 3) as usize]
    }

    /// The direction's index, 0..4.
    pub const fn to_usize(self) -> usize {
        self as usize
    }

    /// The direction straight back.
    pub const fn opposite(self) -> Dir {
        Dir::from_index(self as u8 + 2)
    }

    /// The upper-case letter.
    pub const fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }

    /// Reads a letter, either case.
    pub const fn from_letter(letter: u8) -> Option<Dir> {
        match letter.to_ascii_uppercase() {
            b'N' => Some(Dir::N),
            b'E' => Some(Dir::E),
            b'S' => Some(Dir::S),
            b'W' => Some(Dir::W),
            _ => None,
        }
    }

    /// (file, rank) change.
    const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }
}

/// "No previous step" in [`NEXT_DIRS`]: the first step of a sowing.
pub const NO_DIR: u8 = 4;

/// The neighbour of each square in each direction, or `None` at the edge.
pub const NEIGHBOUR: [[Option<Square>; 4]; 16] = {
    let mut table = [[None; 4]; 16];
    let mut sq = 0;
    while sq < 16 {
        let mut d = 0;
        while d < 4 {
            table[sq][d] = Square(sq as u8).step(Dir::from_index(d as u8));
            d += 1;
        }
        sq += 1;
    }
    table
};

/// The directions a sowing may take from a square, by the previous step's direction
/// (or [`NO_DIR`] for the first step), as a bit set over [`Dir`] indices: on the board and
/// never straight back.
pub const NEXT_DIRS: [[u8; 5]; 16] = {
    let mut table = [[0u8; 5]; 16];
    let mut sq = 0;
    while sq < 16 {
        let mut prev = 0;
        while prev < 5 {
            let mut d = 0;
            while d < 4 {
                let back = prev < 4 && (d + 2) % 4 == prev;
                if !back && NEIGHBOUR[sq][d].is_some() {
                    table[sq][prev] |= 1 << d;
                }
                d += 1;
            }
            prev += 1;
        }
        sq += 1;
    }
    table
};

/// The 10 winning lines as square sets: 4 ranks, 4 files, then the diagonals a1-d4, a4-d1.
pub const LINES: [u16; 10] = [
    0x000F, 0x00F0, 0x0F00, 0xF000, // ranks 1..4
    0x1111, 0x2222, 0x4444, 0x8888, // files a..d
    0x8421, // a1 b2 c3 d4
    0x1248, // a4 b3 c2 d1
];

/// The rank (row) of each square as a square set.
pub const RANK_OF: [u16; 16] = {
    let mut table = [0u16; 16];
    let mut sq = 0;
    while sq < 16 {
        table[sq] = LINES[sq / 4];
        sq += 1;
    }
    table
};

/// The file (column) of each square as a square set.
pub const FILE_OF: [u16; 16] = {
    let mut table = [0u16; 16];
    let mut sq = 0;
    while sq < 16 {
        table[sq] = LINES[4 + sq % 4];
        sq += 1;
    }
    table
};

/// Non-zero exactly when the square set `tops` covers one of the 10 lines, found by shifts
/// rather than a loop over the lines: bit 0 of a rank's nibble stays set when the whole rank
/// is covered, a bit of rank 1 when its whole file is, bit 0 or 1 when a diagonal is.
pub const fn lines_of(tops: u16) -> u16 {
    let ranks = tops & (tops >> 1) & (tops >> 2) & (tops >> 3) & 0x1111;
    let files = tops & (tops >> 4) & (tops >> 8) & (tops >> 12) & 0x000F;
    let rising = (tops & LINES[8] == LINES[8]) as u16;
    let falling = (tops & LINES[9] == LINES[9]) as u16;
    ranks | files | rising | falling << 1
}

/// Whether the square set `tops` covers one of the 10 lines.
pub const fn has_line(tops: u16) -> bool {
    lines_of(tops) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_print_in_both_cases() {
        assert_eq!("a1".parse(), Ok(Square(0)));
        assert_eq!("D4".parse(), Ok(Square(15)));
        assert_eq!("b3".parse::<Square>().unwrap().to_string(), "b3");
        for bad in ["", "a", "e1", "a0", "a5", "a11", "1a", "é1"] {
            assert_eq!(bad.parse::<Square>(), Err(BadCell), "{bad}");
        }
    }

    #[test]
    fn adjacency_counts() {
        let degree = |sq: usize| NEIGHBOUR[sq].iter().flatten().count();
        let degrees: Vec<usize> = (0..16).map(degree).collect();
        // 4 corners with 2 neighbours, 8 edges with 3, 4 centres with 4: 48 directed links.
        assert_eq!(degrees.iter().sum::<usize>(), 48);
        assert_eq!(degrees.iter().filter(|&&d| d == 2).count(), 4);
        assert_eq!(degrees.iter().filter(|&&d| d == 4).count(), 4);
        assert_eq!(NEIGHBOUR[0][Dir::N as usize], Some(Square(4)));
        assert_eq!(NEIGHBOUR[3][Dir::E as usize], None);
    }

    #[test]
    fn next_directions_never_go_back() {
        // From b2 after stepping north: N, E, W (not S).
        let b2 = Square::new(1, 1).unwrap().to_usize();
        assert_eq!(NEXT_DIRS[b2][Dir::N as usize], 0b1011);
        assert_eq!(NEXT_DIRS[b2][NO_DIR as usize], 0b1111);
        // From a1, first step: N or E.
        assert_eq!(NEXT_DIRS[0][NO_DIR as usize], 0b0011);
        for dir in Dir::ALL {
            assert_eq!(dir.opposite().opposite(), dir);
        }
    }

    #[test]
    fn ten_lines_of_four() {
        assert_eq!(LINES.len(), 10);
        assert!(LINES.iter().all(|l| l.count_ones() == 4));
        let mut lines = LINES.to_vec();
        lines.sort_unstable();
        lines.dedup();
        assert_eq!(lines.len(), 10);
        assert!(has_line(0x1248) && !has_line(0x1247));
        // The shifts against the lines themselves, on every set of squares.
        for tops in 0..=u16::MAX {
            let covered = LINES.iter().any(|&line| line & !tops == 0);
            assert_eq!(has_line(tops), covered, "{tops:04x}");
        }
        assert_eq!(RANK_OF[5] | FILE_OF[5], 0x00F0 | 0x2222);
    }
}
