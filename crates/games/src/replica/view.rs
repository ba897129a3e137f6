//! What a UI draws for Replica: a checkered 8×8 board (a1 dark), men `M` and kings `K`
//! (marked), White light and Black dark. An advance is chosen by clicking the piece then its
//! landing square; a transform by clicking the piece twice (label "transform").

use ludus_engine::smallvec::smallvec;
use ludus_engine::{
    ActionInput, BoardView, CellId, CellShape, CellView, Hue, PieceView, Presentation, Rules,
};

use super::moves::ReplicaAction;
use super::state::{Replica, SIDE_NAMES, WHITE};
use super::tables::Square;

/// The colour of each side, by side index.
const HUES: [Hue; 2] = [Hue::Light, Hue::Dark];

/// The view cell of a square: cells are listed a1 b1 … h1 a2 … h8.
fn cell(square: Square) -> CellId {
    CellId(square.to_usize() as u16)
}

impl Replica {
    /// The board as a UI draws it (the `view` of the contract).
    pub(super) fn board_view(&self) -> BoardView {
        let mut view = self.panel();
        view.cells = Square::all().map(|square| self.drawn(square)).collect();
        view
    }

    /// The cell of `square` with its piece.
    fn drawn(&self, square: Square) -> CellView {
        CellView {
            name: square.name(),
            x: square.file(),
            y: square.rank(),
            shape: CellShape::Square,
            stack: self.piece_view(square).into_iter().collect(),
            shaded: (square.file() + square.rank()).is_multiple_of(2),
        }
    }

    /// How `square` is drawn, as one number: empty, or its piece's side and rank.
    fn square_code(&self, square: Square) -> u64 {
        self.piece_at(square).map_or(0, |(seat, king)| {
            1 + 2 * seat.to_usize() as u64 + u64::from(king)
        })
    }

    /// The view without cells: the seats, the side to move and the status.
    fn panel(&self) -> BoardView {
        let seats = self.seat_views(&HUES);
        BoardView {
            width: 8,
            height: 8,
            cells: Vec::new(),
            links: Vec::new(),
            seats,
            hands: Vec::new(),
            to_move: self.to_move(),
            last_move: Vec::new(),
            status: self.status(),
        }
    }

    fn piece_view(&self, square: Square) -> Option<PieceView> {
        let (seat, king) = self.piece_at(square)?;
        Some(PieceView {
            owner: Some(seat),
            hue: HUES[seat.to_usize()],
            kind: if king { 'K' } else { 'M' },
            label: None,
            marked: king,
        })
    }

    /// "White to move — White 12 (1 king), Black 12 (1 king)", or the result.
    fn status(&self) -> String {
        let count = |s: usize| {
            let kings = self.kings[s].count_ones();
            format!(
                "{} {} ({kings} king{})",
                SIDE_NAMES[s],
                self.pieces[s].count_ones(),
                if kings == 1 { "" } else { "s" }
            )
        };
        let head = match &self.core.outcome {
            Some(outcome) => match outcome.winner() {
                Some(seat) => format!("{} wins: {}", SIDE_NAMES[seat.to_usize()], outcome.reason),
                None => format!("draw: {}", outcome.reason),
            },
            None if self.core.to_move == WHITE => "White to move".to_string(),
            None => "Black to move".to_string(),
        };
        format!("{head} — {}, {}", count(0), count(1))
    }
}

/// The cells to click for a legal action (the `action_input` of the contract): an advance is
/// its two squares; a transform is the piece's square twice, labelled "transform". No two legal
/// actions share both: an advance never lands on its own square.
pub(super) fn input_for(action: ReplicaAction) -> ActionInput {
    match action {
        ReplicaAction::Advance { from, to } => ActionInput {
            cells: smallvec![cell(from), cell(to)],
            label: None,
        },
        ReplicaAction::Transform(square) => ActionInput {
            cells: smallvec![cell(square), cell(square)],
            label: Some("transform".into()),
        },
    }
}

impl Presentation for Replica {
    fn view(&self) -> BoardView {
        self.board_view()
    }

    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        codes.clear();
        codes.extend(Square::all().map(|square| self.square_code(square)));
        true
    }

    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        let index = u8::try_from(cell.0).ok().filter(|&index| index < 64)?;
        Some(self.drawn(Square::from_index(index)))
    }

    fn panel_view(&self) -> BoardView {
        self.panel()
    }

    fn action_input(&self, action: ReplicaAction) -> ActionInput {
        input_for(action)
    }
}
