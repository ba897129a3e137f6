//! Helpers: building agents from spec text and playing whole games with them.

use ludus_ai::{build_agent, Agent, AgentSpec, StopFlag};
use ludus_engine::{Game, Heuristic};

/// The agent for `spec`, seeded.
pub fn agent<G: Game + Heuristic>(spec: &str, seed: u64) -> Box<dyn Agent<G>> {
    let spec: AgentSpec = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
    build_agent::<G>(&spec, seed).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Plays `state` to the end with `spec` in every seat (one agent per seat), checking that every
/// decision, and every analysis, is legal. Returns the decisions played.
pub fn play_checked<G: Game + Heuristic>(spec: &str, mut state: G, seed: u64) -> Vec<G::Action> {
    let mut agents: Vec<_> = (0..state.seat_count())
        .map(|k| agent::<G>(spec, seed + k as u64))
        .collect();
    let stop = StopFlag::default();
    let mut played = Vec::new();
    while let Some(seat) = state.to_move() {
        let agent = &mut agents[seat.to_usize()];
        let action = if played.len() % 3 == 2 {
            let analysis = agent.analyse(&state, &stop);
            assert!(
                analysis.pv.first() == Some(&analysis.action),
                "{spec}: the line starts with the decision"
            );
            analysis.action
        } else {
            agent.choose(&state, &stop)
        };
        assert!(
            state.is_legal(action),
            "{spec} chose illegal {action:?} in {}",
            state.position()
        );
        state.apply(action);
        played.push(action);
        assert!(played.len() < 10_000, "{spec}: the game does not end");
    }
    played
}
