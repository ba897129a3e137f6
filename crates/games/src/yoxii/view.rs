//! The board as a user interface draws it, and the cells a person clicks for each decision.
//!
//! The 37 squares are the cells, in name order (`a3 a4 a5 b2 … g5`); the 12 cut corners are
//! not drawn. The Totem is a neutral, marked piece of kind `T`; a player's piece has the
//! owner's hue (White light, Red red), its value as kind (`'1'`..`'4'`) and as label.

use std::borrow::Cow;

use ludus_engine::smallvec::smallvec;
use ludus_engine::{
    ActionInput, BoardView, CellId, CellShape, CellView, HandView, Hue, PieceView, Presentation,
    Rules, Seat,
};

use super::rules::YoxiiAction;
use super::state::{Yoxii, RED, SEAT_NAMES, WHITE};
use super::tables::{Square, ON_BOARD, VIEW_ID};

const HUES: [Hue; 2] = [Hue::Light, Hue::Red];

/// A piece's value as its label: lent, not formatted for every piece of every view.
fn value_label(value: u8) -> Cow<'static, str> {
    const VALUES: [&str; 5] = ["0", "1", "2", "3", "4"];
    VALUES.get(usize::from(value)).map_or_else(
        || Cow::Owned(value.to_string()),
        |&label| Cow::Borrowed(label),
    )
}

/// The cell id of an on-board square.
pub fn cell_id(square: Square) -> CellId {
    CellId(VIEW_ID[square.to_usize()])
}

fn totem_view() -> PieceView {
    PieceView {
        owner: None,
        hue: Hue::Neutral,
        kind: 'T',
        label: None,
        marked: true,
    }
}

fn piece_view(seat: Seat, value: u8) -> PieceView {
    PieceView {
        owner: Some(seat),
        hue: HUES[seat.to_usize()],
        kind: char::from(b'0' + value),
        label: Some(value_label(value)),
        marked: false,
    }
}

/// What a UI draws for `state`.
pub fn view(state: &Yoxii) -> BoardView {
    let mut view = panel(state);
    view.cells = Square::iter(ON_BOARD)
        .map(|square| drawn(state, square))
        .collect();
    view
}

/// The cell of `square` with the Totem or the piece on it.
fn drawn(state: &Yoxii, square: Square) -> CellView {
    let stack = if square == state.totem() {
        smallvec![totem_view()]
    } else {
        state
            .piece_at(square)
            .map(|p| piece_view(p.seat, p.value))
            .into_iter()
            .collect()
    };
    CellView {
        name: square.name(),
        x: square.file(),
        y: square.rank(),
        shape: CellShape::Square,
        stack,
        shaded: false,
    }
}

/// How `square` is drawn, as one number: empty, the Totem, or a piece's seat and value.
fn square_code(state: &Yoxii, square: Square) -> u64 {
    if square == state.totem() {
        return 1;
    }
    state
        .piece_at(square)
        .map_or(0, |p| 2 + 8 * p.seat.to_usize() as u64 + u64::from(p.value))
}

/// The view without cells: the seats, the hands, the side to move and the status.
fn panel(state: &Yoxii) -> BoardView {
    BoardView {
        width: 7,
        height: 7,
        cells: Vec::new(),
        links: Vec::new(),
        seats: state.seat_views(&HUES),
        hands: [WHITE, RED]
            .map(|seat| HandView {
                seat,
                pieces: (1..=4)
                    .map(|value| {
                        (
                            piece_view(seat, value),
                            u32::from(state.in_hand(seat, value)),
                        )
                    })
                    .collect(),
            })
            .to_vec(),
        to_move: state.to_move(),
        last_move: Vec::new(),
        status: status(state),
    }
}

fn status(state: &Yoxii) -> String {
    let (white, red) = (state.around(WHITE).0, state.around(RED).0);
    let scores = format!("around the totem: White {white} – Red {red}");
    match (state.outcome(), state.to_move()) {
        (Some(outcome), _) => match outcome.winner() {
            Some(seat) => format!("{} wins: {}", SEAT_NAMES[seat.to_usize()], outcome.reason),
            None => format!("draw: {}", outcome.reason),
        },
        (None, Some(seat)) if state.is_placing() => {
            format!("{}: place a piece · {scores}", SEAT_NAMES[seat.to_usize()])
        }
        (None, Some(seat)) => format!("{}: move the totem · {scores}", SEAT_NAMES[seat.to_usize()]),
        (None, None) => scores,
    }
}

/// The cell to click for a decision: the Totem's destination, or the placement square with
/// the piece's value as the chooser label.
pub fn action_input(action: YoxiiAction) -> ActionInput {
    match action {
        YoxiiAction::Totem(to) => ActionInput {
            cells: smallvec![cell_id(to)],
            label: None,
        },
        YoxiiAction::Place { value, square } => ActionInput {
            cells: smallvec![cell_id(square)],
            label: Some(value_label(value)),
        },
    }
}

impl Presentation for Yoxii {
    fn view(&self) -> BoardView {
        view(self)
    }

    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        codes.clear();
        codes.extend(Square::iter(ON_BOARD).map(|square| square_code(self, square)));
        true
    }

    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        let square = Square::iter(ON_BOARD).nth(cell.to_usize())?;
        Some(drawn(self, square))
    }

    fn panel_view(&self) -> BoardView {
        panel(self)
    }

    fn action_input(&self, action: YoxiiAction) -> ActionInput {
        action_input(action)
    }
}
