//! Fixed searches for `ludus bench`: the node count of alpha-beta to a fixed depth over fixed
//! positions is the search's fingerprint. A commit that changes search behaviour states it in
//! its message ("Bench: 123456"), as chess engines do. The same positions also time any agent
//! (`ludus bench GAME --agent SPEC`): time and nodes (MCTS: iterations) per decision.

use std::time::{Duration, Instant};

use ludus_engine::{Game, Heuristic};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

use crate::alphabeta::time::Budget;
use crate::{
    build_agent, Agent, AgentError, AgentSpec, AlphaBetaAgent, AlphaBetaConfig, Meetings, StopFlag,
};

/// `count` positions for benchmarks: the start position, then positions reached from it by
/// 2, 4, … 30 seeded random decisions, again and again along new random games (finished games
/// are skipped), so that short games still give as many positions as asked.
pub fn bench_positions<G: Game>(options: &G::Options, count: usize, seed: u64) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut actions = Vec::new();
    let mut positions = Vec::with_capacity(count);
    let mut attempt = 0;
    while positions.len() < count && attempt < count * 10 {
        let mut state = G::new(options, seed);
        let plies = if attempt == 0 {
            0
        } else {
            2 * (1 + (attempt - 1) % 15)
        };
        for _ in 0..plies {
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

/// One timed decision of [`time_agent`].
#[derive(Clone, Copy, Debug)]
pub struct TimedDecision {
    /// Wall time of the search.
    pub time: Duration,
    /// Nodes searched (MCTS: iterations).
    pub nodes: u64,
    /// Where its threads met (tree-parallel MCTS only, see [`Agent::meetings`]).
    pub meetings: Option<Meetings>,
}

/// Where the threads met over all of `timed`, summed; `None` if no decision tells.
pub fn meetings_of(timed: &[TimedDecision]) -> Option<Meetings> {
    Meetings::total(timed.iter().filter_map(|t| t.meetings))
}

/// Times the agent `spec` deciding once in each of `states`, a fresh agent (seeded with
/// `seed`) per state so that no search profits from an earlier one.
pub fn time_agent<G: Game + Heuristic>(
    spec: &AgentSpec,
    states: &[G],
    seed: u64,
) -> Result<Vec<TimedDecision>, AgentError> {
    let stop = StopFlag::default();
    states
        .iter()
        .filter(|state| state.to_move().is_some())
        .map(|state| {
            let mut agent = build_agent::<G>(spec, seed)?;
            let clock = Instant::now();
            let analysis = agent.analyse(state, &stop);
            Ok(TimedDecision {
                time: clock.elapsed(),
                nodes: analysis.nodes,
                meetings: agent.meetings(),
            })
        })
        .collect()
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

    #[test]
    fn every_position_is_timed_with_its_nodes() {
        let positions = bench_positions::<Nim>(&NimOptions { pile: 30 }, 3, 1);
        let spec: AgentSpec = "ai:alphabeta:depth=4".parse().unwrap();
        let timed = time_agent(&spec, &positions, 0).unwrap();
        assert_eq!(timed.len(), 3);
        // The same searches as the fingerprint: the same nodes.
        let nodes: u64 = timed.iter().map(|t| t.nodes).sum();
        assert_eq!(nodes, bench_nodes(&positions, 4));
    }
}
