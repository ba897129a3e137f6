//! A tiny example game for documentation and for testing generic code (sessions, records,
//! agents) without depending on the real games.
//!
//! **Two-step Nim.** A pile of stones (option `pile`, default 11). A turn is two decisions by
//! the same seat, each taking 1 or 2 stones; the turn ends early if the pile runs out. Whoever
//! takes the last stone wins. Decisions are written `1` or `2`; a turn as `1+2`.
//!
//! It has every trait a registered game has ([`Game`], [`Heuristic`], [`Encoding`]), so that
//! `ludus-games` can register it as a sixth, throwaway game (feature `extra-game`) and the
//! whole test suite can be run with a game it was not written for.

use serde::{Deserialize, Serialize};

use crate::encoding::fill_plane;
use crate::{
    zobrist_table, ActionInput, BoardView, CellId, CellShape, CellView, GameInfo, GameOptions, Hue,
    MoveError, OptionInfo, OptionValues, Outcome, PieceView, PositionError, Seat,
};
use crate::{Core, Encoding, Heuristic, Notation, Presentation, Rules};

/// Options of two-step Nim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimOptions {
    /// Stones at the start.
    pub pile: u8,
}

impl Default for NimOptions {
    fn default() -> Self {
        NimOptions { pile: 11 }
    }
}

impl GameOptions for NimOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = &[OptionInfo {
        name: "pile",
        help: "stones at the start",
        values: OptionValues::Range {
            min: 1,
            max: 60,
            step: 1,
        },
    }];
}

/// A two-step Nim position.
#[derive(Clone, Debug)]
pub struct Nim {
    core: Core<NimOptions>,
    pile: u8,
    step: u8,
}

const KEYS: [u64; 70] = zobrist_table(0x4E49_4D00);

impl Rules for Nim {
    type Action = u8;
    type Options = NimOptions;
    const INFO: GameInfo = GameInfo {
        id: "nim",
        name: "Two-step Nim",
        description: "Take 1 or 2 stones, twice a turn; the last stone wins.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &["First", "Second"],
        options: NimOptions::DESCRIPTIONS,
        max_turns: 60,
        rules: "A pile of stones; a turn is two takes of 1 or 2 stones. Whoever takes the last \
                stone wins.",
        notation: "`1` or `2`: the stones taken by one decision; a turn is two of them (`2 1`).",
        strongest: "ai:alphabeta",
    };

    fn new(options: &NimOptions, _seed: u64) -> Self {
        Nim {
            core: Core::new(options.clone(), Seat::FIRST),
            pile: options.pile.clamp(1, 60),
            step: 0,
        }
    }

    crate::core_in!(core);

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.core.outcome.is_none() {
            out.extend((1..=2).filter(|&n| n <= self.pile));
        }
    }

    fn apply(&mut self, take: u8) {
        let core = &mut self.core;
        self.pile -= take;
        if self.pile == 0 {
            core.outcome = Some(Outcome::win(core.to_move, "took the last stone"));
            core.turn += 1;
        } else if self.step == 1 {
            self.step = 0;
            core.to_move = core.to_move.opponent();
            core.turn += 1;
        } else {
            self.step = 1;
        }
    }

    fn key(&self) -> u64 {
        KEYS[self.pile as usize]
            ^ KEYS[62 + self.core.to_move.to_usize()]
            ^ KEYS[65 + self.step as usize]
    }
}

impl Notation for Nim {
    fn from_position(text: &str, options: &NimOptions) -> Result<Self, PositionError> {
        let mut parts = text.split_whitespace();
        let (Some(pile), Some(seat), Some(step), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(PositionError::new(
                text,
                "expected '<pile> <seat 1|2> <step 0|1>'",
            ));
        };
        let pile: u8 = pile
            .parse()
            .ok()
            .filter(|p| *p <= 60)
            .ok_or_else(|| PositionError::new(text, "the pile must be 0..=60"))?;
        let seat = seat
            .parse()
            .ok()
            .and_then(|n| Seat::from_number(n, 2))
            .ok_or_else(|| PositionError::new(text, "the seat must be 1 or 2"))?;
        let step = match step {
            "0" => 0,
            "1" => 1,
            _ => return Err(PositionError::new(text, "the step must be 0 or 1")),
        };
        let mut state = Nim {
            core: Core::new(options.clone(), seat),
            pile,
            step,
        };
        if pile == 0 {
            state.core.outcome = Some(Outcome::win(seat.opponent(), "took the last stone"));
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
            return Err(MoveError::GameOver(text.to_string()));
        }
        if take > self.pile {
            return Err(MoveError::illegal(text, "not that many stones left"));
        }
        Ok(take)
    }

    fn format_action(&self, take: u8) -> String {
        take.to_string()
    }

    fn parse_turn(&self, text: &str) -> Result<Vec<u8>, MoveError> {
        let mut state = self.clone();
        let mut actions = Vec::new();
        for word in text.split(['+', ' ']).filter(|w| !w.is_empty()) {
            let action = state.parse_action(word)?;
            state.apply(action);
            actions.push(action);
        }
        if actions.is_empty() {
            return Err(MoveError::syntax(text, "1 or 2, or a turn like 1+2"));
        }
        Ok(actions)
    }

    fn format_turn(&self, actions: &[u8]) -> String {
        actions
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join("+")
    }
}

impl Presentation for Nim {
    fn view(&self) -> BoardView {
        let stone = PieceView {
            owner: None,
            hue: Hue::Neutral,
            kind: 'o',
            label: None,
            marked: false,
        };
        BoardView {
            width: 1,
            height: 1,
            cells: vec![CellView {
                name: "pile".into(),
                x: 0,
                y: 0,
                shape: CellShape::Square,
                stack: smallvec::smallvec![stone; self.pile as usize],
                shaded: false,
            }],
            links: Vec::new(),
            seats: self.seat_views(&[Hue::Dark, Hue::Light]),
            hands: Vec::new(),
            to_move: self.to_move(),
            last_move: Vec::new(),
            status: format!("{} stones left", self.pile),
        }
    }

    fn action_input(&self, take: u8) -> ActionInput {
        ActionInput {
            cells: smallvec::smallvec![CellId(0)],
            label: Some(format!("take {take}").into()),
        }
    }
}

impl Heuristic for Nim {
    fn evaluate(&self, seat: Seat) -> i32 {
        // Piles that are multiples of 3 at the start of a turn lose for the side to move.
        let losing_for_mover = self.step == 0 && self.pile.is_multiple_of(3);
        let good = losing_for_mover != (seat == self.core.to_move);
        if good {
            100
        } else {
            -100
        }
    }
}

/// Action ids: a take of 1 is 0, a take of 2 is 1. The observation is three planes of one
/// cell: the pile as a share of the largest pile (60), whether this is the turn's second
/// take, and whether the seat observing is the one to move.
impl Encoding for Nim {
    fn num_distinct_actions(_: &NimOptions) -> usize {
        2
    }

    fn action_id(&self, take: u8) -> u32 {
        u32::from(take) - 1
    }

    fn max_decisions(options: &NimOptions) -> usize {
        // Every decision takes at least one stone.
        usize::from(options.pile.clamp(1, 60))
    }

    fn action_from_id(&self, id: u32) -> Option<u8> {
        match id {
            0 => Some(1),
            1 => Some(2),
            _ => None,
        }
    }

    fn observation_shape(_: &NimOptions) -> [usize; 3] {
        [3, 1, 1]
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        fill_plane(out, 1, 0, f32::from(self.pile) / 60.0);
        fill_plane(out, 1, 1, f32::from(self.step));
        fill_plane(out, 1, 2, f32::from(u8::from(seat == self.core.to_move)));
    }
}
