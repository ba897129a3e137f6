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
//! **Players.** The built-in agents (`agents`, `ai:...`) and the outside engines (`engines`,
//! `NAME=COMMAND`, see [`EngineSpec`]), agents first unless `order` says otherwise (a command
//! line's order), which speak UGI over a pipe with a
//! fresh process per game. The arena is the referee: every decision is checked by the rules,
//! and an engine that plays an illegal move, crashes, closes its pipe, sends garbage or
//! exceeds `movetime + margin` loses that game, with the reason in [`GameResult::reason`] and
//! in the saved record.
//!
//! **Time.** Engines get `go movetime` (`movetime`; built-in agents too with
//! `movetime_for_all`, unless their spec sets a time). With `tc` every seat has a clock
//! instead (see `clock.rs`): built-in agents get each decision's share of it through their
//! budget, as `ludus ugi` gives it, engines get `go wtime ...`, and a seat that spends more
//! than its clock plus `margin` loses on time.
//!
//! **Schedule.** Two players play a match; more play a round robin, every pair
//! `games_per_pair` games (see `schedule.rs`: pairs in order, seats swapped within each game
//! pair, 3–4 seats filled `A B A` / `B A B`). A game counts once for each of its two players.
//! The list is computed one game at a time, so a huge `games_per_pair` costs nothing before the
//! first game; it is capped at [`MAX_GAMES_PER_PAIR`] because the report keeps every game.
//!
//! **Openings.** Game pair `k` of every pair of players starts from opening `k` (cycling
//! through `openings`; the usual setup without any) plus `random_opening` random decisions,
//! the same for both games of the pair: each opening is played twice with the seats swapped.
//!
//! **Determinism.** Game pair `k` starts from `Session::new(options, mix(seed, k))`; game `i`'s
//! seat `k` agent is seeded with `mix(mix(seed, i), k + 1)`, so results do not depend on the
//! number of threads or on which thread runs which game (only time budgets, and outside
//! engines, can vary on a busy machine). With `shard` a run plays only its part of the same
//! list and `out` writes its games as JSON lines that [`merge`] combines (see [`shard`]).
//!
//! **SPRT.** With `sprt` (two players only) the games are played as game pairs until the
//! test of player `sprt_player` accepts a hypothesis or `games_per_pair` games are played (see
//! [`sprt`]). Every report also has each player's pair statistics (see [`pair_estimate`]).
//!
//! **Adjudication.** `draw_rule` and `resign_rule` end a game early when the players' own
//! scores agree that it is decided (see `adjudicate.rs`); both are off by default.
//!
//! **Records.** With `save_dir`, game `i` is saved as `<dir>/<game>-<i+1 padded to 4>.json`
//! (players named after their specs or engine names), readable by `ludus replay`, with a
//! `decisions` list: each decision's seat, move, time, budget, clock and score (`notes.rs`).

mod adjudicate;
mod book;
mod clock;
pub mod elo;
mod engine_process;
mod notes;
mod opening;
mod penta;
mod play;
mod report;
mod run;
mod schedule;
pub mod shard;
pub mod sprt;
mod sprt_tracker;
mod ugi_client;

use std::path::PathBuf;
use std::time::Duration;

use ludus_engine::{Game, Heuristic, RecordError};
use thiserror::Error;

pub use self::adjudicate::{
    AdjudicationError, DrawRule, ResignRule, MAX_ADJUDICATION_COUNT, MAX_ADJUDICATION_SCORE,
};
pub use self::book::{balanced_book, BookConfig, BookError, BookLine};
pub use self::elo::{elo_from_score, estimate, score_from_elo, EloEstimate};
pub use self::engine_process::end_all_engines;
pub use self::opening::{parse_openings, Opening, OpeningError, MAX_OPENINGS_BYTES};
pub use self::penta::{pair_estimate, pairs_of, PairEstimate};
pub use self::play::PlayerSpec;
pub use self::report::{AgentResult, ArenaReport, GameResult};
pub use self::run::run_arena_with;
pub use self::shard::{
    merge, merge_with_warnings, Shard, ShardFileError, ShardHeader, ShardWriter,
};
pub use self::sprt::{Pentanomial, SprtConfig, SprtModel, SprtVerdict};
pub use self::sprt_tracker::{too_few_pairs, SprtSummary};
pub use self::ugi_client::{EngineSpec, EngineSpecError, Forfeit, UgiClient};
use crate::{AgentError, AgentSpec, TimeControl};

/// The most games a pair of players may play in one tournament.
pub const MAX_GAMES_PER_PAIR: usize = 1_000_000;
/// The most random decisions an opening may add.
pub const MAX_RANDOM_OPENING: u32 = 1000;
/// The longest move time given to outside engines.
#[allow(clippy::duration_suboptimal_units)] // from_hours needs a newer Rust than 1.85
pub const MAX_MOVETIME: Duration = Duration::from_secs(3600);
/// The longest margin over the move time.
#[allow(clippy::duration_suboptimal_units)] // from_mins needs a newer Rust than 1.85
pub const MAX_MARGIN: Duration = Duration::from_secs(60);

/// What an arena plays.
#[derive(Clone, Debug)]
pub struct ArenaConfig<G: Game> {
    /// The built-in agents.
    pub agents: Vec<AgentSpec>,
    /// The outside engines, after the agents in the tables.
    pub engines: Vec<EngineSpec>,
    /// Games each pair of players plays (1 to [`MAX_GAMES_PER_PAIR`]); with `sprt`, the most.
    pub games_per_pair: usize,
    /// The seed every game's seeds derive from.
    pub seed: u64,
    /// Worker threads; 0 is one per core. At most four per core.
    pub threads: usize,
    /// The rules options of every game.
    pub options: G::Options,
    /// Where to save each game's record, if anywhere.
    pub save_dir: Option<PathBuf>,
    /// Openings played in turn by the game pairs (none: the usual setup).
    pub openings: Vec<Opening>,
    /// Random decisions added to every opening (at most [`MAX_RANDOM_OPENING`]).
    pub random_opening: u32,
    /// Time per decision for outside engines (`go movetime`), and for built-in agents whose
    /// spec sets no time when `movetime_for_all` is set.
    pub movetime: Duration,
    /// Whether `movetime` binds built-in agents too (a command line that gave `--movetime`).
    pub movetime_for_all: bool,
    /// Every seat's clock (`--tc BASE+INC`): built-in agents budget each decision from it,
    /// outside engines get `go wtime ...`; it replaces `movetime` for everyone.
    pub tc: Option<TimeControl>,
    /// How much longer than `movetime` an engine may take before it loses.
    pub margin: Duration,
    /// Stop when this test decides (two players only).
    pub sprt: Option<SprtConfig>,
    /// The player the SPRT tests (an index into [`players`](Self::players)).
    pub sprt_player: usize,
    /// The players' order, as positions in the agents followed by the engines (`[2, 0, 1]`:
    /// the first engine, then both agents), as a command line gave them; empty: agents first.
    /// The schedule, the tables and the SPRT's default player follow it.
    pub order: Vec<usize>,
    /// The part of the game list this run plays.
    pub shard: Shard,
    /// Write the games as JSON lines to this file (see [`shard`]).
    pub out: Option<PathBuf>,
    /// Continue the interrupted run whose `out` file exists: its games (of the same
    /// tournament and shard) are kept and written back, and only the others are played.
    pub resume: bool,
    /// End a game as a draw when every player's scores stay level (off: `None`).
    pub draw_rule: Option<DrawRule>,
    /// End a two-seat game when both players agree on a large score (off: `None`).
    pub resign_rule: Option<ResignRule>,
}

impl<G: Game> ArenaConfig<G> {
    /// A config for `agents` with default options, 10 games per pair, seed 0, all cores, no
    /// engines, openings, SPRT or saved games, and 100 ms per engine decision (+ 1 s margin).
    pub fn new(agents: Vec<AgentSpec>) -> Self {
        ArenaConfig {
            agents,
            engines: Vec::new(),
            games_per_pair: 10,
            seed: 0,
            threads: 0,
            options: G::Options::default(),
            save_dir: None,
            openings: Vec::new(),
            random_opening: 0,
            movetime: Duration::from_millis(100),
            movetime_for_all: false,
            tc: None,
            margin: Duration::from_secs(1),
            sprt: None,
            sprt_player: 0,
            order: Vec::new(),
            shard: Shard::ALL,
            out: None,
            resume: false,
            draw_rule: None,
            resign_rule: None,
        }
    }

    /// Every player, in [`order`](Self::order) (agents first when it is empty or not an
    /// order of all of them).
    pub fn players(&self) -> Vec<PlayerSpec> {
        let agents = self.agents.iter().cloned().map(PlayerSpec::Agent);
        let all: Vec<PlayerSpec> = agents
            .chain(self.engines.iter().cloned().map(PlayerSpec::Engine))
            .collect();
        let mut sorted = self.order.clone();
        sorted.sort_unstable();
        if sorted != (0..all.len()).collect::<Vec<_>>() {
            return all;
        }
        self.order.iter().map(|&i| all[i].clone()).collect()
    }

    /// The text whose hash is the tournament's fingerprint: everything that defines the list
    /// of games and how they are played.
    pub fn description(&self) -> String {
        let players: Vec<String> = self
            .players()
            .iter()
            .map(|p| match p {
                PlayerSpec::Agent(spec) => spec.to_string(),
                PlayerSpec::Engine(engine) => engine.to_string(),
            })
            .collect();
        serde_json::json!({
            // Another version may play differently: its shards are another tournament.
            "ludus": env!("CARGO_PKG_VERSION"),
            "game": G::INFO.id,
            "options": ludus_engine::options_to_pairs(&self.options),
            "players": players,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "openings": self.openings.iter().map(|o| (o.position.clone(), o.moves.clone())).collect::<Vec<_>>(),
            "random_opening": self.random_opening,
            "movetime_ms": self.movetime.as_millis() as u64,
            "margin_ms": self.margin.as_millis() as u64,
            "movetime_for_all": self.movetime_for_all,
            "tc": self.tc.map(|tc| tc.to_string()),
            "adjudicate_draw": self.draw_rule.map(|rule| rule.to_string()),
            "adjudicate_resign": self.resign_rule.map(|rule| rule.to_string()),
        })
        .to_string()
    }
}

/// Why an arena could not run.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// Fewer than two players.
    #[error("an arena needs at least two players, got {0}")]
    TooFewAgents(usize),
    /// An agent spec this game cannot build.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The directory for saved games cannot be created.
    #[error("cannot create directory '{path}': {reason}")]
    SaveDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// A game record could not be written.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads: {1}")]
    Threads(usize, String),
    /// More threads than the machine can use.
    #[error(
        "--threads {asked} is too many: expected 0 (one per core) to {max} (four per core here)"
    )]
    TooManyThreads {
        /// Asked for.
        asked: usize,
        /// Allowed.
        max: usize,
    },
    /// A number out of its documented range.
    #[error("{what} {value} is out of range: expected {range}")]
    OutOfRange {
        /// Which setting.
        what: &'static str,
        /// Its value.
        value: String,
        /// The range.
        range: String,
    },
    /// An engine named as another player is: tables, records and shard files could not tell
    /// them apart.
    #[error("two players are named '{0}': give each --engine a name of its own (NAME=COMMAND)")]
    DuplicateName(String),
    /// The resign rule in a game of more than two seats.
    #[error("--adjudicate-resign needs a game of two seats; this one has {0}")]
    ResignSeats(usize),
    /// SPRT with other than two players, or with shards.
    #[error("--sprt needs exactly two players and no --shard (it decides game pair by game pair)")]
    SprtSetup,
    /// An opening that cannot be played.
    #[error("opening of game pair {round}: {message}")]
    Opening {
        /// The game pair.
        round: usize,
        /// Why.
        message: String,
    },
    /// The shard file.
    #[error(transparent)]
    Shard(#[from] ShardFileError),
}

/// Where an arena run stands, after each game.
#[derive(Clone, PartialEq, Debug)]
pub struct Progress {
    /// Games finished by this run.
    pub done: usize,
    /// Games this run plays at most.
    pub total: usize,
    /// The SPRT's state, if one runs.
    pub sprt: Option<SprtSummary>,
}

pub(crate) fn check_ranges<G: Game>(
    config: &ArenaConfig<G>,
    players: usize,
) -> Result<(), ArenaError> {
    let out_of_range =
        |what, value: String, range: String| Err(ArenaError::OutOfRange { what, value, range });
    if players < 2 {
        return Err(ArenaError::TooFewAgents(players));
    }
    if !(1..=MAX_GAMES_PER_PAIR).contains(&config.games_per_pair) {
        return out_of_range(
            "--games",
            config.games_per_pair.to_string(),
            format!("1 to {MAX_GAMES_PER_PAIR}"),
        );
    }
    let max_threads = 4 * std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if config.threads > max_threads {
        return Err(ArenaError::TooManyThreads {
            asked: config.threads,
            max: max_threads,
        });
    }
    if config.random_opening > MAX_RANDOM_OPENING {
        return out_of_range(
            "--random-opening",
            config.random_opening.to_string(),
            format!("0 to {MAX_RANDOM_OPENING}"),
        );
    }
    if config.movetime.is_zero() || config.movetime > MAX_MOVETIME || config.margin > MAX_MARGIN {
        return out_of_range(
            "--movetime/--margin",
            format!(
                "{} ms/{} ms",
                config.movetime.as_millis(),
                config.margin.as_millis()
            ),
            "a move time of 1 ms to 3600000 ms and a margin of 0 to 60000 ms".to_string(),
        );
    }
    if config.sprt.is_some()
        && (players != 2 || config.shard != Shard::ALL || config.sprt_player >= players)
    {
        return Err(ArenaError::SprtSetup);
    }
    let seats = G::new(&config.options, 0).seat_count();
    if config.resign_rule.is_some() && seats != 2 {
        return Err(ArenaError::ResignSeats(seats));
    }
    check_names(config)
}

/// Refuses an engine whose name another engine or a computer player already has (two equal
/// `--ai` specs stay allowed: they are the same player, a mirror match).
fn check_names<G: Game>(config: &ArenaConfig<G>) -> Result<(), ArenaError> {
    let mut seen: Vec<String> = config.agents.iter().map(ToString::to_string).collect();
    for engine in &config.engines {
        if seen.contains(&engine.name) {
            return Err(ArenaError::DuplicateName(engine.name.clone()));
        }
        seen.push(engine.name.clone());
    }
    Ok(())
}

/// Plays every game of `config` (of its shard) and reports the results. `progress(done,
/// total)` is called after each game.
pub fn run_arena<G: Game + Heuristic>(
    config: &ArenaConfig<G>,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<ArenaReport, ArenaError> {
    run_arena_with(config, |p| progress(p.done, p.total))
}

#[cfg(test)]
mod tests {
    use super::play::mix;

    #[test]
    fn the_time_control_and_adjudication_are_part_of_the_fingerprint() {
        use ludus_engine::demo::Nim;
        let mut config = super::ArenaConfig::<Nim>::new(vec!["ai:1".parse().unwrap(); 2]);
        let plain = config.description();
        config.tc = Some("10+0.1".parse().unwrap());
        let clocked = config.description();
        assert_ne!(plain, clocked);
        assert!(clocked.contains(r#""tc":"10+0.1""#), "{clocked}");
        config.tc = Some("10+0.2".parse().unwrap());
        assert_ne!(config.description(), clocked);
        config.draw_rule = Some("movenumber=40,movecount=8,score=10".parse().unwrap());
        let adjudicated = config.description();
        assert_ne!(adjudicated, clocked);
        config.resign_rule = Some("movecount=4,score=600".parse().unwrap());
        assert_ne!(config.description(), adjudicated);
    }

    #[test]
    fn seeds_differ_per_game() {
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(1, 0), mix(2, 0));
    }
}
