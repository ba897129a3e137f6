//! Board geometry, computed once at compile time: the 24 points in the canonical order, the 20
//! lines of three, the 40 edges and the neighbour masks (spec §1).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use super::rules::QilinAction;

/// The number of points on the board.
pub const POINT_COUNT: usize = 24;

/// Every point as a bit of a `u32` bitboard.
pub const ALL_POINTS: u32 = (1 << POINT_COUNT) - 1;

/// The point names in the canonical order (the seed's board list, row by row from the bottom).
pub const POINT_NAMES: [&str; POINT_COUNT] = [
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
    "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
];

/// One of the 24 points, by its index in the canonical order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Point(u8);

/// A point name that is not one of the 24 points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BadCell;

impl fmt::Display for BadCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a point a1..g7 of the board")
    }
}

macro_rules! point_consts {
    ($($name:ident = $index:expr),* $(,)?) => {
        impl Point {
            $(
                #[doc = concat!("The point ", stringify!($name), ".")]
                pub const $name: Point = Point($index);
            )*
        }
    };
}

point_consts! {
    A1 = 0, D1 = 1, G1 = 2, B2 = 3, D2 = 4, F2 = 5, C3 = 6, D3 = 7, E3 = 8, A4 = 9, B4 = 10,
    C4 = 11, E4 = 12, F4 = 13, G4 = 14, C5 = 15, D5 = 16, E5 = 17, B6 = 18, D6 = 19, F6 = 20,
    A7 = 21, D7 = 22, G7 = 23,
}

impl Point {
    /// The point with canonical index `index`.
    ///
    /// # Panics
    /// If `index >= 24` (indices come from the tables, never from user text).
    #[inline]
    pub const fn new(index: u8) -> Point {
        assert!((index as usize) < POINT_COUNT, "point index out of range");
        Point(index)
    }

    /// The canonical index, for indexing per-point tables.
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }

    /// The point's bit in a bitboard.
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// All points in the canonical order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINT_COUNT as u8).map(Point)
    }

    /// The column (0 for file a) and row (0 for rank 1).
    pub const fn coords(self) -> (u8, u8) {
        COORDS[self.0 as usize]
    }

    /// The point at file `file` (0..7) and rank `rank` (0..7), if there is one.
    pub fn at(file: u8, rank: u8) -> Option<Point> {
        let index = *GRID.get(rank as usize)?.get(file as usize)?;
        (index != NONE).then_some(Point(index))
    }

    /// The lowest point of a bitboard, or a1 if it is empty.
    #[inline]
    pub const fn lowest_or_a1(bits: u32) -> Point {
        Point((bits & ALL_POINTS).trailing_zeros() as u8 % 32)
    }

    /// The lowest point of a non-empty bitboard.
    pub const fn lowest(bits: u32) -> Point {
        Point(bits.trailing_zeros() as u8)
    }

    /// The point's name (`d1`), lent from [`POINT_NAMES`].
    pub fn name(self) -> Cow<'static, str> {
        Cow::Borrowed(POINT_NAMES[self.to_usize()])
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(POINT_NAMES[self.to_usize()])
    }
}

impl FromStr for Point {
    type Err = BadCell;

    /// Reads a point name, case-insensitively (`d1`, `D1`).
    fn from_str(text: &str) -> Result<Point, BadCell> {
        let &[file, rank] = text.as_bytes() else {
            return Err(BadCell);
        };
        let file = file.to_ascii_lowercase().wrapping_sub(b'a');
        let rank = rank.wrapping_sub(b'1');
        Point::at(file, rank).ok_or(BadCell)
    }
}

/// Iterates the points of a bitboard in the canonical order.
#[derive(Clone, Debug)]
pub struct Points(pub u32);

impl Iterator for Points {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let point = Point::lowest(self.0);
        self.0 &= self.0 - 1;
        Some(point)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

const NONE: u8 = u8::MAX;

const COORDS: [(u8, u8); POINT_COUNT] = {
    let mut coords = [(0, 0); POINT_COUNT];
    let mut i = 0;
    while i < POINT_COUNT {
        let name = POINT_NAMES[i].as_bytes();
        coords[i] = (name[0] - b'a', name[1] - b'1');
        i += 1;
    }
    coords
};

const GRID: [[u8; 7]; 7] = {
    let mut grid = [[NONE; 7]; 7];
    let mut i = 0;
    while i < POINT_COUNT {
        let (file, rank) = COORDS[i];
        grid[rank as usize][file as usize] = i as u8;
        i += 1;
    }
    grid
};

/// The number of lines of three.
pub const LINE_COUNT: usize = 20;

/// The 20 lines of three, as canonical indices in board order (spec §1).
pub const LINE_POINTS: [[u8; 3]; LINE_COUNT] = [
    // Horizontal.
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [9, 10, 11],
    [12, 13, 14],
    [15, 16, 17],
    [18, 19, 20],
    [21, 22, 23],
    // Vertical.
    [0, 9, 21],
    [3, 10, 18],
    [6, 11, 15],
    [1, 4, 7],
    [16, 19, 22],
    [8, 12, 17],
    [5, 13, 20],
    [2, 14, 23],
    // The four corner diagonals.
    [0, 3, 6],
    [2, 5, 8],
    [21, 18, 15],
    [23, 20, 17],
];

/// The lines as bitboards.
pub const LINES: [u32; LINE_COUNT] = {
    let mut lines = [0; LINE_COUNT];
    let mut i = 0;
    while i < LINE_COUNT {
        let [a, b, c] = LINE_POINTS[i];
        lines[i] = 1 << a | 1 << b | 1 << c;
        i += 1;
    }
    lines
};

/// A line mask no side can complete: it pads [`LINES_THROUGH`] for points on only two lines.
pub const NO_LINE: u32 = 1 << 31;

/// The lines through each point (2 or 3), padded with [`NO_LINE`].
pub const LINES_THROUGH: [[u32; 3]; POINT_COUNT] = {
    let mut through = [[NO_LINE; 3]; POINT_COUNT];
    let mut counts = [0usize; POINT_COUNT];
    let mut i = 0;
    while i < LINE_COUNT {
        let mut j = 0;
        while j < 3 {
            let p = LINE_POINTS[i][j] as usize;
            through[p][counts[p]] = LINES[i];
            counts[p] += 1;
            j += 1;
        }
        i += 1;
    }
    through
};

/// The number of edges.
pub const EDGE_COUNT: usize = 40;

/// The 40 edges: the consecutive pairs of the lines, two per line.
pub const EDGES: [(u8, u8); EDGE_COUNT] = {
    let mut edges = [(0, 0); EDGE_COUNT];
    let mut i = 0;
    while i < LINE_COUNT {
        let [a, b, c] = LINE_POINTS[i];
        edges[2 * i] = (a, b);
        edges[2 * i + 1] = (b, c);
        i += 1;
    }
    edges
};

/// The neighbours of each point as a bitboard.
pub const ADJACENT: [u32; POINT_COUNT] = {
    let mut adjacent = [0; POINT_COUNT];
    let mut i = 0;
    while i < EDGE_COUNT {
        let (a, b) = EDGES[i];
        adjacent[a as usize] |= 1 << b;
        adjacent[b as usize] |= 1 << a;
        i += 1;
    }
    adjacent
};

/// The neighbours of each point in the canonical order, padded to four with the point itself
/// (never empty when a piece stands on it).
const NEIGHBOUR_LIST: [[Point; 4]; POINT_COUNT] = {
    let mut list = [[Point(0); 4]; POINT_COUNT];
    let mut from = 0;
    while from < POINT_COUNT {
        let mut slots = [Point(from as u8); 4];
        let mut count = 0;
        let mut to = 0;
        while to < POINT_COUNT {
            if ADJACENT[from] & (1 << to) != 0 {
                slots[count] = Point(to as u8);
                count += 1;
            }
            to += 1;
        }
        list[from] = slots;
        from += 1;
    }
    list
};

/// `SLIDE_ROWS[from][open]`: the slides from `from` to the neighbours whose bits are set in
/// `open` (bit `i` for the `i`-th neighbour in the canonical order), in that order, padded to
/// four.
const SLIDE_ROWS: [[[QilinAction; 4]; 16]; POINT_COUNT] = {
    let mut rows = [[[QilinAction::Place(Point(0)); 4]; 16]; POINT_COUNT];
    let mut from = 0;
    while from < POINT_COUNT {
        let mut open = 0;
        while open < 16 {
            let mut count = 0;
            let mut i = 0;
            while i < 4 {
                if open & (1 << i) != 0 {
                    rows[from][open][count] =
                        QilinAction::Slide(Point(from as u8), NEIGHBOUR_LIST[from][i]);
                    count += 1;
                }
                i += 1;
            }
            open += 1;
        }
        from += 1;
    }
    rows
};

/// The slides from `from` into the empty points `empty`: a row of four whose first `count`
/// entries are the slides, in the canonical order. `from` itself must not be empty.
#[inline]
pub fn slide_row(from: Point, empty: u32) -> (&'static [QilinAction; 4], usize) {
    let [a, b, c, d] = NEIGHBOUR_LIST[from.to_usize()];
    let bit = |point: Point, i: u32| ((empty >> point.0) & 1) << i;
    let open = bit(a, 0) | bit(b, 1) | bit(c, 2) | bit(d, 3);
    (
        &SLIDE_ROWS[from.to_usize()][open as usize],
        open.count_ones() as usize,
    )
}

/// `ADJACENT` folded over bytes: entry `[k][b]` is the union of the neighbours of the points
/// `8k + i` for the set bits `i` of `b`.
const NEIGHBOUR_BYTES: [[u32; 256]; 3] = {
    let mut table = [[0; 256]; 3];
    let mut k = 0;
    while k < 3 {
        let mut byte: usize = 1;
        while byte < 256 {
            let low = byte.trailing_zeros() as usize;
            table[k][byte] = table[k][byte & (byte - 1)] | ADJACENT[8 * k + low];
            byte += 1;
        }
        k += 1;
    }
    table
};

/// The points adjacent to at least one point of `set` (three table look-ups).
#[inline]
pub const fn neighbours(set: u32) -> u32 {
    NEIGHBOUR_BYTES[0][(set & 0xFF) as usize]
        | NEIGHBOUR_BYTES[1][((set >> 8) & 0xFF) as usize]
        | NEIGHBOUR_BYTES[2][((set >> 16) & 0xFF) as usize]
}

/// The number of complete lines through `point` in the bitboard `own`.
#[inline]
pub const fn lines_through(own: u32, point: Point) -> u32 {
    let [a, b, c] = LINES_THROUGH[point.to_usize()];
    ((own & a) == a) as u32 + ((own & b) == b) as u32 + ((own & c) == c) as u32
}

/// The points of `own` that lie in at least one complete line of `own`.
pub fn in_lines(own: u32) -> u32 {
    LINES
        .iter()
        .filter(|&&line| own & line == line)
        .fold(0, |acc, &line| acc | line)
}

/// The number of slides of the pieces `own` into the empty points `empty`.
#[inline]
pub fn slide_count(own: u32, empty: u32) -> u32 {
    Points(own & neighbours(empty))
        .map(|p| (ADJACENT[p.to_usize()] & empty).count_ones())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_canonical_order() {
        for (i, point) in Point::all().enumerate() {
            assert_eq!(point.to_usize(), i);
            assert_eq!(point.to_string().parse::<Point>(), Ok(point));
        }
        assert_eq!("D1".parse::<Point>(), Ok(Point::D1));
        for bad in ["d4", "a2", "h1", "a0", "a", "", "a11", "é1"] {
            assert_eq!(bad.parse::<Point>(), Err(BadCell), "{bad}");
        }
    }

    #[test]
    fn twenty_lines_forty_edges() {
        assert_eq!(LINES.iter().map(|l| l.count_ones()).sum::<u32>(), 60);
        let degrees: Vec<u32> = ADJACENT.iter().map(|a| a.count_ones()).collect();
        assert_eq!(degrees.iter().sum::<u32>(), 2 * EDGE_COUNT as u32);
        let middle = [
            Point::B2,
            Point::D2,
            Point::F2,
            Point::F4,
            Point::F6,
            Point::D6,
            Point::B6,
            Point::B4,
        ];
        for point in Point::all() {
            let on_lines = LINES.iter().filter(|&&l| l & point.bit() != 0).count();
            let corner = matches!(
                point.coords(),
                (0 | 6, 0 | 6) | (1 | 5, 1 | 5) | (2 | 4, 2 | 4)
            );
            assert_eq!(on_lines, if corner { 3 } else { 2 }, "{point}");
            let expected = if middle.contains(&point) { 4 } else { 3 };
            assert_eq!(degrees[point.to_usize()], expected, "{point}");
        }
    }

    #[test]
    fn neighbour_table_matches_the_spec() {
        // Spec §1, "Neighbour table".
        let table = "a1: d1 b2 a4 · d1: a1 g1 d2 · g1: d1 f2 g4 · b2: a1 d2 c3 b4 · \
            d2: d1 b2 f2 d3 · f2: g1 d2 e3 f4 · c3: b2 d3 c4 · d3: d2 c3 e3 · e3: f2 d3 e4 · \
            a4: a1 b4 a7 · b4: b2 a4 c4 b6 · c4: c3 b4 c5 · e4: e3 f4 e5 · f4: f2 e4 g4 f6 · \
            g4: g1 f4 g7 · c5: c4 d5 b6 · d5: c5 e5 d6 · e5: e4 d5 f6 · b6: b4 c5 d6 a7 · \
            d6: d5 b6 f6 d7 · f6: f4 e5 d6 g7 · a7: a4 b6 d7 · d7: d6 a7 g7 · g7: g4 f6 d7";
        let mut seen = 0;
        for entry in table.split('·') {
            let (point, neighbours) = entry.split_once(':').unwrap();
            let point: Point = point.trim().parse().unwrap();
            let bits = neighbours
                .split_whitespace()
                .map(|n| n.parse::<Point>().unwrap().bit())
                .fold(0, |a, b| a | b);
            assert_eq!(ADJACENT[point.to_usize()], bits, "{point}");
            seen |= point.bit();
        }
        assert_eq!(seen, ALL_POINTS);
    }

    #[test]
    fn neighbour_sets() {
        for set in [
            0,
            1,
            0b1011_0110_1110_0001_0101,
            ALL_POINTS,
            1 << 23 | 1 << 8,
        ] {
            let slow = Points(set).fold(0, |acc, p| acc | ADJACENT[p.to_usize()]);
            assert_eq!(neighbours(set), slow, "{set:b}");
        }
    }

    #[test]
    fn lines_through_a_point() {
        let own = Point::A1.bit() | Point::D1.bit() | Point::G1.bit() | Point::A4.bit();
        assert_eq!(lines_through(own, Point::A1), 1);
        assert_eq!(lines_through(own | Point::A7.bit(), Point::A1), 2);
        assert_eq!(lines_through(ALL_POINTS, Point::A1), 3);
        assert_eq!(lines_through(ALL_POINTS, Point::D1), 2);
        assert_eq!(
            in_lines(own),
            Point::A1.bit() | Point::D1.bit() | Point::G1.bit()
        );
    }
}
