//! The arena: matches and round robins between agents, run in parallel, with Elo estimates.
//! The library side of `ludus arena`.
//!
//! ```
//! use ludus_ai::arena::{run_arena, ArenaConfig};
//! use ludus_engine::demo::Nim;
//!
//! let mut config = ArenaConfig::<Nim>::new(vec!["ai:4:depth=8".parse()?, "ai:1".parse()?]);
//! config.games_per_pair = 4;
//! let report = run_arena(&config, |done, total| assert!(done <= total))?;
//! assert_eq!(report.games.len(), 4);
//! assert!(report.agents[0].wins >= 3);
//! println!("{}", report.table());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Schedule.** Two agents play a match; more play a round robin, every pair
//! `games_per_pair` games, pairs in order (1-2, 1-3, …, 2-3, …). Within a pair the first
//! agent takes seat 1 in even games and the second in odd games. Games of 3–4 seats are filled
//! with the pair's two agents in rotation (`A B A` then `B A B`), each seat played by its own
//! instance; a game counts once for each of the two agents.
//!
//! **Determinism.** Game `i` (0-based, in schedule order) starts from
//! `Session::new(options, s)` with `s = mix(seed, i)`, and its seat `k` agent is seeded with
//! `mix(s, k + 1)`, so results do not depend on the number of threads or on which thread runs
//! which game (only time budgets can make agents search differently on a busy machine).
//!
//! **Records.** With `save_dir`, game `i` is saved as `<dir>/<game>-<i+1 padded to 4>.json`
//! (players named after their specs), readable by `ludus replay`.

pub mod elo;
mod report;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use ludus_engine::{splitmix64, Game, Heuristic, PlayerRecord, RecordError, Seat, Session};
use rayon::prelude::*;
use thiserror::Error;

pub use self::elo::{elo_from_score, estimate, EloEstimate};
pub use self::report::{AgentResult, ArenaReport, GameResult};
use crate::{build_agent, Agent, AgentError, AgentSpec, StopFlag};

/// What an arena plays.
#[derive(Clone, Debug)]
pub struct ArenaConfig<G: Game> {
    /// The agents: two for a match, more for a round robin.
    pub agents: Vec<AgentSpec>,
    /// Games each pair of agents plays.
    pub games_per_pair: usize,
    /// The seed every game's seeds derive from.
    pub seed: u64,
    /// Worker threads; 0 lets rayon choose (one per core).
    pub threads: usize,
    /// The rules options of every game.
    pub options: G::Options,
    /// Where to save each game's record, if anywhere.
    pub save_dir: Option<PathBuf>,
}

impl<G: Game> ArenaConfig<G> {
    /// A config for `agents` with default options, 10 games per pair, seed 0, all cores and no
    /// saved games.
    pub fn new(agents: Vec<AgentSpec>) -> Self {
        ArenaConfig {
            agents,
            games_per_pair: 10,
            seed: 0,
            threads: 0,
            options: G::Options::default(),
            save_dir: None,
        }
    }
}

/// Why an arena could not run.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// Fewer than two agents.
    #[error("an arena needs at least two players, got {0}")]
    TooFewAgents(usize),
    /// An agent spec this game cannot build.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The directory for saved games cannot be created.
    #[error("cannot create directory '{path}': {source}")]
    SaveDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A game record could not be written.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads: {1}")]
    Threads(usize, String),
}

/// One scheduled game: its index and the agent index playing each seat.
#[derive(Clone, Debug)]
struct Fixture {
    index: usize,
    seats: Vec<usize>,
}

/// The games to play, in order (see the module doc).
fn schedule(agents: usize, games_per_pair: usize, seat_count: usize) -> Vec<Fixture> {
    let pairs = (0..agents).flat_map(|a| (a + 1..agents).map(move |b| (a, b)));
    pairs
        .flat_map(|(a, b)| {
            (0..games_per_pair).map(move |g| {
                (0..seat_count)
                    .map(|k| if (k + g) % 2 == 0 { a } else { b })
                    .collect::<Vec<_>>()
            })
        })
        .enumerate()
        .map(|(index, seats)| Fixture { index, seats })
        .collect()
}

/// A well-mixed seed from `seed` and `n`.
fn mix(seed: u64, n: u64) -> u64 {
    splitmix64(seed ^ splitmix64(n).1).1
}

/// Plays every game of `config` on a rayon pool and reports the results. `progress(done,
/// total)` is called after each game, from the worker threads.
pub fn run_arena<G: Game + Heuristic>(
    config: &ArenaConfig<G>,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<ArenaReport, ArenaError> {
    if config.agents.len() < 2 {
        return Err(ArenaError::TooFewAgents(config.agents.len()));
    }
    for spec in &config.agents {
        build_agent::<G>(spec, 0)?;
    }
    if let Some(dir) = &config.save_dir {
        std::fs::create_dir_all(dir).map_err(|source| ArenaError::SaveDir {
            path: dir.clone(),
            source,
        })?;
    }
    let seat_count = Session::<G>::new(&config.options, config.seed)
        .state()
        .seat_count();
    let fixtures = schedule(config.agents.len(), config.games_per_pair, seat_count);
    let total = fixtures.len();
    let done = AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| ArenaError::Threads(config.threads, e.to_string()))?;
    let results: Vec<Result<GameResult, ArenaError>> = pool.install(|| {
        fixtures
            .par_iter()
            .map(|fixture| {
                let result = play_fixture(config, fixture);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                result
            })
            .collect()
    });
    let games = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let specs: Vec<String> = config.agents.iter().map(ToString::to_string).collect();
    Ok(ArenaReport::new(G::INFO.id, &specs, games))
}

/// Plays one scheduled game and saves its record if asked.
fn play_fixture<G: Game + Heuristic>(
    config: &ArenaConfig<G>,
    fixture: &Fixture,
) -> Result<GameResult, ArenaError> {
    let game_seed = mix(config.seed, fixture.index as u64);
    let specs: Vec<&AgentSpec> = fixture.seats.iter().map(|&a| &config.agents[a]).collect();
    let mut agents = specs
        .iter()
        .enumerate()
        .map(|(k, spec)| build_agent::<G>(spec, mix(game_seed, k as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut session = Session::<G>::new(&config.options, game_seed);
    session.set_players(
        specs
            .iter()
            .map(|spec| PlayerRecord {
                name: spec.to_string(),
                kind: spec.to_string(),
            })
            .collect(),
    );
    let finished = play(&mut session, &mut agents);
    if let Some(dir) = &config.save_dir {
        let path = dir.join(format!("{}-{:04}.json", G::INFO.id, fixture.index + 1));
        session.record().save(&path)?;
    }
    let state = session.state();
    let winner_seat = state.outcome().and_then(ludus_engine::Outcome::winner);
    Ok(GameResult {
        seats: specs.iter().map(ToString::to_string).collect(),
        result: if finished {
            report::result_text(fixture.seats.len(), winner_seat.map(Seat::to_usize))
        } else {
            "*".to_string()
        },
        plies: session.entries().len() as u64,
        agents: fixture.seats.clone(),
        winner: winner_seat.map(|seat| fixture.seats[seat.to_usize()]),
        reason: state
            .outcome()
            .map_or_else(|| "unfinished".to_string(), |o| o.reason.to_string()),
    })
}

/// Plays `session` to the end with one agent per seat. A decision the rules refuse counts as
/// the seat resigning. Returns false if the game was stopped unfinished after far more
/// decisions than the game allows.
fn play<G: Game>(session: &mut Session<G>, agents: &mut [Box<dyn Agent<G>>]) -> bool {
    let stop = StopFlag::default();
    let limit = (u64::from(G::INFO.max_turns) + 1).saturating_mul(1000);
    let mut decisions = 0;
    while let Some(seat) = session.state().to_move() {
        if decisions >= limit {
            return false;
        }
        let action = agents[seat.to_usize()].choose(session.state(), &stop);
        if session.play(action).is_err() {
            session.resign(seat);
        }
        decisions += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_alternate_and_rotate_seats() {
        let two = schedule(2, 3, 2);
        let seats: Vec<_> = two.iter().map(|f| f.seats.clone()).collect();
        assert_eq!(seats, [vec![0, 1], vec![1, 0], vec![0, 1]]);
        let three_seats = schedule(2, 2, 3);
        assert_eq!(three_seats[0].seats, [0, 1, 0]);
        assert_eq!(three_seats[1].seats, [1, 0, 1]);
        let round_robin = schedule(3, 2, 2);
        assert_eq!(round_robin.len(), 6);
        assert_eq!(round_robin[2].seats, [0, 2]);
        assert_eq!(round_robin[5].seats, [2, 1]);
        assert!(round_robin.iter().enumerate().all(|(i, f)| f.index == i));
    }

    #[test]
    fn seeds_differ_per_game() {
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(1, 0), mix(2, 0));
    }
}
