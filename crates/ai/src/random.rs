//! Level 1: a uniformly random legal decision (the original programs' level 1).

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

use ludus_engine::Game;

use crate::{Agent, Analysis, StopFlag};

/// Chooses uniformly among the legal decisions.
#[derive(Debug, Clone)]
pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn analyse(&mut self, state: &G, _stop: &StopFlag) -> Analysis<G::Action> {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let action = *actions
            .choose(&mut self.rng)
            .expect("agents are only asked to decide while the game is on");
        Analysis::bare(action)
    }

    fn spec(&self) -> String {
        "ai:random".into()
    }
}
