//! The board view: the 24 points on a 7 × 7 grid (a1 at the lower left), the 40 board lines as
//! links, pressed pieces as a neutral marked `P`, hands during stage 1, and a status line.

use ludus_engine::smallvec::smallvec;
use ludus_engine::{
    ActionInput, BoardView, CellId, CellShape, CellView, HandView, Hue, PieceView, Presentation,
    Seat,
};

use super::rules::{QilinAction, BLACK, RED};
use super::state::Qilin;
use super::state::Stage;
use super::tables::{Point, EDGES};

fn hue(seat: Seat) -> Hue {
    if seat == RED {
        Hue::Red
    } else {
        Hue::Dark
    }
}

fn name(seat: Seat) -> &'static str {
    if seat == RED {
        "Red"
    } else {
        "Black"
    }
}

fn piece(seat: Seat) -> PieceView {
    PieceView {
        owner: Some(seat),
        hue: hue(seat),
        kind: if seat == RED { 'R' } else { 'B' },
        label: None,
        marked: false,
    }
}

fn pressed_piece() -> PieceView {
    PieceView {
        owner: None,
        hue: Hue::Neutral,
        kind: 'P',
        label: None,
        marked: true,
    }
}

fn cell_id(point: Point) -> CellId {
    CellId(point.to_usize() as u16)
}

/// What a UI draws for `state`.
pub fn board_view(state: &Qilin) -> BoardView {
    let mut view = panel(state);
    view.cells = Point::all().map(|point| drawn(state, point)).collect();
    view.links = EDGES
        .iter()
        .map(|&(a, b)| (cell_id(Point::new(a)), cell_id(Point::new(b))))
        .collect();
    view
}

/// The cell of `point` with its piece (or the pressed piece).
fn drawn(state: &Qilin, point: Point) -> CellView {
    let (x, y) = point.coords();
    let stack = if state.pressed & point.bit() != 0 {
        smallvec![pressed_piece()]
    } else {
        [RED, BLACK]
            .into_iter()
            .filter(|&seat| state.own(seat) & point.bit() != 0)
            .map(piece)
            .collect()
    };
    CellView {
        name: point.name(),
        x,
        y,
        shape: CellShape::Point,
        stack,
        shaded: false,
    }
}

/// How `point` is drawn, as one number: whether it is pressed, Red's or Black's.
fn point_code(state: &Qilin, point: Point) -> u64 {
    let on = |set: u32| u64::from(set & point.bit() != 0);
    on(state.pressed) | on(state.own(RED)) << 1 | on(state.own(BLACK)) << 2
}

/// The view without cells and links: the seats, the hands, the side to move and the status.
fn panel(state: &Qilin) -> BoardView {
    let seats = state.seat_views(&[hue(RED), hue(BLACK)]);
    let hands = if state.stage == Stage::Place {
        [RED, BLACK]
            .into_iter()
            .filter(|&seat| state.hands[seat] > 0)
            .map(|seat| HandView {
                seat,
                pieces: vec![(piece(seat), u32::from(state.hands[seat]))],
            })
            .collect()
    } else {
        Vec::new()
    };
    BoardView {
        width: 7,
        height: 7,
        cells: Vec::new(),
        links: Vec::new(),
        seats,
        hands,
        to_move: state.core.outcome.is_none().then_some(state.core.to_move),
        last_move: Vec::new(),
        status: status(state),
    }
}

fn plural(n: u8) -> &'static str {
    if n == 1 {
        "piece"
    } else {
        "pieces"
    }
}

/// The status line: the stage and what the side to act must do.
pub fn status(state: &Qilin) -> String {
    if let Some(outcome) = &state.core.outcome {
        return match outcome.winner() {
            Some(seat) => format!("{} wins: {}", name(seat), outcome.reason),
            None => format!("Draw: {}", outcome.reason),
        };
    }
    let who = name(state.core.to_move);
    let n = state.pending;
    match (state.stage, n) {
        (Stage::Place, 0) => format!(
            "Stage 1 (placement): {who} to place · in hand Red {}, Black {}",
            state.hands[RED], state.hands[BLACK]
        ),
        (Stage::Place, _) => format!("{who}: press {n} {}", plural(n)),
        (Stage::Transition, _) => format!("Transition: {who} removes one of its own pieces"),
        (Stage::Move, 0) => format!("Stage 2 (movement): {who} to move"),
        (Stage::Move, _) => format!("{who}: remove {n} {}", plural(n)),
    }
}

/// The points a person clicks to choose `action`: the point, or the slide's two points.
pub fn action_input(action: QilinAction) -> ActionInput {
    let cells = match action {
        QilinAction::Place(p) | QilinAction::Take(p) => smallvec![cell_id(p)],
        QilinAction::Slide(from, to) => smallvec![cell_id(from), cell_id(to)],
    };
    ActionInput { cells, label: None }
}

impl Presentation for Qilin {
    fn view(&self) -> BoardView {
        super::view::board_view(self)
    }

    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        codes.clear();
        codes.extend(Point::all().map(|point| point_code(self, point)));
        true
    }

    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        let point = Point::all().nth(cell.to_usize())?;
        Some(drawn(self, point))
    }

    fn panel_view(&self) -> BoardView {
        panel(self)
    }

    fn action_input(&self, action: QilinAction) -> ActionInput {
        super::view::action_input(action)
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Presentation, Rules};

    use crate::qilin::{Qilin, QilinOptions};

    fn game(position: &str) -> Qilin {
        Qilin::from_position(position, &QilinOptions::default()).unwrap()
    }

    fn play(state: &mut Qilin, text: &str) {
        for action in state.parse_turn(text).unwrap() {
            state.apply(action);
        }
    }

    #[test]
    fn view_shows_points_lines_pressed_pieces_and_hands() {
        let mut state = game("RB..B.B.BR.....R..R..... place R 14/14 0");
        play(&mut state, "a7 xd1");
        let view = state.view();
        assert_eq!((view.width, view.height), (7, 7));
        assert_eq!(view.cells.len(), 24);
        assert_eq!(view.links.len(), 40);
        let d1 = view.cell_named("d1").unwrap();
        let cell = &view.cells[d1.to_usize()];
        assert_eq!((cell.x, cell.y), (3, 0));
        assert_eq!(cell.stack[0].kind, 'P');
        assert!(cell.stack[0].marked && cell.stack[0].owner.is_none());
        assert_eq!(view.status, "Red: press 1 piece");
        assert_eq!(view.hands.len(), 2);
        assert_eq!(view.hands[0].pieces[0].1, 12);
        let g7 = view.cell_named("g7").unwrap();
        assert_eq!(
            (view.cells[g7.to_usize()].x, view.cells[g7.to_usize()].y),
            (6, 6)
        );
        let take = state.parse_action("xc3").unwrap();
        let c3 = view.cell_named("c3").unwrap();
        assert_eq!(state.action_input(take).cells[..], [c3]);
        let mut q7 = game(".RRR..BBBR....B......R.. move R 0/0 0");
        let slide = q7.parse_action("b2-a1").unwrap();
        let v = q7.view();
        assert_eq!(
            q7.action_input(slide).cells[..],
            [v.cell_named("b2").unwrap(), v.cell_named("a1").unwrap()]
        );
        play(&mut q7, "b2-a1");
        assert_eq!(q7.view().status, "Red: remove 2 pieces");
        assert!(q7.view().hands.is_empty());
    }
}
