//! Fixed searches for `ludus bench`: the node count of alpha-beta to a fixed depth over fixed
//! positions is the search's fingerprint. A commit that changes search behaviour states it in
//! its message ("Bench: 123456"), as chess engines do.

use ludus_engine::{Game, Heuristic};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

use crate::alphabeta::time::Budget;
use crate::{Agent, AlphaBetaAgent, AlphaBetaConfig, StopFlag};

/// `count` positions for benchmarks: the start position, then positions reached from it by
/// 2, 4, 6, … seeded random decisions (finished games are skipped).
pub fn bench_positions<G: Game>(options: &G::Options, count: usize, seed: u64) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut actions = Vec::new();
    let mut positions = Vec::with_capacity(count);
    let mut attempt = 0;
    while positions.len() < count && attempt < count * 10 {
        let mut state = G::new(options, seed);
        for _ in 0..2 * attempt {
            state.legal_actions(&mut actions);
            let Some(&action) = actions.choose(&mut rng) else {
                break;
            };
            state.apply(action);
        }
        if state.to_move().is_some() {
            positions.push(state);
        }
        attempt += 1;
    }
    positions
}

/// The total node count of a fresh alpha-beta search (seed 0, no time limit) of each state to
/// `depth` decisions. Depends only on the states, the depth and the code.
pub fn bench_nodes<G: Game + Heuristic>(states: &[G], depth: u32) -> u64 {
    let config = AlphaBetaConfig {
        budget: Budget {
            time: None,
            depth,
            nodes: u64::MAX,
        },
        ..AlphaBetaConfig::default()
    };
    states
        .iter()
        .filter(|state| state.to_move().is_some())
        .map(|state| {
            let mut agent = AlphaBetaAgent::<G>::new(config, "bench".into(), 0);
            agent.analyse(state, &StopFlag::default()).nodes
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};

    use super::*;

    #[test]
    fn the_fingerprint_is_reproducible() {
        let positions = bench_positions::<Nim>(&NimOptions { pile: 30 }, 4, 1);
        assert_eq!(positions.len(), 4);
        let nodes = bench_nodes(&positions, 6);
        assert!(nodes > 0);
        assert_eq!(nodes, bench_nodes(&positions, 6));
    }
}
