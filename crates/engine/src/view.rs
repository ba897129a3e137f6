//! What a user interface draws: cells, links, pieces, hands, and how a person points at a move.
//!
//! One renderer draws every game from a [`BoardView`]; it needs no game knowledge. Cells are
//! placed on an integer grid (`x` to the right, `y` upward, as the games' coordinates read), and
//! every legal action says which cells a person clicks to choose it ([`ActionInput`]).

use std::borrow::Cow;

use serde::Serialize;
use smallvec::SmallVec;

use crate::Seat;

/// The index of a cell in [`BoardView::cells`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize)]
pub struct CellId(pub u16);

impl CellId {
    /// The index into `BoardView::cells`.
    pub const fn to_usize(self) -> usize {
        self.0 as usize
    }
}

/// How a cell is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum CellShape {
    /// A square of a grid board (Qawale, Replica, Yoxii, Splut!).
    Square,
    /// A point where lines meet (Qilin).
    Point,
}

/// A colour family a seat plays with; the theme turns it into terminal colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Hue {
    /// Dark stones, Black pieces.
    Dark,
    /// Light stones, White pieces.
    Light,
    /// Red pieces.
    Red,
    /// Blue pieces.
    Blue,
    /// Green pieces.
    Green,
    /// Yellow pieces.
    Yellow,
    /// Pieces of nobody: neutral stones, rocks, pressed pieces, the totem.
    Neutral,
}

/// One piece as drawn.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PieceView {
    /// The owning seat, or `None` for neutral pieces.
    pub owner: Option<Seat>,
    /// The colour to draw it in.
    pub hue: Hue,
    /// A letter for the kind (`K` king, `S` sorcerer, `N` neutral stone, `T` totem).
    pub kind: char,
    /// A short extra text, e.g. a Yoxii value: lent where it is fixed, so that drawing a
    /// piece allocates nothing.
    pub label: Option<Cow<'static, str>>,
    /// Drawn emphasised: kings, pressed pieces, locked rocks.
    pub marked: bool,
}

/// A cell's pieces, bottom first. Most cells hold zero or one, which it keeps without an
/// allocation: a view is built after every move (a server's delta, the terminal's frame), and a
/// heap block per occupied cell was most of its cost.
pub type Stack = SmallVec<[PieceView; 1]>;

/// The cells a person clicks for one action, in order: most actions have one or two, kept
/// without an allocation, since every legal action gets one after every move.
pub type InputCells = SmallVec<[CellId; 2]>;

/// One cell of the board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct CellView {
    /// The cell's name in the game's notation (`a1`): lent from a table made once where the
    /// game can ([`crate::grid_name`]), so that a view does not format a name per cell.
    pub name: Cow<'static, str>,
    /// Column on the drawing grid, from 0 at the left.
    pub x: u8,
    /// Row on the drawing grid, from 0 at the bottom.
    pub y: u8,
    /// How to draw it.
    pub shape: CellShape,
    /// Its pieces, bottom first.
    pub stack: Stack,
    /// A shaded cell (Replica's dark squares).
    pub shaded: bool,
}

/// Pieces a seat still holds off the board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct HandView {
    /// Whose hand.
    pub seat: Seat,
    /// Each kind of piece and how many are left.
    pub pieces: Vec<(PieceView, u32)>,
}

/// A seat as the side panel shows it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// The rules' name for it ("Dark", "White", "Blue (South)").
    pub name: String,
    /// Its colour.
    pub hue: Hue,
    /// Still in the game (Splut! eliminates teams).
    pub alive: bool,
}

/// Everything a UI needs to draw a position.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct BoardView {
    /// Width of the drawing grid in cells.
    pub width: u8,
    /// Height of the drawing grid in cells.
    pub height: u8,
    /// The cells; off-board positions of the grid are simply absent.
    pub cells: Vec<CellView>,
    /// Lines drawn between cells (Qilin's board lines).
    pub links: Vec<(CellId, CellId)>,
    /// The seats in turn order.
    pub seats: Vec<SeatView>,
    /// Pieces in hand, per seat that has any.
    pub hands: Vec<HandView>,
    /// The seat to decide, `None` when the game is over.
    pub to_move: Option<Seat>,
    /// Cells touched by the last turn (filled in by the session, not the game).
    pub last_move: Vec<CellId>,
    /// One line about the state ("Stage 2: movement", "2 steps left", "Red: press 2 pieces").
    pub status: String,
}

impl BoardView {
    /// The cell called `name`, if it is drawn.
    pub fn cell_named(&self, name: &str) -> Option<CellId> {
        self.cells
            .iter()
            .position(|c| c.name == name)
            .map(|i| CellId(i as u16))
    }
}

/// How a person chooses an action by pointing: the cells to click, in order, and a label that
/// tells apart actions with the same cells (Splut! "pull", "throw n"; Yoxii "3").
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize)]
pub struct ActionInput {
    /// The cells to click, in order.
    pub cells: InputCells,
    /// The chooser label, when several actions share these cells: lent where it is fixed.
    pub label: Option<Cow<'static, str>>,
}
