//! Replica's rules options and the [`Game`] implementation (spec §2–§4) over the state of
//! `state.rs`.

use ludus_engine::{GameInfo, GameOptions, OptionInfo, OptionValues, Rules};
use serde::{Deserialize, Serialize};

use super::moves::ReplicaAction;
use super::state::{Replica, BLACK_START, SIDE_NAMES, WHITE, WHITE_START};
use super::tables::Square;

/// Which kings see a piece for a transform (spec §3.2, decision A3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sight {
    /// Along the king's three forward rays (the seed's reading).
    #[default]
    Forward3,
    /// Along all eight queen lines.
    All8,
}

/// Replica's rules options.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReplicaOptions {
    /// Which kings see a piece for a transform.
    pub sight: Sight,
}

/// The rules options as menus show them (and as parsing checks them).
const OPTIONS: &[OptionInfo] = &[OptionInfo {
    name: "sight",
    help: "kings that see a piece to transform: forward3 (3 forward rays) or all8 (8 lines)",
    values: OptionValues::Choice(&["forward3", "all8"]),
}];

impl GameOptions for ReplicaOptions {
    const DESCRIPTIONS: &'static [OptionInfo] = OPTIONS;
}

impl Rules for Replica {
    type Action = ReplicaAction;
    type Options = ReplicaOptions;

    const INFO: GameInfo = GameInfo {
        id: "replica",
        name: "Replica",
        description: "Race your pieces to the far corner, jumping over friends; \
                      crown a king on it or capture any enemy king.",
        min_seats: 2,
        max_seats: 2,
        seat_names: &SIDE_NAMES,
        options: OPTIONS,
        // Spec §4: every action lowers the mover's progress potential, 151 at the start.
        max_turns: 302,
        rules: super::docs::RULES,
        notation: super::docs::NOTATION,
        strongest: super::docs::STRONGEST,
    };

    fn new(options: &ReplicaOptions, _seed: u64) -> Self {
        Replica::with_board(
            options,
            [WHITE_START, BLACK_START],
            [Square::A1.bit(), Square::H8.bit()],
            WHITE,
        )
    }

    ludus_engine::core_in!(core);

    fn legal_actions(&self, out: &mut Vec<ReplicaAction>) {
        self.generate(out);
    }

    #[inline]
    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        buffer: &mut Vec<ReplicaAction>,
    ) -> Option<ReplicaAction> {
        self.draw_action(rng, buffer)
    }

    fn play_randomly<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        buffer: &mut Vec<ReplicaAction>,
        max_decisions: u64,
    ) -> u64 {
        self.play_out(rng, buffer, max_decisions)
    }

    fn is_legal(&self, action: ReplicaAction) -> bool {
        if self.core.outcome.is_some() {
            return false;
        }
        let side = self.side();
        match action {
            ReplicaAction::Advance { from, to } => {
                self.pieces[side] & from.bit() != 0 && self.direction_to(from, to).is_some()
            }
            ReplicaAction::Transform(square) => self.transformable(side) & square.bit() != 0,
        }
    }

    fn apply(&mut self, action: ReplicaAction) {
        self.play(action);
    }

    fn key(&self) -> u64 {
        self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_engine::Notation;

    #[test]
    fn the_start_has_twelve_pieces_each_in_mirrored_ls() {
        let state = Replica::new(&ReplicaOptions::default(), 0);
        assert_eq!(state.pieces[0].count_ones(), 12);
        assert_eq!(state.pieces[1].count_ones(), 12);
        assert_eq!(
            state.position(),
            "4bbbB/4bbbb/6bb/6bb/ww6/ww6/wwww4/Wwww4 w"
        );
        assert_eq!(state.key(), state.full_key());
    }

    #[test]
    fn the_key_is_incremental() {
        let mut state = Replica::new(&ReplicaOptions::default(), 0);
        let mut actions = Vec::new();
        for _ in 0..30 {
            state.legal_actions(&mut actions);
            let Some(&action) = actions.last() else { break };
            state.apply(action);
            assert_eq!(state.key(), state.full_key());
        }
    }
}
