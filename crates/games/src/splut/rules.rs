//! The [`Game`] implementation of Splut!: the contract's methods on top of the state
//! (`state.rs`), the steps (`moves.rs`), the notation (`notation.rs`, `position.rs`) and the
//! view (`view.rs`).

use ludus_engine::{
    ActionInput, BoardView, Game, GameInfo, MoveError, OptionInfo, OptionValues, Outcome,
    PositionError, Seat,
};

use super::moves::SplutAction;
use super::state::{Splut, SplutOptions, COLOURS};

/// The rules options as menus show them (and as parsing checks them).
pub(super) const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "players",
        help: "2 (South, North), 3 (South, West, North) or 4 players, clockwise",
        values: OptionValues::Range {
            min: 2,
            max: 4,
            step: 1,
        },
    },
    OptionInfo {
        name: "size",
        help: "board size N: the diamond inside an N×N grid (the official game is 9)",
        values: OptionValues::Range {
            min: 9,
            max: 25,
            step: 2,
        },
    },
    OptionInfo {
        name: "max_turns",
        help: "draw after this many turns (0 = no limit)",
        values: OptionValues::Range {
            min: 0,
            max: 100_000,
            step: 1,
        },
    },
    OptionInfo {
        name: "repetition",
        help: "draw when a turn-start position occurs this many times (0 = off)",
        values: OptionValues::Range {
            min: 0,
            max: 100,
            step: 1,
        },
    },
    OptionInfo {
        name: "levitate_follow",
        help: "a levitated rock may follow into the square its sorcerer leaves",
        values: OptionValues::Flag,
    },
];

impl Game for Splut {
    type Action = SplutAction;
    type Options = SplutOptions;

    const INFO: GameInfo = GameInfo {
        id: "splut",
        name: "Splut!",
        description: "Sorcerers, dwarves and stonetrolls on a diamond: throw a rock on the \
                      enemy sorcerers; last sorcerer standing wins.",
        min_seats: 2,
        max_seats: 4,
        options: OPTIONS,
        max_turns: 1000,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &SplutOptions, _seed: u64) -> Self {
        Splut::setup(options)
    }

    fn from_position(text: &str, options: &SplutOptions) -> Result<Self, PositionError> {
        Splut::parse_position(text, options)
    }

    fn position(&self) -> String {
        self.format_position()
    }

    fn options(&self) -> &SplutOptions {
        &self.options
    }

    fn seat_count(&self) -> usize {
        self.seats()
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        COLOURS[seat.to_usize()]
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| Seat::new(self.to_move))
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn legal_actions(&self, out: &mut Vec<SplutAction>) {
        self.generate(out);
    }

    fn is_legal(&self, action: SplutAction) -> bool {
        self.legal(action)
    }

    fn apply(&mut self, action: SplutAction) {
        self.play(action);
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn resign(&mut self, seat: Seat) {
        self.resign_seat(seat.to_usize());
    }

    fn key(&self) -> u64 {
        self.full_key()
    }

    fn parse_action(&self, text: &str) -> Result<SplutAction, MoveError> {
        self.parse(text)
    }

    fn format_action(&self, action: SplutAction) -> String {
        self.format(action)
    }

    fn view(&self) -> BoardView {
        self.board_view()
    }

    fn action_input(&self, action: SplutAction) -> ActionInput {
        self.input(action)
    }
}
