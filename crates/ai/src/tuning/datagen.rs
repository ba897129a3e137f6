//! Self-play data: games between two copies of a search from random openings, on every core,
//! each position after the opening kept with the search's score and the final result.

use ludus_engine::{Game, Heuristic, Seat};
use rayon::prelude::*;

use super::Sample;
use crate::{build_agent, AgentError, AgentSpec, Evaluation, StopFlag};

/// What [`datagen`] plays.
#[derive(Clone, Debug)]
pub struct DatagenConfig<G: Game> {
    /// Rules options.
    pub options: G::Options,
    /// The search both seats play with (a depth or node limit keeps data reproducible).
    pub spec: AgentSpec,
    /// How many games.
    pub games: usize,
    /// Random decisions at the start of each game, for variety.
    pub opening: usize,
    /// Decisions after which a game is abandoned (its positions are dropped).
    pub max_decisions: usize,
    /// The seed of everything: game `n` uses a seed mixed from it and `n`.
    pub seed: u64,
}

/// Plays the games of `config` on rayon's pool and returns their samples, game by game in
/// order (the same for the same config, whatever the number of threads, when the spec has
/// no time limit). `progress(done, total)` is called after each game.
pub fn datagen<G: Game + Heuristic>(
    config: &DatagenConfig<G>,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<Vec<Sample>, AgentError> {
    build_agent::<G>(&config.spec, 0)?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let games: Vec<Vec<Sample>> = (0..config.games)
        .into_par_iter()
        .map(|n| {
            let samples = play_one(config, n as u64);
            let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(finished, config.games);
            samples
        })
        .collect::<Result<_, _>>()?;
    Ok(games.into_iter().flatten().collect())
}

/// One game: the random opening, then the search in every seat.
fn play_one<G: Game + Heuristic>(
    config: &DatagenConfig<G>,
    n: u64,
) -> Result<Vec<Sample>, AgentError> {
    let seed = config.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // A game over inside its opening keeps no position (its loop below stops at once).
    let mut state: G = super::random_start(&config.options, seed, config.opening);
    let mut agents = (0..state.seat_count())
        .map(|k| build_agent::<G>(&config.spec, seed.wrapping_add(k as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let stop = StopFlag::default();
    let mut kept: Vec<(Seat, Option<i32>, String)> = Vec::new();
    for _ in 0..config.max_decisions {
        let Some(seat) = state.to_move() else { break };
        let analysis = agents[seat.to_usize()].analyse(&state, &stop);
        let score = match analysis.evaluation {
            Some(Evaluation::Score(s)) => Some(s),
            _ => None,
        };
        kept.push((seat, score, state.position()));
        state.apply(analysis.action);
    }
    let Some(outcome) = state.outcome() else {
        return Ok(Vec::new());
    };
    let seats = state.seat_count();
    Ok(kept
        .into_iter()
        .map(|(seat, score, position)| Sample {
            result: outcome.reward(seat, seats),
            score,
            position,
        })
        .collect())
}
