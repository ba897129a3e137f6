//! SPSA (simultaneous perturbation stochastic approximation): a game's evaluation weights
//! tuned for playing strength itself, as engines tune theirs from game results, where the
//! Texel fit ([`super::tune`]) tunes them for predicting results.
//!
//! Each iteration draws a random sign `Δᵢ = ±1` for every weight and plays game pairs (the
//! same random opening twice, seats swapped) between the weights `θ + cΔ` and `θ − cΔ`; the
//! plus side's wins minus its losses, `R`, move every weight by `a / c · R · Δᵢ`. Both
//! schedules are the usual ones (Spall; as in Stockfish's fishtest): `cₖ = c / k^0.101` and
//! `aₖ = a / (A + k)^0.602` with `A` a tenth of the iterations, set so that at the last
//! iteration `c` is `perturb` times the weight's size and `a / c²` is `rate`.
//!
//! The games are searches whose evaluation is the terms times the weights of the side to
//! move, set for the thread before each decision ([`trial_evaluate`]), so both sides search
//! alike and differ only in their weights. The sum is the engine's `weighted_sum`, the one the
//! games' tuned evaluations use (a game that sums in fixed point stays within one unit of it).
//! With a depth or node limit and one thread per search, a run is the same for the same seed on any
//! machine.

use std::cell::RefCell;

use ludus_engine::{weighted_sum, Game, Heuristic, Seat};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use thiserror::Error;

use crate::score::EvalKind;
use crate::{best, AgentError, AgentKind, AgentSpec, AlphaBetaAgent, AlphaBetaConfig, StopFlag};

/// The most terms an evaluation tuned here may have.
pub const MAX_TERMS: usize = 64;

thread_local! {
    /// The weights [`trial_evaluate`] multiplies the terms by on this thread.
    static TRIAL_WEIGHTS: RefCell<[f64; MAX_TERMS]> = const { RefCell::new([0.0; MAX_TERMS]) };
}

/// The evaluation with the weights set for this thread by [`set_trial_weights`]
/// (`EvalKind::Trial`, which SPSA's searches use): the game's terms times those weights,
/// summed as the game's own tuned evaluation sums them.
pub fn trial_evaluate<G: Heuristic>(state: &G, seat: Seat) -> i32 {
    let count = G::TERMS.len().min(MAX_TERMS);
    let mut terms = [0.0; MAX_TERMS];
    state.terms(seat, &mut terms[..count]);
    TRIAL_WEIGHTS.with_borrow(|weights| weighted_sum(&terms[..count], &weights[..count]))
}

/// Sets the weights [`trial_evaluate`] uses on this thread (those of `G::TERMS`, in order; at
/// most [`MAX_TERMS`]).
pub fn set_trial_weights(weights: &[f64]) {
    TRIAL_WEIGHTS.with_borrow_mut(|slot| {
        let count = weights.len().min(MAX_TERMS);
        slot[..count].copy_from_slice(&weights[..count]);
    });
}

/// What an SPSA run plays and how far it moves the weights.
#[derive(Clone, Debug)]
pub struct SpsaConfig<G: Game> {
    /// Rules options.
    pub options: G::Options,
    /// The search of both sides: alpha-beta (or a level that is alpha-beta in this game),
    /// with a depth or node limit so that the run is reproducible.
    pub spec: AgentSpec,
    /// Iterations (each a perturbation and its game pairs).
    pub iterations: usize,
    /// Game pairs per iteration, played in parallel.
    pub pairs: usize,
    /// Random decisions at the start of each game pair.
    pub opening: usize,
    /// The perturbation at the last iteration, as a share of each weight's size.
    pub perturb: f64,
    /// `a / c²` at the last iteration: how far a won pair moves the weights.
    pub rate: f64,
    /// Decisions after which a game is scored a draw.
    pub max_decisions: usize,
    /// Terms whose weights stay as they are (bit `i` for the term `i`).
    pub fixed: u64,
    /// The seed of everything.
    pub seed: u64,
}

/// What an SPSA run did.
#[derive(Clone, PartialEq, Debug)]
pub struct SpsaReport {
    /// The names of the terms.
    pub terms: Vec<&'static str>,
    /// The weights it started from.
    pub before: Vec<f64>,
    /// The weights it ended with.
    pub after: Vec<f64>,
    /// Games won, drawn and lost by the plus side over the run.
    pub plus_wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games won by the minus side.
    pub minus_wins: usize,
}

/// Why an SPSA run cannot start.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SpsaError {
    /// The game's evaluation has no terms, or more than [`MAX_TERMS`].
    #[error("{0}'s evaluation has {1} terms: SPSA tunes 1 to {MAX_TERMS}")]
    Terms(&'static str, usize),
    /// The starting weights do not match the terms.
    #[error("{0} starting weights for {1} terms")]
    Weights(usize, usize),
    /// A game of more than two seats.
    #[error("SPSA plays two-seat games; these options give {0} seats")]
    Seats(usize),
    /// A spec that is not alpha-beta.
    #[error("SPSA needs an alpha-beta search (ai:4, ai:alphabeta:..., or a level 5 that is alpha-beta here), not '{0}'")]
    NotAlphaBeta(String),
    /// The agent's parameters.
    #[error(transparent)]
    Agent(#[from] AgentError),
}

/// The schedules of one run (module doc).
#[derive(Clone, Copy, Debug)]
struct Schedule {
    iterations: f64,
    stability: f64,
}

impl Schedule {
    const ALPHA: f64 = 0.602;
    const GAMMA: f64 = 0.101;

    fn new(iterations: usize) -> Self {
        let iterations = iterations.max(1) as f64;
        Schedule {
            iterations,
            stability: 0.1 * iterations,
        }
    }

    /// The perturbation at iteration `k` (from 1) of a weight whose last one is `c_end`.
    fn c(self, k: f64, c_end: f64) -> f64 {
        c_end * (self.iterations / k).powf(Self::GAMMA)
    }

    /// The step size at iteration `k` of a weight with last perturbation `c_end`.
    fn a(self, k: f64, c_end: f64, rate: f64) -> f64 {
        let a_end = rate * c_end * c_end;
        a_end * ((self.stability + self.iterations) / (self.stability + k)).powf(Self::ALPHA)
    }
}

/// The last perturbation of each weight: `perturb` times its size, where a weight's size is
/// at least a quarter of the mean size (so that a weight at 0 moves too).
fn final_perturbations(start: &[f64], perturb: f64) -> Vec<f64> {
    let mean = start.iter().map(|w| w.abs()).sum::<f64>() / start.len().max(1) as f64;
    let floor = (0.25 * mean).max(1.0);
    start.iter().map(|w| perturb * w.abs().max(floor)).collect()
}

/// Runs SPSA from the weights `start` (in the order of `G::TERMS`). After each iteration,
/// `progress(done, total, so_far)` gets the run so far (its `after` is the weights now), so
/// that a long run can show itself and keep checkpoints.
pub fn spsa<G: Game + Heuristic>(
    config: &SpsaConfig<G>,
    start: &[f64],
    mut progress: impl FnMut(usize, usize, &SpsaReport),
) -> Result<SpsaReport, SpsaError> {
    let count = G::TERMS.len();
    if count == 0 || count > MAX_TERMS {
        return Err(SpsaError::Terms(G::INFO.id, count));
    }
    if start.len() != count {
        return Err(SpsaError::Weights(start.len(), count));
    }
    let seats = G::new(&config.options, 0).seat_count();
    if seats != 2 {
        return Err(SpsaError::Seats(seats));
    }
    let search = alpha_beta_config::<G>(&config.spec)?;
    let schedule = Schedule::new(config.iterations);
    let c_end = final_perturbations(start, config.perturb);
    let tuned = |i: usize| config.fixed & (1 << i) == 0;
    let mut theta = start.to_vec();
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut tally = Tally::default();
    for iteration in 0..config.iterations {
        let k = (iteration + 1) as f64;
        let signs: Vec<f64> = (0..count)
            .map(|i| match (tuned(i), rng.random::<bool>()) {
                (false, _) => 0.0,
                (true, true) => 1.0,
                (true, false) => -1.0,
            })
            .collect();
        let shift = |sign: f64| -> Vec<f64> {
            (0..count)
                .map(|i| theta[i] + sign * schedule.c(k, c_end[i]) * signs[i])
                .collect()
        };
        let (plus, minus) = (shift(1.0), shift(-1.0));
        let seed = rng.random::<u64>();
        let result = tally.iteration(config, &search, [&plus, &minus], seed);
        for i in 0..count {
            let c = schedule.c(k, c_end[i]);
            theta[i] += schedule.a(k, c_end[i], config.rate) / c * result * signs[i];
        }
        progress(
            iteration + 1,
            config.iterations,
            &tally.report::<G>(start, &theta),
        );
    }
    Ok(tally.report::<G>(start, &theta))
}

/// The games of a run so far, from the plus side's view.
#[derive(Default, Debug)]
struct Tally {
    plus_wins: usize,
    draws: usize,
    minus_wins: usize,
}

impl Tally {
    /// The run so far: from `start` to `theta`, with these games.
    fn report<G: Heuristic>(&self, start: &[f64], theta: &[f64]) -> SpsaReport {
        SpsaReport {
            terms: G::TERMS.to_vec(),
            before: start.to_vec(),
            after: theta.to_vec(),
            plus_wins: self.plus_wins,
            draws: self.draws,
            minus_wins: self.minus_wins,
        }
    }

    /// Plays the game pairs of one iteration in parallel, counts them, and returns `R`: the
    /// plus side's wins minus its losses.
    fn iteration<G: Game + Heuristic>(
        &mut self,
        config: &SpsaConfig<G>,
        search: &AlphaBetaConfig,
        sides: [&[f64]; 2],
        seed: u64,
    ) -> f64 {
        let results: Vec<f64> = (0..2 * config.pairs)
            .into_par_iter()
            .map(|game| play_pair_game(config, search, sides, seed, game))
            .collect();
        let mut result = 0.0;
        for &r in &results {
            result += 2.0 * r - 1.0;
            match r {
                r if r > 0.5 => self.plus_wins += 1,
                r if r < 0.5 => self.minus_wins += 1,
                _ => self.draws += 1,
            }
        }
        result
    }
}

/// The alpha-beta settings `spec` names (level 5 resolved to this game's), on one thread,
/// with the trial evaluation.
fn alpha_beta_config<G: Game + Heuristic>(spec: &AgentSpec) -> Result<AlphaBetaConfig, SpsaError> {
    let resolved = match spec.kind {
        AgentKind::Best => best::resolve(&G::INFO, spec),
        _ => spec.clone(),
    };
    if resolved.kind != AgentKind::AlphaBeta {
        return Err(SpsaError::NotAlphaBeta(spec.to_string()));
    }
    let mut config = AlphaBetaConfig::from_spec(&resolved)?;
    config.eval = EvalKind::Trial;
    config.threads = 1;
    Ok(config)
}

/// Game `game` of an iteration whose seed is `seed`: pair `game / 2`'s random opening, the
/// plus weights first when `game` is even. Returns the plus side's score (1, ½ or 0).
fn play_pair_game<G: Game + Heuristic>(
    config: &SpsaConfig<G>,
    search: &AlphaBetaConfig,
    [plus, minus]: [&[f64]; 2],
    seed: u64,
    game: usize,
) -> f64 {
    let pair_seed = seed ^ (game as u64 / 2).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut state: G = super::random_start(&config.options, pair_seed, config.opening);
    let plus_seat = if game.is_multiple_of(2) {
        Seat::FIRST
    } else {
        Seat::SECOND
    };
    let spec = "ai:alphabeta".to_string();
    let mut agents = [
        AlphaBetaAgent::<G>::new(*search, spec.clone(), pair_seed.wrapping_add(1)),
        AlphaBetaAgent::<G>::new(*search, spec, pair_seed.wrapping_add(2)),
    ];
    let stop = StopFlag::default();
    for _ in 0..config.max_decisions {
        let Some(seat) = state.to_move() else { break };
        set_trial_weights(if seat == plus_seat { plus } else { minus });
        let action = crate::Agent::choose(&mut agents[seat.to_usize()], &state, &stop);
        state.apply(action);
    }
    state
        .outcome()
        .map_or(0.5, |outcome| outcome.reward(plus_seat, 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Runs on real games, and the trial evaluation against a game's own, are in
    // `crates/ai/tests/spsa.rs`: game knowledge stays out of this crate.

    #[test]
    fn the_schedules_end_at_the_given_perturbation_and_rate() {
        let schedule = Schedule::new(1000);
        assert!((schedule.c(1000.0, 5.0) - 5.0).abs() < 1e-9);
        assert!(schedule.c(1.0, 5.0) > schedule.c(500.0, 5.0));
        let a = schedule.a(1000.0, 5.0, 0.002);
        assert!((a / 25.0 - 0.002).abs() < 1e-12);
        assert_eq!(
            final_perturbations(&[100.0, 0.0, -40.0], 0.1),
            vec![10.0, 1.166_666_666_666_666_7, 4.0]
        );
    }
}
