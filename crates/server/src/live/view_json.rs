//! The board view as JSON, with seats numbered from 1 as everywhere in the API (the engine's
//! `Seat` serialises its 0-based index), whole or as the changes since another view.

use ludus_engine::{BoardView, CellShape, CellView, Hue, PieceView, Seat};
use serde::Serialize;

/// A piece.
#[derive(Debug, Serialize)]
pub struct PieceJson<'a> {
    owner: Option<usize>,
    hue: Hue,
    kind: char,
    label: Option<&'a str>,
    marked: bool,
}

impl<'a> PieceJson<'a> {
    fn of(piece: &'a PieceView) -> Self {
        PieceJson {
            owner: piece.owner.map(Seat::number),
            hue: piece.hue,
            kind: piece.kind,
            label: piece.label.as_deref(),
            marked: piece.marked,
        }
    }
}

/// A cell's stack, written straight from the view's pieces (no list of them built first).
#[derive(Debug)]
pub struct StackJson<'a>(&'a [PieceView]);

impl Serialize for StackJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(PieceJson::of))
    }
}

/// A cell.
#[derive(Debug, Serialize)]
pub struct CellJson<'a> {
    name: &'a str,
    x: u8,
    y: u8,
    shape: CellShape,
    stack: StackJson<'a>,
    shaded: bool,
}

/// A seat as the side panel shows it.
#[derive(Debug, Serialize)]
pub struct SeatJson<'a> {
    seat: usize,
    name: &'a str,
    hue: Hue,
    alive: bool,
}

/// Pieces in a seat's hand.
#[derive(Debug, Serialize)]
pub struct HandJson<'a> {
    seat: usize,
    pieces: Vec<(PieceJson<'a>, u32)>,
}

/// What to draw.
#[derive(Debug, Serialize)]
pub struct ViewJson<'a> {
    width: u8,
    height: u8,
    cells: Vec<CellJson<'a>>,
    links: Vec<[u16; 2]>,
    seats: Vec<SeatJson<'a>>,
    hands: Vec<HandJson<'a>>,
    to_move: Option<usize>,
    last_move: Vec<u16>,
    status: &'a str,
}

impl<'a> ViewJson<'a> {
    /// `view` for the API.
    pub fn of(view: &'a BoardView) -> Self {
        ViewJson {
            width: view.width,
            height: view.height,
            cells: view.cells.iter().map(cell).collect(),
            links: view.links.iter().map(|(a, b)| [a.0, b.0]).collect(),
            seats: view.seats.iter().map(seat).collect(),
            hands: view.hands.iter().map(hand).collect(),
            to_move: view.to_move.map(Seat::number),
            last_move: view.last_move.iter().map(|c| c.0).collect(),
            status: &view.status,
        }
    }
}

fn cell(cell: &CellView) -> CellJson<'_> {
    CellJson {
        name: &cell.name,
        x: cell.x,
        y: cell.y,
        shape: cell.shape,
        stack: StackJson(&cell.stack),
        shaded: cell.shaded,
    }
}

fn seat(seat: &ludus_engine::SeatView) -> SeatJson<'_> {
    SeatJson {
        seat: seat.seat.number(),
        name: &seat.name,
        hue: seat.hue,
        alive: seat.alive,
    }
}

fn hand(hand: &ludus_engine::HandView) -> HandJson<'_> {
    HandJson {
        seat: hand.seat.number(),
        pieces: hand
            .pieces
            .iter()
            .map(|(piece, n)| (PieceJson::of(piece), *n))
            .collect(),
    }
}

/// A cell whose stack or shading changed: its index in the view's `cells`.
#[derive(Debug, Serialize)]
pub struct CellChange<'a> {
    index: usize,
    stack: StackJson<'a>,
    shaded: bool,
}

/// What a view changed since another of the same game: the cells' names, places, shapes and
/// the links never change during a game, so only the cells that changed are sent; the seats
/// and hands when they changed; the side to move, last move and status whole.
#[derive(Debug, Serialize)]
pub struct ViewDelta<'a> {
    cells: Vec<CellChange<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<Vec<SeatJson<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hands: Option<Vec<HandJson<'a>>>,
    to_move: Option<usize>,
    last_move: Vec<u16>,
    status: &'a str,
}

impl<'a> ViewDelta<'a> {
    /// The changes from `before` to `after` (every cell, should their cell lists differ).
    pub fn between(before: &BoardView, after: &'a BoardView) -> Self {
        let same_cells = before.cells.len() == after.cells.len();
        let changed = after.cells.iter().enumerate().filter(|(i, cell)| {
            !same_cells
                || before
                    .cells
                    .get(*i)
                    .is_none_or(|old| old.stack != cell.stack || old.shaded != cell.shaded)
        });
        ViewDelta::new(changed, before, after)
    }

    /// The cells `changed` (each with its index) and the rest of `after` that differs from
    /// `before` (their cells unread).
    pub fn new(
        changed: impl Iterator<Item = (usize, &'a CellView)>,
        before: &BoardView,
        after: &'a BoardView,
    ) -> Self {
        ViewDelta {
            cells: changed
                .map(|(index, cell)| CellChange {
                    index,
                    stack: StackJson(&cell.stack),
                    shaded: cell.shaded,
                })
                .collect(),
            seats: (before.seats != after.seats).then(|| after.seats.iter().map(seat).collect()),
            hands: (before.hands != after.hands).then(|| after.hands.iter().map(hand).collect()),
            to_move: after.to_move.map(Seat::number),
            last_move: after.last_move.iter().map(|c| c.0).collect(),
            status: &after.status,
        }
    }
}
