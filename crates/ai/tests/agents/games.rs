//! Tiny games to test agents on, besides the engine's two-step Nim:
//!
//! - [`Mnk`]: k in a row on an m×m board (tic-tac-toe is 3, 3), two seats, one decision a
//!   turn, with draws; large boards have trees big enough for time-budget tests.
//! - [`PartyNim`]: two-step Nim for 3 or 4 seats (a turn is two decisions by the same seat,
//!   each taking 1 or 2 stones; the last stone wins).

use ludus_engine::{
    zobrist_table, ActionInput, BoardView, CellId, CellShape, CellView, Core, GameInfo,
    GameOptions, Heuristic, Hue, MoveError, Notation, OptionInfo, OptionValues, Outcome, PieceView,
    PositionError, Presentation, Rules, Seat, SeatView, Stack,
};
use serde::{Deserialize, Serialize};

/// Options of the m,n,k game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MnkOptions {
    /// Board side, 3..=8.
    pub size: u8,
    /// Marks in a row to win.
    pub k: u8,
}

impl Default for MnkOptions {
    fn default() -> Self {
        MnkOptions { size: 3, k: 3 }
    }
}

impl GameOptions for MnkOptions {}

/// k in a row on a square board.
#[derive(Clone, Debug)]
pub struct Mnk {
    core: Core<MnkOptions>,
    size: u8,
    k: u8,
    board: [u8; 64],
    key: u64,
}

const MNK_KEYS: [u64; 130] = zobrist_table(0x4D4E_4B00);
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Mnk {
    fn mark(seat: Seat) -> u8 {
        seat.to_usize() as u8 + 1
    }

    fn at(&self, x: i32, y: i32) -> Option<u8> {
        let n = i32::from(self.size);
        ((0..n).contains(&x) && (0..n).contains(&y)).then(|| self.board[(y * n + x) as usize])
    }

    fn run_through(&self, cell: usize, (dx, dy): (i32, i32)) -> u8 {
        let n = i32::from(self.size);
        let (x, y) = (cell as i32 % n, cell as i32 / n);
        let mark = self.board[cell];
        let mut count = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
            while self.at(cx, cy) == Some(mark) {
                count += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        count
    }

    /// Every window of k cells in a line, as (start x, start y, direction).
    fn windows(&self) -> impl Iterator<Item = [usize; 8]> + '_ {
        let n = i32::from(self.size);
        let k = i32::from(self.k);
        (0..n * n).flat_map(move |start| {
            DIRECTIONS.iter().filter_map(move |&(dx, dy)| {
                let (x, y) = (start % n, start / n);
                let (ex, ey) = (x + (k - 1) * dx, y + (k - 1) * dy);
                if !(0..n).contains(&ex) || !(0..n).contains(&ey) {
                    return None;
                }
                let mut cells = [usize::MAX; 8];
                for (i, cell) in cells.iter_mut().enumerate().take(k as usize) {
                    *cell = ((y + i as i32 * dy) * n + x + i as i32 * dx) as usize;
                }
                Some(cells)
            })
        })
    }
}

impl Rules for Mnk {
    type Action = u8;
    type Options = MnkOptions;
    const INFO: GameInfo = GameInfo {
        id: "mnk",
        name: "m,n,k",
        description: "k in a row on a square board.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &["X", "O"],
        options: &[OptionInfo {
            name: "size",
            help: "board side",
            values: OptionValues::Range {
                min: 3,
                max: 8,
                step: 1,
            },
        }],
        max_turns: 64,
        rules: "",
        notation: "",
        strongest: "ai:mcts",
    };

    fn new(options: &MnkOptions, _seed: u64) -> Self {
        let size = options.size.clamp(3, 8);
        Mnk {
            core: Core::new(options.clone(), Seat::FIRST),
            size,
            k: options.k.clamp(2, size),
            board: [0; 64],
            key: MNK_KEYS[128],
        }
    }

    ludus_engine::core_in!(core);

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.core.outcome.is_none() {
            let cells = usize::from(self.size).pow(2);
            out.extend((0..cells as u8).filter(|&c| self.board[c as usize] == 0));
        }
    }

    fn apply(&mut self, cell: u8) {
        let cell = usize::from(cell);
        let mark = Mnk::mark(self.core.to_move);
        self.board[cell] = mark;
        self.key ^= MNK_KEYS[cell * 2 + mark as usize - 1] ^ MNK_KEYS[128] ^ MNK_KEYS[129];
        self.core.turn += 1;
        if DIRECTIONS
            .iter()
            .any(|&d| self.run_through(cell, d) >= self.k)
        {
            self.core.outcome = Some(Outcome::win(self.core.to_move, "k in a row"));
        } else if self.board[..usize::from(self.size).pow(2)]
            .iter()
            .all(|&c| c != 0)
        {
            self.core.outcome = Some(Outcome::draw("board full"));
        }
        self.core.to_move = self.core.to_move.opponent();
    }

    fn key(&self) -> u64 {
        self.key
    }
}

impl Notation for Mnk {
    fn from_position(text: &str, options: &MnkOptions) -> Result<Self, PositionError> {
        let mut state = Mnk::new(options, 0);
        let (rows, side) = text
            .split_once(' ')
            .ok_or_else(|| PositionError::new(text, "expected '<rows> <x|o>'"))?;
        let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
        if cells.len() != usize::from(state.size).pow(2) {
            return Err(PositionError::new(text, "wrong number of cells"));
        }
        for (i, c) in cells.into_iter().enumerate() {
            let seat = match c {
                'x' => Seat::FIRST,
                'o' => Seat::SECOND,
                '.' => continue,
                _ => return Err(PositionError::new(text, "cells are x, o or .")),
            };
            state.core.to_move = seat;
            state.apply(i as u8);
        }
        state.core.to_move = match side {
            "x" => Seat::FIRST,
            "o" => Seat::SECOND,
            _ => return Err(PositionError::new(text, "the side is x or o")),
        };
        state.key = MNK_KEYS[128 + state.core.to_move.to_usize()]
            ^ (0..64)
                .filter(|&i| state.board[i] != 0)
                .fold(0, |k, i| k ^ MNK_KEYS[i * 2 + state.board[i] as usize - 1]);
        Ok(state)
    }

    fn position(&self) -> String {
        let n = usize::from(self.size);
        let rows: Vec<String> = (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| ['.', 'x', 'o'][self.board[y * n + x] as usize])
                    .collect()
            })
            .collect();
        format!(
            "{} {}",
            rows.join("/"),
            ["x", "o"][self.core.to_move.to_usize()]
        )
    }

    fn parse_action(&self, text: &str) -> Result<u8, MoveError> {
        let cell: u8 = text
            .trim()
            .parse()
            .map_err(|_| MoveError::syntax(text, "a cell number"))?;
        if self.core.outcome.is_some() {
            return Err(MoveError::GameOver(text.into()));
        }
        if usize::from(cell) >= usize::from(self.size).pow(2) || self.board[cell as usize] != 0 {
            return Err(MoveError::illegal(text, "not an empty cell"));
        }
        Ok(cell)
    }

    fn format_action(&self, cell: u8) -> String {
        cell.to_string()
    }
}

impl Presentation for Mnk {
    fn view(&self) -> BoardView {
        let n = usize::from(self.size);
        BoardView {
            width: self.size,
            height: self.size,
            cells: (0..n * n)
                .map(|i| CellView {
                    name: i.to_string().into(),
                    x: (i % n) as u8,
                    y: (i / n) as u8,
                    shape: CellShape::Square,
                    stack: match self.board[i] {
                        0 => Stack::new(),
                        m => ludus_engine::smallvec::smallvec![PieceView {
                            owner: Some(Seat::new(m - 1)),
                            hue: [Hue::Dark, Hue::Light][usize::from(m - 1)],
                            kind: ['x', 'o'][usize::from(m - 1)],
                            label: None,
                            marked: false,
                        }],
                    },
                    shaded: false,
                })
                .collect(),
            links: Vec::new(),
            seats: seat_views(2),
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

impl Heuristic for Mnk {
    /// A mark that completes k in a row.
    fn is_tactical(&self, cell: u8) -> bool {
        let mut next = self.clone();
        next.apply(cell);
        next.core
            .outcome
            .is_some_and(|o| o.verdict != ludus_engine::Verdict::Draw)
    }

    /// Open windows: 1, 10, 100… per own mark count, minus the opponent's.
    fn evaluate(&self, seat: Seat) -> i32 {
        let own = Mnk::mark(seat);
        let mut score = 0;
        for window in self.windows() {
            let (mut mine, mut theirs) = (0, 0);
            for &cell in window.iter().take_while(|&&c| c != usize::MAX) {
                match self.board[cell] {
                    0 => {}
                    m if m == own => mine += 1,
                    _ => theirs += 1,
                }
            }
            match (mine, theirs) {
                (m, 0) if m > 0 => score += 10i32.pow(m - 1),
                (0, t) if t > 0 => score -= 10i32.pow(t - 1),
                _ => {}
            }
        }
        score
    }
}

fn seat_views(count: usize) -> Vec<SeatView> {
    Seat::all(count)
        .map(|seat| SeatView {
            seat,
            name: format!("P{}", seat.number()),
            hue: [Hue::Dark, Hue::Light, Hue::Red, Hue::Blue][seat.to_usize()],
            alive: true,
        })
        .collect()
}

/// Options of party Nim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PartyNimOptions {
    /// Stones at the start.
    pub pile: u8,
    /// Seats, 3 or 4.
    pub players: u8,
}

impl Default for PartyNimOptions {
    fn default() -> Self {
        PartyNimOptions {
            pile: 20,
            players: 3,
        }
    }
}

impl GameOptions for PartyNimOptions {}

/// Two-step Nim for 3 or 4 seats.
#[derive(Clone, Debug)]
pub struct PartyNim {
    core: Core<PartyNimOptions>,
    pile: u8,
    seats: u8,
    step: u8,
}

const PARTY_KEYS: [u64; 72] = zobrist_table(0x5041_5254);

impl Rules for PartyNim {
    type Action = u8;
    type Options = PartyNimOptions;
    const INFO: GameInfo = GameInfo {
        id: "partynim",
        name: "Party Nim",
        description: "Two-step Nim for 3 or 4 seats.",
        min_seats: 3,
        max_seats: 4,
        seat_names: &["P1", "P2", "P3", "P4"],
        options: &[],
        max_turns: 60,
        rules: "",
        notation: "",
        strongest: "ai:mcts",
    };

    fn new(options: &PartyNimOptions, _seed: u64) -> Self {
        PartyNim {
            core: Core::new(options.clone(), Seat::FIRST),
            pile: options.pile.clamp(1, 60),
            seats: options.players.clamp(3, 4),
            step: 0,
        }
    }

    ludus_engine::core_in!(core);

    fn seat_count(&self) -> usize {
        usize::from(self.seats)
    }

    /// The next seat wins, as in a game of more than two seats someone must.
    fn resign(&mut self, seat: Seat) {
        if self.core.outcome.is_none() {
            let winner = seat.next(usize::from(self.seats));
            self.core.outcome = Some(Outcome::win(winner, "resignation"));
        }
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.core.outcome.is_none() {
            out.extend((1..=2).filter(|&n| n <= self.pile));
        }
    }

    fn apply(&mut self, take: u8) {
        self.pile -= take;
        if self.pile == 0 {
            self.core.outcome = Some(Outcome::win(self.core.to_move, "took the last stone"));
            self.core.turn += 1;
        } else if self.step == 1 {
            self.step = 0;
            self.core.to_move = self.core.to_move.next(usize::from(self.seats));
            self.core.turn += 1;
        } else {
            self.step = 1;
        }
    }

    fn key(&self) -> u64 {
        PARTY_KEYS[usize::from(self.pile)]
            ^ PARTY_KEYS[62 + self.core.to_move.to_usize()]
            ^ PARTY_KEYS[67 + usize::from(self.step)]
    }
}

impl Notation for PartyNim {
    fn from_position(text: &str, options: &PartyNimOptions) -> Result<Self, PositionError> {
        let bad = || PositionError::new(text, "expected '<pile> <seat> <step>'");
        let parts: Vec<u8> = text
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let [pile, seat, step] = parts[..] else {
            return Err(bad());
        };
        let mut state = PartyNim::new(options, 0);
        if pile > 60 || step > 1 {
            return Err(bad());
        }
        state.pile = pile;
        state.core.to_move =
            Seat::from_number(usize::from(seat), usize::from(state.seats)).ok_or_else(bad)?;
        state.step = step;
        if pile == 0 {
            state.core.outcome = Some(Outcome::win(state.core.to_move, "took the last stone"));
        }
        Ok(state)
    }

    fn position(&self) -> String {
        format!("{} {} {}", self.pile, self.core.to_move.number(), self.step)
    }

    fn parse_action(&self, text: &str) -> Result<u8, MoveError> {
        let take = match text.trim() {
            "1" => 1,
            "2" => 2,
            _ => return Err(MoveError::syntax(text, "1 or 2")),
        };
        if self.core.outcome.is_some() {
            return Err(MoveError::GameOver(text.into()));
        }
        if take > self.pile {
            return Err(MoveError::illegal(text, "not that many stones left"));
        }
        Ok(take)
    }

    fn format_action(&self, take: u8) -> String {
        take.to_string()
    }
}

impl Presentation for PartyNim {
    fn view(&self) -> BoardView {
        BoardView {
            width: 1,
            height: 1,
            cells: vec![CellView {
                name: "pile".into(),
                x: 0,
                y: 0,
                shape: CellShape::Square,
                stack: Stack::new(),
                shaded: false,
            }],
            links: Vec::new(),
            seats: seat_views(self.seat_count()),
            hands: Vec::new(),
            to_move: self.to_move(),
            last_move: Vec::new(),
            status: format!("{} stones", self.pile),
        }
    }

    fn action_input(&self, take: u8) -> ActionInput {
        ActionInput {
            cells: ludus_engine::smallvec::smallvec![CellId(0)],
            label: Some(format!("take {take}").into()),
        }
    }
}

impl Heuristic for PartyNim {
    /// The side to move at the start of its turn likes a pile it can finish (≤ 4).
    fn evaluate(&self, seat: Seat) -> i32 {
        let finishing = self.pile <= 4 && self.step == 0 || self.pile <= 2;
        match (seat == self.core.to_move, finishing) {
            (true, true) => 500,
            (false, true) => -250,
            _ => i32::from(self.pile % 3) * 10 - 10,
        }
    }
}
