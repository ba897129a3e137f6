//! Level 2: the original programs' greedy player. Rates every legal decision with the game's
//! [`Heuristic::seed_action_score`] and plays a best-rated one, ties broken by the seeded
//! generator (each tied decision equally likely).
//!
//! Takes no parameters. The stop flag is polled between decisions.

use ludus_engine::{Game, Heuristic, Verdict, WIN_SCORE};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::params::Params;
use crate::{Agent, AgentError, AgentSpec, Analysis, Evaluation, StopFlag};

/// Plays the decision the game's level-2 heuristic rates best.
#[derive(Debug, Clone)]
pub struct GreedyAgent {
    rng: SmallRng,
    spec: String,
}

impl GreedyAgent {
    /// A greedy agent with its own seeded generator.
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: SmallRng::seed_from_u64(seed),
            spec: "ai:greedy".into(),
        }
    }

    /// Builds from a spec, which must have no parameters.
    pub fn from_spec(spec: &AgentSpec, seed: u64) -> Result<Self, AgentError> {
        Params::new(spec, &[])?;
        Ok(GreedyAgent {
            spec: spec.to_string(),
            ..GreedyAgent::new(seed)
        })
    }
}

impl<G: Game + Heuristic> Agent<G> for GreedyAgent {
    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let mut best = None;
        let mut ties = 0u32;
        for &action in &actions {
            if stop.is_raised() && best.is_some() {
                break;
            }
            let score = state.seed_action_score(action);
            match best {
                Some((_, top)) if score < top => continue,
                Some((_, top)) if score == top => ties += 1,
                _ => ties = 1,
            }
            // Reservoir sampling: the k-th tied decision replaces the choice with chance 1/k.
            if ties == 1 || self.rng.random_range(0..ties) == 0 {
                best = Some((action, score));
            }
        }
        let (action, score) = best.expect("agents are only asked to decide while the game is on");
        Analysis {
            action,
            evaluation: Some(evaluation_of(state, action, score)),
            depth: 1,
            nodes: actions.len() as u64,
            pv: vec![action],
        }
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }
}

/// What the greedy player says of its decision: a win in 1 (or a loss, or a draw) when the
/// decision ends the game, else the heuristic's rating of it as the game shows it
/// ([`Heuristic::seed_shown`]). The rating of a winning decision is the heuristic's own number
/// (a Splut! kill rates 20,100), which read as a score would show "+201.00" where the search
/// levels say "win in 1"; a knock-out that leaves the game going rates as much.
fn evaluation_of<G: Game + Heuristic>(state: &G, action: G::Action, score: i32) -> Evaluation {
    let mut after = state.clone();
    after.apply(action);
    match (after.verdict(), state.to_move()) {
        (Some(Verdict::Win(winner)), Some(mover)) if winner == mover => Evaluation::Win(1),
        (Some(Verdict::Win(_)), _) => Evaluation::Loss(1),
        (Some(Verdict::Draw), _) => Evaluation::Score(0),
        (None, Some(mover)) => {
            let shown = state.seed_shown(mover, score);
            Evaluation::from_score(shown.clamp(1 - WIN_SCORE, WIN_SCORE - 1))
        }
        (None, None) => Evaluation::from_score(score.clamp(1 - WIN_SCORE, WIN_SCORE - 1)),
    }
}
