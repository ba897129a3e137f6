//! The command-line grammar (clap derive): one struct per subcommand.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod lab;
mod online;
mod solve;
mod tablebase;

pub use self::lab::{BookArgs, DatagenArgs, SpsaArgs, TuneArgs, DEFAULT_MAX_DECISIONS};
pub use self::online::{AdminAction, AdminArgs, ServeArgs};
pub use self::solve::{SolveArgs, SolveCommand};
pub use self::tablebase::TablebaseArgs;

/// Play Qilin Chess XiaSanZi, Splut!, Qawale, Replica and Yoxii against people and computers.
#[derive(Debug, Parser)]
#[command(name = "ludus", version, about, long_about = None)]
pub struct Cli {
    /// What to do; without a command, the game app starts.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The app's colour theme, as `ludus play --theme` takes it: Classic, Dracula, Gruvbox or
    /// Monochrome.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Endgame tables for the solver and level 5 (`ludus tablebase` makes them); default:
    /// the `tablebases` folder of the user's data directory, when it exists.
    #[arg(long, global = true, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game (human or computer on each seat).
    Play(PlayArgs),
    /// List the legal decisions of a position, one per line, in canonical notation.
    Moves(PositionArgs),
    /// Print a position string, the side to move and the outcome.
    Position(PositionArgs),
    /// Count the distinct decision sequences over N complete turns.
    Perft(PerftArgs),
    /// Measure random playouts per second (one thread).
    Bench(BenchArgs),
    /// Prove the exact value of a position (win, draw or loss and the turns to the end) and of
    /// each decision there.
    Solve(SolveArgs),
    /// Compute endgame tables by retrograde analysis: the value and distance of every
    /// position with up to N pieces a side, one checked file per material.
    Tablebase(TablebaseArgs),
    /// Print a saved game move by move, with the result.
    Replay(ReplayArgs),
    /// Let computer players and outside UGI engines play each other: W/D/L, score and Elo.
    Arena(ArenaArgs),
    /// List the games with their players and rules options.
    Games,
    /// Serve one game as an engine over stdin/stdout with the UGI protocol (docs/UGI.md).
    Ugi(UgiArgs),
    /// Play self-play games with a search and write their positions with the results.
    Datagen(DatagenArgs),
    /// Fit the game's evaluation weights to self-play data (the Texel method).
    Tune(TuneArgs),
    /// Tune the game's evaluation weights for strength with games between perturbed copies
    /// (SPSA).
    Spsa(SpsaArgs),
    /// Write an openings file of random openings a search scores nearest to level.
    Book(BookArgs),
    /// Serve the browser page and its JSON/WebSocket API.
    Serve(ServeArgs),
    /// Administer a server's database, also while the server runs: backups, a compacted
    /// copy, a check of every stored game, games and accounts.
    Admin(AdminArgs),
}

/// `ludus ugi`.
#[derive(Debug, Args)]
pub struct UgiArgs {
    /// The game's id (`ludus games` lists them).
    pub game: String,
    /// A rules option as key=value (repeatable); `setoption` can change it later.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The computer player at start (the Agent option), e.g. ai:2 or ai:mcts:c=0.5; level 5
    /// without it.
    #[arg(long, value_name = "SPEC")]
    pub agent: Option<String>,
}

/// `ludus arena`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ArenaArgs {
    /// `ludus arena merge FILE...`.
    #[command(subcommand)]
    pub merge: Option<ArenaCommand>,
    /// The game.
    #[arg(required = true)]
    pub game: Option<String>,
    /// A computer player, ai:LEVEL or ai:AGENT:key=value,... (two players for a match, more
    /// for a round robin).
    #[arg(long = "ai")]
    pub ai: Vec<String>,
    /// An outside engine speaking UGI, "NAME=COMMAND ARGS" (a fresh process per game; players
    /// keep the command line's order of --ai and --engine).
    #[arg(long = "engine", value_name = "NAME=COMMAND ARGS")]
    pub engines: Vec<String>,
    /// The players' command-line order as positions in the --ai players followed by the
    /// --engine players (filled from the command line's argument positions).
    #[arg(skip)]
    pub order: Vec<usize>,
    /// Games per pair of players, 1 to 1000000 (seats swap every game; with --sprt, the most).
    #[arg(long, default_value_t = 10, value_parser = |t: &str| whole_in(t, 1, 1_000_000))]
    pub games: u64,
    /// Seed of the whole arena (each game is seeded from it and its number).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads: 0 = one per core, at most four per core.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Save every game as a record in this directory.
    #[arg(long)]
    pub save_games: Option<PathBuf>,
    /// Openings, one per line (startpos/fen ... moves ..., a move sequence or a position
    /// string); each is played twice with the seats swapped.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random decisions added to every opening, 0 to 1000.
    #[arg(long, default_value_t = 0, value_parser = |t: &str| whole_in(t, 0, 1000))]
    pub random_opening: u64,
    /// Milliseconds per decision, 1 to 3600000, for every player whose spec sets no time
    /// (go movetime for --engine players, who get 100 without it).
    #[arg(long, value_parser = |t: &str| whole_in(t, 1, 3_600_000), conflicts_with = "tc")]
    pub movetime: Option<u64>,
    /// A clock for every seat, BASE+INC in seconds (10+0.1): built-in players budget each
    /// decision from it, --engine players get go wtime/btime/winc/binc; a seat past its clock
    /// plus --margin loses on time.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Milliseconds a player may exceed its move time (or its clock) before it loses, 0 to
    /// 60000.
    #[arg(long, default_value_t = 1000, value_parser = |t: &str| whole_in(t, 0, 60_000))]
    pub margin: u64,
    /// End a game as a draw once it has N decisions and every player's last K decisions
    /// each scored within ±S (off by default; fastchess's -draw).
    #[arg(long, value_name = "movenumber=N,movecount=K,score=S")]
    pub adjudicate_draw: Option<String>,
    /// End a two-seat game when, over K decisions each, one player scored at least +S and
    /// the other at most -S (off by default; fastchess's -resign, both players agreeing).
    #[arg(long, value_name = "movecount=K,score=S")]
    pub adjudicate_resign: Option<String>,
    /// Play game pairs until a sequential probability ratio test decides whether the tested
    /// player is stronger: elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic] (two
    /// players; bounds in normalized Elo unless model=logistic).
    #[arg(
        long,
        value_name = "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized"
    )]
    pub sprt: Option<String>,
    /// The player the SPRT tests, by its name in the table (default: the first player on
    /// the command line).
    #[arg(long, value_name = "NAME", requires = "sprt")]
    pub sprt_player: Option<String>,
    /// Play only shard I of N of the game list (I from 0 to N-1).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write each game as a JSON line (with the tournament's fingerprint) for `arena merge`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted run from its --out FILE: the games it holds are kept (the
    /// same arguments are needed: its fingerprint must match) and the others are played,
    /// all written back to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub resume: Option<PathBuf>,
    /// When stderr is not a terminal (a cluster's log), a progress line every N games, 0 for
    /// none; a terminal gets a progress bar instead.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub progress_every: usize,
}

/// The command-line order of `ludus arena`'s players (`matches` are the arena's), as
/// positions in the `--ai` players followed by the `--engine` players: clap keeps each
/// option's values apart, and only their positions tell how they interleave.
pub fn player_order(matches: &clap::ArgMatches) -> Vec<usize> {
    let positions = |id: &str| -> Vec<usize> {
        matches
            .indices_of(id)
            .map(Iterator::collect)
            .unwrap_or_default()
    };
    let (ai, engines) = (positions("ai"), positions("engines"));
    let agents = ai.iter().enumerate().map(|(k, &at)| (at, k));
    let others = engines
        .iter()
        .enumerate()
        .map(|(k, &at)| (at, ai.len() + k));
    let mut players: Vec<(usize, usize)> = agents.chain(others).collect();
    players.sort_unstable();
    players.into_iter().map(|(_, player)| player).collect()
}

/// Subcommands of `ludus arena`.
#[derive(Debug, Subcommand)]
pub enum ArenaCommand {
    /// Combine the --out files of a tournament's shards into its table (or JSON).
    Merge {
        /// The shard files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
}

/// A game, its options, a start position and moves played from it.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The game's id (`ludus games` lists them).
    pub game: String,
    /// Start from this position string instead of the usual setup (it may start with `-`,
    /// an empty cell).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Moves to play first, separated by spaces (decisions or whole turns).
    #[arg(long, allow_hyphen_values = true)]
    pub after: Option<String>,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Seed for random rules choices (e.g. first_player=random).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `ludus perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Game, position and moves.
    #[command(flatten)]
    pub at: PositionArgs,
    /// How many complete turns to count.
    #[arg(long)]
    pub turns: u32,
    /// Also print the count below each legal decision.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object (the total, the time, and with --divide each decision's count)
    /// instead of the text.
    #[arg(long)]
    pub json: bool,
}

/// `ludus bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The game.
    pub game: String,
    /// How long to play random games, in seconds: more than 0, at most 3600.
    #[arg(long, default_value_t = 3.0, value_parser = seconds_in_range, allow_hyphen_values = true)]
    pub seconds: f64,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Also search fixed positions with alpha-beta to this many decisions and print the node
    /// count ("Bench: N").
    #[arg(long)]
    pub search_depth: Option<u32>,
    /// Time a computer player (ai:LEVEL or ai:AGENT:key=value,...) deciding once in each of
    /// the fixed positions: median time per decision and nodes (MCTS: iterations) per second.
    #[arg(long, value_name = "SPEC")]
    pub agent: Option<String>,
    /// How many fixed positions --search-depth and --agent use (the first is the start).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub positions: u16,
    /// Print one JSON object (the same figures, unrounded) instead of the text.
    #[arg(long)]
    pub json: bool,
}

use ludus_tui::DEFAULT_COMPUTER;

/// `ludus play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game; asked for when missing.
    pub game: Option<String>,
    /// Seat 1: human, ai:LEVEL (1-5) or ai:AGENT:key=value,...
    #[arg(long, default_value = "human")]
    pub p1: String,
    /// Seat 2 (level 3 by default, as in the app's setup).
    #[arg(long, default_value = DEFAULT_COMPUTER)]
    pub p2: String,
    /// Seat 3 (Splut! with players=3 or 4).
    #[arg(long, default_value = DEFAULT_COMPUTER)]
    pub p3: String,
    /// Seat 4 (Splut! with players=4).
    #[arg(long, default_value = DEFAULT_COMPUTER)]
    pub p4: String,
    /// Player names in seat order (repeatable).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Start from this position string (it may start with `-`, an empty cell).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Seed for computer players and random rules choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save the game to this file when it ends (and on `save` without a name).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Continue a saved game.
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// Use the plain line mode (the default when input or output is not a terminal).
    #[arg(long)]
    pub plain: bool,
    /// The app's colour theme: Classic, Dracula, Gruvbox or Monochrome (remembered when
    /// changed with `t`).
    #[arg(long)]
    pub theme: Option<String>,
}

/// `ludus replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The saved game.
    pub file: PathBuf,
    /// Print the board after every turn.
    #[arg(long)]
    pub boards: bool,
}

/// A number of seconds for `bench`: finite, above 0 and at most an hour.
pub(crate) fn seconds_in_range(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("expected a number of seconds above 0 and at most 3600".to_string()),
    }
}

/// A whole number in `min..=max`, refused with the range (clap's own message for a number too
/// large for its type does not name the range).
pub(crate) fn whole_in(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from {min} to {max}")),
    }
}
