//! The rules options and the [`Game`] implementation of Splut!: the contract's methods on top
//! of the state (`state.rs`), the steps (`moves.rs`), the notation (`notation.rs`,
//! `position.rs`) and the view (`view.rs`).

use ludus_engine::{GameInfo, GameOptions, OptionInfo, OptionValues, OptionsError, Rules, Seat};
use serde::{Deserialize, Serialize};

use super::moves::SplutAction;
use super::state::{Splut, COLOURS};
use super::tables::{MAX_SIZE, MIN_SIZE};

/// Rules options of Splut! (§7 of the spec).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SplutOptions {
    /// Players: 2 (South, North), 3 (South, West, North) or 4 (all four sides).
    pub players: u32,
    /// Board size N, odd, 9..=25: the diamond inside an N×N grid.
    pub size: u32,
    /// Completed turns after which the game is drawn (0 = no limit).
    pub max_turns: u32,
    /// The game is drawn when a turn-start position occurs this many times (0 = off).
    pub repetition: u32,
    /// Let a levitated rock follow into the square its sorcerer leaves (off: emptiness is
    /// judged before the step, §4.2 rule 2).
    pub levitate_follow: bool,
}

impl Default for SplutOptions {
    fn default() -> Self {
        SplutOptions {
            players: 2,
            size: 9,
            max_turns: 1000,
            repetition: 3,
            levitate_follow: false,
        }
    }
}

impl SplutOptions {
    /// The options with `players` and `size` brought into their ranges (an even size goes
    /// up to the next odd one); valid options are unchanged.
    pub fn normalized(&self) -> SplutOptions {
        SplutOptions {
            players: self.players.clamp(2, 4),
            size: (self.size | 1).clamp(MIN_SIZE, MAX_SIZE),
            ..self.clone()
        }
    }
}

impl GameOptions for SplutOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = OPTIONS;

    fn validate(&self) -> Result<(), OptionsError> {
        // The description says 0..=100; 1 would draw at once.
        if self.repetition == 1 || self.repetition > 100 {
            return Err(OptionsError::BadValue {
                name: "repetition".to_string(),
                value: self.repetition.to_string(),
                reason: "expected 0 (off) or a count from 2 to 100".to_string(),
            });
        }
        Ok(())
    }
}

/// The rules options as menus show them (and as parsing checks them).
const OPTIONS: &[OptionInfo] = &[
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

impl Rules for Splut {
    type Action = SplutAction;
    type Options = SplutOptions;

    const INFO: GameInfo = GameInfo {
        id: "splut",
        name: "Splut!",
        description: "Sorcerers, dwarves and stonetrolls on a diamond: throw a rock on the \
                      enemy sorcerers; last sorcerer standing wins.",
        min_seats: 2,
        max_seats: 4,
        seat_names: &COLOURS,
        options: OPTIONS,
        max_turns: 1000,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &SplutOptions, _seed: u64) -> Self {
        Splut::setup(options)
    }

    ludus_engine::core_in!(core);

    fn seat_count(&self) -> usize {
        self.seats()
    }

    fn legal_actions(&self, out: &mut Vec<SplutAction>) {
        self.generate(out);
    }

    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buffer: &mut Vec<SplutAction>,
    ) -> Option<SplutAction> {
        self.draw_action(rng)
    }

    fn play_randomly<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        _buffer: &mut Vec<SplutAction>,
        max_decisions: u64,
    ) -> u64 {
        self.play_out(rng, max_decisions)
    }

    fn is_legal(&self, action: SplutAction) -> bool {
        self.legal(action)
    }

    fn apply(&mut self, action: SplutAction) {
        self.play(action);
    }

    fn resign(&mut self, seat: Seat) {
        self.resign_seat(seat.to_usize());
    }

    fn key(&self) -> u64 {
        self.full_key()
    }

    /// The turn limit and the repetition rule look at the turn count and at earlier
    /// positions, which the key leaves out: no key while either is on.
    fn canonical_key(&self) -> Option<u64> {
        (self.core.options.max_turns == 0 && self.core.options.repetition == 0)
            .then(|| self.full_key())
    }
}
