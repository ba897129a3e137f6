//! The board view of Qawale: 4x4 squares with every stack bottom to top, the stones in each
//! hand, and a status line that describes the pending sowing.

use ludus_engine::{
    ActionInput, BoardView, CellId, CellShape, CellView, HandView, Hue, PieceView, Presentation,
    Rules, Seat, Verdict,
};

use super::rules::QawaleAction;
use super::state::{Qawale, Stone};
use super::tables::{Square, LINES};

fn piece(stone: Stone) -> PieceView {
    PieceView {
        owner: stone.owner(),
        hue: match stone {
            Stone::Neutral => Hue::Neutral,
            Stone::Dark => Hue::Dark,
            Stone::Light => Hue::Light,
        },
        kind: stone.letter(),
        label: None,
        marked: false,
    }
}

/// The view: cells in square order a1, b1, ... d4 (cell id = square index), `x` the file and
/// `y` the rank from the bottom.
pub fn view(state: &Qawale) -> BoardView {
    let lines = finished_lines(state);
    let mut view = panel(state);
    view.cells = Square::ALL
        .iter()
        .map(|&square| drawn(state, square, lines))
        .collect();
    view
}

/// The cell of `square` with its stack, the top stone marked if it is on one of `lines`.
fn drawn(state: &Qawale, square: Square, lines: u16) -> CellView {
    let height = state.height(square);
    let on_line = lines & square.bit() != 0;
    CellView {
        name: square.name(),
        x: square.file(),
        y: square.rank(),
        shape: CellShape::Square,
        stack: (0..height)
            .map(|level| PieceView {
                marked: on_line && level + 1 == height,
                ..piece(state.stone_at(square, level))
            })
            .collect(),
        shaded: false,
    }
}

/// How `square` is drawn, as one number: its stones (two bits each, bottom first, at most
/// `MAX_HEIGHT` = 24 of them), its height, and whether its top is on one of `lines`.
fn square_code(state: &Qawale, square: Square, lines: u16) -> u64 {
    let height = state.height(square);
    let below_top = 1u64
        .checked_shl(2 * height as u32)
        .map_or(u64::MAX, |bit| bit - 1);
    let stones = state.stacks[square.to_usize()] & below_top;
    let on_line = u64::from(lines & square.bit() != 0);
    stones | (height as u64) << 48 | on_line << 56
}

/// The view without cells: the seats, the hands, the side to move and the status.
fn panel(state: &Qawale) -> BoardView {
    let seats = state.seat_views(&[Hue::Dark, Hue::Light]);
    let hands = Seat::all(2)
        .map(|seat| HandView {
            seat,
            pieces: vec![(piece(Stone::of(seat)), u32::from(state.in_hand(seat)))],
        })
        .collect();
    BoardView {
        width: 4,
        height: 4,
        cells: Vec::new(),
        links: Vec::new(),
        seats,
        hands,
        to_move: state.to_move(),
        last_move: Vec::new(),
        status: status(state),
    }
}

/// "Dark to move: choose a stack", "Dark sows 3 stones from a1 (N N D)", "Dark sows 3 stones
/// from a1: 2 left (N D), at b1", or the result.
fn status(state: &Qawale) -> String {
    if let Some(outcome) = state.outcome() {
        return match outcome.verdict {
            Verdict::Win(seat) => format!("{} wins: {}", state.seat_name(seat), outcome.reason),
            Verdict::Draw => format!("Draw: {}", outcome.reason),
        };
    }
    let seat = state.core.to_move;
    let name = state.seat_name(seat);
    let Some((origin, at, stones, path)) = state.pending_sowing() else {
        return format!(
            "{name} to move: choose a stack ({} in hand)",
            stones_word(usize::from(state.in_hand(seat)))
        );
    };
    let total = stones.len() + path.len();
    let left: Vec<String> = stones.iter().map(|s| s.letter().to_string()).collect();
    if path.is_empty() {
        // The lifted stones show from the moment the stack is chosen, in dropping order.
        return format!(
            "{name} sows {} from {origin} ({})",
            stones_word(total),
            left.join(" ")
        );
    }
    format!(
        "{name} sows {} from {origin}: {} left ({}), at {at}",
        stones_word(total),
        stones.len(),
        left.join(" ")
    )
}

/// "1 stone", "3 stones".
fn stones_word(count: usize) -> String {
    if count == 1 {
        "1 stone".to_string()
    } else {
        format!("{count} stones")
    }
}

/// The squares of every line of four same-coloured tops once the game is over, so that the
/// line that decided it shows: the view marks their top stones.
fn finished_lines(state: &Qawale) -> u16 {
    if state.outcome().is_none() {
        return 0;
    }
    let same_tops = |line: u16, colour: Stone| {
        Square::ALL
            .iter()
            .filter(|s| line & s.bit() != 0)
            .all(|&s| state.top(s) == Some(colour))
    };
    LINES
        .iter()
        .filter(|&&line| {
            [Stone::Dark, Stone::Light]
                .iter()
                .any(|&c| same_tops(line, c))
        })
        .fold(0, |all, line| all | line)
}

/// A stack choice is its square; a step is the square it drops on.
pub fn action_input(state: &Qawale, action: QawaleAction) -> ActionInput {
    let square = match action {
        QawaleAction::Stack(square) => Some(square),
        QawaleAction::Step(dir) => state.step_target(dir),
    };
    ActionInput {
        cells: square
            .map(|s| CellId(s.to_usize() as u16))
            .into_iter()
            .collect(),
        label: None,
    }
}

impl Presentation for Qawale {
    fn view(&self) -> BoardView {
        view(self)
    }

    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        let lines = finished_lines(self);
        codes.clear();
        codes.extend(
            Square::ALL
                .iter()
                .map(|&square| square_code(self, square, lines)),
        );
        true
    }

    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        let square = *Square::ALL.get(cell.to_usize())?;
        Some(drawn(self, square, finished_lines(self)))
    }

    fn panel_view(&self) -> BoardView {
        panel(self)
    }

    fn action_input(&self, action: QawaleAction) -> ActionInput {
        action_input(self, action)
    }
}
