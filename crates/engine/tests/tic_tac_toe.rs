//! Tic-tac-toe written against the game contract from nothing: the smallest whole game, and
//! the starting point `docs/ADDING_A_GAME.md` points a new game's author to.
//!
//! [`Rules`] is the state machine and the part to write first: six required methods, two of
//! them written by `core_in!`; the seat to move, turn count, outcome and resignation come
//! from the [`Core`]. [`Notation`] and [`Presentation`] follow, and a state with all three
//! is a `Game` that every front end, player and test takes. The tests below hold it to the
//! conformance kit, as a registered game is, and check what the contract's defaults give it:
//! reading moves, seat names, resignation.

use ludus_engine::testkit::random_simulation;
use ludus_engine::{
    perft, zobrist_table, ActionInput, BoardView, CellId, CellShape, CellView, Core, GameInfo,
    GameOptions, Hue, Notation, Outcome, PieceView, PositionError, Presentation, Rules, Seat,
    Verdict,
};
use serde::{Deserialize, Serialize};

/// Tic-tac-toe has no rules options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct NoOptions {}

impl GameOptions for NoOptions {}

/// The nine cells, a1 b1 c1 a2 … c3: 0 empty, 1 X, 2 O.
#[derive(Clone, Debug)]
struct TicTacToe {
    core: Core<NoOptions>,
    cells: [u8; 9],
    key: u64,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];
/// A key per cell and mark, and one for O to move.
const KEYS: [u64; 19] = zobrist_table(0x5454_5400);

impl Rules for TicTacToe {
    /// The cell marked, 0..9.
    type Action = u8;
    type Options = NoOptions;
    const INFO: GameInfo = GameInfo {
        id: "tictactoe",
        name: "Tic-tac-toe",
        description: "Three in a row on a 3×3 grid.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &["X", "O"],
        options: NoOptions::DESCRIPTIONS,
        max_turns: 9,
        rules: "Players mark empty cells in turn; three marks in a row win, a full grid draws.",
        notation: "The cell marked: `a1` … `c3`.",
        strongest: "ai:alphabeta",
    };

    fn new(options: &NoOptions, _seed: u64) -> Self {
        let core = Core::new(options.clone(), Seat::FIRST);
        TicTacToe {
            core,
            cells: [0; 9],
            key: 0,
        }
    }

    ludus_engine::core_in!(core);

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.core.outcome.is_none() {
            out.extend((0..9).filter(|&cell| self.cells[usize::from(cell)] == 0));
        }
    }

    fn apply(&mut self, cell: u8) {
        let mover = self.core.to_move;
        let mark = mover.to_usize() as u8 + 1;
        self.cells[usize::from(cell)] = mark;
        self.key ^= KEYS[usize::from(cell) * 2 + mover.to_usize()] ^ KEYS[18];
        self.core.turn += 1;
        self.core.to_move = mover.opponent();
        self.core.outcome = self.judge(mover);
    }

    fn key(&self) -> u64 {
        self.key
    }
}

impl TicTacToe {
    /// The outcome after `mover` marked: a line of theirs wins, a full grid draws.
    fn judge(&self, mover: Seat) -> Option<Outcome> {
        let mark = mover.to_usize() as u8 + 1;
        if LINES
            .iter()
            .any(|line| line.iter().all(|&c| self.cells[c] == mark))
        {
            Some(Outcome::win(mover, "three in a row"))
        } else {
            (self.core.turn == 9).then(|| Outcome::draw("the grid is full"))
        }
    }
}

/// Positions are the nine cells row by row from a1 (`.` `x` `o`); X always starts, so the
/// marks say who moves. Moves are cell names; reading one is the contract's default.
impl Notation for TicTacToe {
    fn from_position(text: &str, options: &NoOptions) -> Result<Self, PositionError> {
        let mut state = TicTacToe::new(options, 0);
        let marks = text.trim().chars().map(|c| match c {
            'x' => 1,
            'o' => 2,
            '.' => 0,
            _ => 9,
        });
        let marks: Vec<u8> = marks.collect();
        if marks.len() != 9 || marks.contains(&9) {
            return Err(PositionError::new(
                text,
                "expected 9 cells of '.', 'x' or 'o'",
            ));
        }
        let count = |mark: char| text.matches(mark).count();
        if !(count('x') == count('o') || count('x') == count('o') + 1) {
            return Err(PositionError::new(
                text,
                "expected as many x as o, or one x more",
            ));
        }
        for (cell, &mark) in marks.iter().enumerate().filter(|(_, &mark)| mark > 0) {
            state.cells[cell] = mark;
            state.key ^= KEYS[cell * 2 + usize::from(mark - 1)];
        }
        let turn = count('x') + count('o');
        state.core.turn = turn as u32;
        state.core.to_move = Seat::new((turn % 2) as u8);
        state.key ^= KEYS[18] * (turn % 2) as u64;
        state.core.outcome = state.judge(state.core.to_move.opponent());
        Ok(state)
    }

    fn position(&self) -> String {
        self.cells
            .iter()
            .map(|&mark| ['.', 'x', 'o'][usize::from(mark)])
            .collect()
    }

    fn format_action(&self, cell: u8) -> String {
        format!("{}{}", char::from(b'a' + cell % 3), cell / 3 + 1)
    }
}

/// A 3×3 grid of square cells; a move is one click on its cell.
impl Presentation for TicTacToe {
    fn view(&self) -> BoardView {
        let piece = |mark: u8| PieceView {
            owner: Some(Seat::new(mark - 1)),
            hue: [Hue::Dark, Hue::Light][usize::from(mark - 1)],
            kind: ['X', 'O'][usize::from(mark - 1)],
            label: None,
            marked: false,
        };
        let cells = (0..9u8)
            .map(|cell| CellView {
                name: self.format_action(cell).into(),
                x: cell % 3,
                y: 2 - cell / 3,
                shape: CellShape::Square,
                stack: (self.cells[usize::from(cell)] > 0)
                    .then(|| piece(self.cells[usize::from(cell)]))
                    .into_iter()
                    .collect(),
                shaded: false,
            })
            .collect();
        let seats = self.seat_views(&[Hue::Dark, Hue::Light]);
        BoardView {
            width: 3,
            height: 3,
            cells,
            links: Vec::new(),
            seats,
            hands: Vec::new(),
            to_move: self.to_move(),
            last_move: Vec::new(),
            status: String::new(),
        }
    }

    fn action_input(&self, cell: u8) -> ActionInput {
        ActionInput {
            cells: ludus_engine::smallvec::smallvec![CellId(u16::from(cell))],
            label: None,
        }
    }
}

#[test]
fn the_conformance_kit_passes() {
    random_simulation::<TicTacToe>(&NoOptions::default(), 300, 1);
}

#[test]
fn perft_gives_the_known_counts() {
    let start = TicTacToe::new(&NoOptions::default(), 0);
    // No game ends before the fifth mark.
    let counts: Vec<u64> = (1..=4).map(|depth| perft(&start, depth)).collect();
    assert_eq!(counts, [9, 72, 504, 3024]);
    // A game that ends early is one leaf, so nine turns count every possible game.
    assert_eq!(perft(&start, 9), 255_168);
}

#[test]
fn a_won_position_reads_back_with_its_outcome_and_key() {
    let mut state = TicTacToe::new(&NoOptions::default(), 0);
    for cell in ["a1", "a2", "b1", "b2", "c1"] {
        let action = state.parse_action(cell).unwrap();
        state.apply(action);
    }
    assert_eq!(state.position(), "xxxoo....");
    assert_eq!(
        state.outcome().map(|o| o.verdict),
        Some(Verdict::Win(Seat::FIRST))
    );
    assert_eq!(state.to_move(), None);
    let again = TicTacToe::from_position(&state.position(), state.options()).unwrap();
    assert_eq!((again.key(), again.turn()), (state.key(), 5));
    assert_eq!(again.outcome(), state.outcome());
}

#[test]
fn the_default_move_reader_takes_any_case_and_names_a_legal_move_when_refusing() {
    let mut state = TicTacToe::new(&NoOptions::default(), 0);
    assert_eq!(state.parse_action(" B2 ").unwrap(), 4);
    state.apply(4);
    let error = state.parse_action("b2").unwrap_err().to_string();
    assert!(
        error.contains("b2") && error.contains("such as a1"),
        "{error}"
    );
    assert!(state.parse_action("z9").is_err());
}

#[test]
fn seat_names_and_resignation_come_from_the_contract() {
    let mut state = TicTacToe::new(&NoOptions::default(), 0);
    assert_eq!(state.seat_count(), 2);
    assert_eq!(state.seat_name(Seat::SECOND), "O");
    state.resign(Seat::SECOND);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(Seat::FIRST));
    assert_eq!(outcome.reason, "O resigned");
    assert_eq!(state.to_move(), None);
}
