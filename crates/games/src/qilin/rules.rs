//! The rules options, the action type and the `Game` implementation of Qilin Chess XiaSanZi.
//! The state and the mechanics of a decision live in `state.rs`, the text forms in
//! `notation.rs`.

use ludus_engine::{
    EndgameProbe, Endgames, GameInfo, GameOptions, OptionInfo, OptionValues, OptionsError, Rules,
    Seat,
};
use serde::{Deserialize, Serialize};

use super::state::Qilin;
use super::tables::Point;

/// Red, the first seat: Red places first.
pub const RED: Seat = Seat::FIRST;
/// Black, the second seat: Black moves first in the movement stage.
pub const BLACK: Seat = Seat::SECOND;

/// What happens when the placement stage ends without a pressed piece (spec §3.2, B8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoPressRule {
    /// Red, then Black, removes one of its own pieces (the seed).
    #[default]
    RemoveOwn,
    /// Red, the first placer, loses at once (the traditional 闷棋 ruling).
    FirstPlayerLoses,
}

/// The rules options of Qilin Chess XiaSanZi (spec §3–§5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QilinOptions {
    /// The transition when nobody pressed a piece.
    pub no_press_rule: NoPressRule,
    /// A player with fewer pieces than this on the board loses (1: only at 0; 3: classic).
    pub min_pieces: u8,
    /// A piece in a complete line may be pressed or removed only when every opposing piece is
    /// in one.
    pub protect_lines: bool,
    /// Movement-stage turns in a row without a removal that draw the game (0: off).
    pub draw_no_removal_plies: u16,
    /// The occurrence of a movement-stage position that draws the game (0: off).
    pub draw_repetition: u8,
}

impl Default for QilinOptions {
    fn default() -> Self {
        QilinOptions {
            no_press_rule: NoPressRule::RemoveOwn,
            min_pieces: 1,
            protect_lines: false,
            draw_no_removal_plies: 100,
            draw_repetition: 3,
        }
    }
}

/// The largest accepted `draw_no_removal_plies`.
pub const MAX_NO_REMOVAL_PLIES: u16 = 1000;

impl GameOptions for QilinOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = OPTIONS;

    fn validate(&self) -> Result<(), OptionsError> {
        // The description says 0..=10; 1 would draw at once.
        if self.draw_repetition == 1 || self.draw_repetition > 10 {
            return Err(OptionsError::BadValue {
                name: "draw_repetition".to_string(),
                value: self.draw_repetition.to_string(),
                reason: "expected 0 (off) or 2 to 10".to_string(),
            });
        }
        Ok(())
    }
}

/// One decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
// Four bytes rather than three: one store per action when legal actions are generated.
#[repr(align(4))]
pub enum QilinAction {
    /// Stage 1: put a piece from hand on an empty point (`d1`).
    Place(Point),
    /// Stage 2: slide an own piece to an adjacent empty point (`a1-a4`).
    Slide(Point, Point),
    /// A press (stage 1), a removal (stage 2) or an own-piece removal (transition): `xd2`.
    Take(Point),
}

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "no_press_rule",
        help: "placement ends with no pressed piece: each side removes an own piece, or Red loses",
        values: OptionValues::Choice(&["remove_own", "first_player_loses"]),
    },
    OptionInfo {
        name: "min_pieces",
        help: "a player with fewer pieces on the board loses (1: at 0 only; 3: classic morris)",
        values: OptionValues::Range {
            min: 1,
            max: 3,
            step: 1,
        },
    },
    OptionInfo {
        name: "protect_lines",
        help: "pieces in a complete line can be taken only when all opposing pieces are in lines",
        values: OptionValues::Flag,
    },
    OptionInfo {
        name: "draw_no_removal_plies",
        help: "movement turns in a row without a removal that draw the game (0: off)",
        values: OptionValues::Range {
            min: 0,
            max: MAX_NO_REMOVAL_PLIES as i64,
            step: 1,
        },
    },
    OptionInfo {
        name: "draw_repetition",
        help: "the occurrence of a movement position that draws the game (0: off)",
        values: OptionValues::Range {
            min: 0,
            max: 10,
            step: 1,
        },
    },
];

impl Rules for Qilin {
    type Action = QilinAction;
    type Options = QilinOptions;

    const INFO: GameInfo = GameInfo {
        id: "qilin",
        name: "Qilin Chess XiaSanZi",
        description: "Place 18 pieces, press down after each line of three, then slide and remove.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &["Red", "Black"],
        options: OPTIONS,
        // At most 24 placements and 2 transition removals; in the movement stage at most 100
        // turns between removals and at most 24 removal turns (see `state.rs`).
        max_turns: 2600,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &QilinOptions, _seed: u64) -> Self {
        Qilin::start(options)
    }

    ludus_engine::core_in!(core);

    #[inline]
    fn legal_actions(&self, out: &mut Vec<QilinAction>) {
        self.fill_legal_actions(out);
    }

    #[inline]
    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buffer: &mut Vec<QilinAction>,
    ) -> Option<QilinAction> {
        self.draw_action(rng)
    }

    fn play_randomly<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        _buffer: &mut Vec<QilinAction>,
        max_decisions: u64,
    ) -> u64 {
        self.play_out(rng, max_decisions)
    }

    fn is_legal(&self, action: QilinAction) -> bool {
        self.check_legal(action)
    }

    // Always inlined (with `play`): a random playout is a loop of draws and this, and with
    // POPCNT the call measured 5 % of MCTS time on Qilin (`perf` on `ludus bench qilin --agent ai:mcts`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn apply(&mut self, action: QilinAction) {
        self.play(action);
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// In the movement stage the draw rules count plies without a removal and earlier
    /// positions, which the key leaves out: no key there while either rule is on.
    fn canonical_key(&self) -> Option<u64> {
        let history_rules =
            self.core.options.draw_no_removal_plies > 0 || self.core.options.draw_repetition > 0;
        (!(history_rules && self.stage == super::state::Stage::Move)).then_some(self.key)
    }

    fn endgames() -> Option<&'static dyn Endgames> {
        Some(&super::tablebase::ENDGAMES)
    }

    fn endgame_probe(&self) -> Option<EndgameProbe> {
        self.probe()
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn is_legal_agrees_with_legal_actions_on_every_action() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut all: Vec<QilinAction> = Point::all()
            .flat_map(|p| [QilinAction::Place(p), QilinAction::Take(p)])
            .collect();
        all.extend(Point::all().flat_map(|f| Point::all().map(move |t| QilinAction::Slide(f, t))));
        let mut actions = Vec::new();
        for _ in 0..100 {
            let mut state = Qilin::new(&QilinOptions::default(), 0);
            loop {
                state.legal_actions(&mut actions);
                for &action in &all {
                    assert_eq!(
                        state.is_legal(action),
                        actions.contains(&action),
                        "{action:?}"
                    );
                }
                let Some(&action) = actions.choose(&mut rng) else {
                    break;
                };
                state.apply(action);
            }
        }
    }
}
