//! The rules options, the decisions, and the [`Game`] implementation of Yoxii.

use ludus_engine::{
    GameInfo, GameOptions, OptionInfo, OptionValues, Outcome, Rules, Seat, Verdict,
};
use serde::{Deserialize, Serialize};

use super::ending::Ending;
use super::state::{Yoxii, SEAT_NAMES};
use super::tables::Square;

/// Who moves first (spec §2, Y-D9). The colours stay with their seats: White is seat 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// White moves first (the rulebook).
    #[default]
    White,
    /// Red moves first.
    Red,
}

/// How equal scores are decided (spec §4.2, Y-D7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// More pieces around the Totem wins; equal counts draw.
    #[default]
    AdjacentCount,
    /// Equal scores draw.
    None,
}

/// The rules options of Yoxii.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct YoxiiOptions {
    /// Who moves first.
    pub first_player: FirstPlayer,
    /// How equal scores are decided.
    pub tiebreak: Tiebreak,
}

/// The rules options as menus show them (and as parsing checks them).
const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "first_player",
        help: "who moves first (the colours keep their seats)",
        values: OptionValues::Choice(&["white", "red"]),
    },
    OptionInfo {
        name: "tiebreak",
        help: "equal scores: more pieces around the totem wins (adjacent_count), \
                   or a draw (none)",
        values: OptionValues::Choice(&["adjacent_count", "none"]),
    },
];

impl GameOptions for YoxiiOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = OPTIONS;
}

/// One decision of a Yoxii turn: first the Totem move, then the placement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum YoxiiAction {
    /// Move the Totem to this square (a step or a jump), written `d5`.
    Totem(Square),
    /// Place a piece of `value` (1..=4) on `square`, written `3@d4`.
    Place {
        /// The piece's value, 1..=4.
        value: u8,
        /// Where it goes.
        square: Square,
    },
}

impl Rules for Yoxii {
    type Action = YoxiiAction;
    type Options = YoxiiOptions;

    const INFO: GameInfo = GameInfo {
        id: "yoxii",
        name: "Yoxii",
        description: "Move the shared Totem, then place a valued piece next to it; \
                      when the Totem is stuck, the most points around it win.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &SEAT_NAMES,
        options: OPTIONS,
        max_turns: 36,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &YoxiiOptions, _seed: u64) -> Self {
        Yoxii::start(options)
    }

    ludus_engine::core_in!(core);

    fn to_move(&self) -> Option<Seat> {
        (!self.end.is_over()).then_some(self.core.to_move)
    }

    fn legal_actions(&self, out: &mut Vec<YoxiiAction>) {
        out.clear();
        if self.end.is_over() {
            return;
        }
        if !self.placing {
            out.extend(Square::iter(self.totem_targets(self.core.to_move)).map(YoxiiAction::Totem));
            return;
        }
        let hand = self.hand_mask(self.core.to_move);
        for square in Square::iter(self.placement_squares()) {
            for value in 1..=4 {
                if hand & (1 << (value - 1)) != 0 {
                    out.push(YoxiiAction::Place { value, square });
                }
            }
        }
    }

    #[inline]
    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buffer: &mut Vec<YoxiiAction>,
    ) -> Option<YoxiiAction> {
        self.draw_action(rng)
    }

    fn is_legal(&self, action: YoxiiAction) -> bool {
        if self.end.is_over() {
            return false;
        }
        match action {
            YoxiiAction::Totem(to) => {
                !self.placing && self.totem_targets(self.core.to_move) & to.bit() != 0
            }
            YoxiiAction::Place { value, square } => {
                self.placing
                    && (1..=4).contains(&value)
                    && self.in_hand(self.core.to_move, value) > 0
                    && self.placement_squares() & square.bit() != 0
            }
        }
    }

    fn apply(&mut self, action: YoxiiAction) {
        match action {
            YoxiiAction::Totem(to) => self.move_totem(to),
            YoxiiAction::Place { value, square } => self.place(value, square),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.end.outcome()
    }

    fn verdict(&self) -> Option<Verdict> {
        self.end.verdict()
    }

    fn resign(&mut self, seat: Seat) {
        if !self.end.is_over() {
            self.end.set(Ending::Resigned(seat));
        }
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// The least key over the 8 symmetries of the square (see `symmetry.rs`).
    fn canonical_key(&self) -> Option<u64> {
        Some(super::symmetry::canonical_key(self))
    }
}
