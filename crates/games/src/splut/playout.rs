//! Splut!'s random playout (`Game::play_randomly`): the loop of draws of `random.rs` with the
//! drawn slot played at once, without going through the action and the game's `apply`. It
//! makes the same decisions from the same generator as draw-then-apply.

use ludus_engine::bits::draw_bit;
use rand::Rng;

use super::moves::SplutAction;
use super::slots::{SLOTS, SLOT_STEPS};
use super::state::Splut;

impl Splut {
    /// Plays uniformly random decisions until the game ends or `max_decisions` are made;
    /// returns how many were made.
    pub(super) fn play_out<R: Rng + ?Sized>(&mut self, rng: &mut R, max_decisions: u64) -> u64 {
        let mut made = 0;
        while made < max_decisions && self.core.outcome.is_none() {
            let slots = self.legal_slots();
            let drawn = if slots == 0 {
                SplutAction::Pass
            } else {
                SLOT_STEPS[(draw_bit(slots, rng) as usize).min(SLOTS - 1)]
            };
            match drawn {
                SplutAction::Step(step) => self.play_step(step),
                // The forced pass (every slot is a step).
                SplutAction::Pass => self.end_turn(),
            }
            made += 1;
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    use super::super::rules::SplutOptions;
    use super::*;

    fn summary(state: &Splut) -> (String, u64, u32, Option<String>) {
        let outcome = state.outcome().map(ToString::to_string);
        (state.position(), state.key(), state.turn(), outcome)
    }

    fn variants() -> Vec<SplutOptions> {
        let with = |players, size, repetition, levitate_follow| SplutOptions {
            players,
            size,
            repetition,
            levitate_follow,
            ..SplutOptions::default()
        };
        vec![
            SplutOptions::default(),
            with(3, 9, 2, false),
            with(4, 11, 3, true),
            with(2, 13, 0, true),
        ]
    }

    #[test]
    fn the_fast_loop_plays_the_same_games_as_draw_and_apply() {
        ludus_engine::testkit::check_playout_loop(&variants(), 200, summary);
    }

    #[test]
    fn the_neighbours_kept_step_by_step_match_the_board() {
        for options in &variants() {
            for seed in 0..100u64 {
                let mut state = Splut::new(options, 0);
                let mut rng = SmallRng::seed_from_u64(seed);
                while state.play_randomly(&mut rng, &mut Vec::new(), 1) == 1 {
                    assert!(
                        state.around_is_consistent(),
                        "seed {seed}: {}",
                        state.position()
                    );
                }
            }
        }
    }
}
