//! The command-line grammar (clap derive): one struct per subcommand.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Play Qilin Chess XiaSanZi, Splut!, Qawale, Replica and Yoxii against people and computers.
#[derive(Debug, Parser)]
#[command(name = "ludus", version, about, long_about = None)]
pub struct Cli {
    /// What to do; without a command, the game app starts.
    #[command(subcommand)]
    pub command: Option<Command>,
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
    /// Print a saved game move by move, with the result.
    Replay(ReplayArgs),
    /// Let computer players play each other: W/D/L, score and Elo per player.
    Arena(ArenaArgs),
    /// List the games with their players and rules options.
    Games,
    /// Serve the browser page and its JSON/WebSocket API.
    Serve(ServeArgs),
}

/// `ludus serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free port; the first line printed names it).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The SQLite database that keeps every game across restarts (default: games.sqlite3 in
    /// the user's data directory).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Write every stored game as a record file into DIR (one `ID.json` each) and exit
    /// instead of serving.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
}

/// `ludus arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The game.
    pub game: String,
    /// A computer player, ai:LEVEL or ai:AGENT:key=value,... (two for a match, more for a
    /// round robin).
    #[arg(long = "ai", required = true)]
    pub ai: Vec<String>,
    /// Games per pair of players (seats alternate).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Seed of the whole arena (each game is seeded from it and its number).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (0 = every core).
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
}

/// A game, its options, a start position and moves played from it.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The game: qilin, splut, qawale, replica or yoxii.
    pub game: String,
    /// Start from this position string instead of the usual setup.
    #[arg(long)]
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
}

/// `ludus bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The game.
    pub game: String,
    /// How long to play random games.
    #[arg(long, default_value_t = 3.0)]
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
}

/// `ludus play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game; asked for when missing.
    pub game: Option<String>,
    /// Seat 1: human, ai:LEVEL (1-5) or ai:AGENT:key=value,...
    #[arg(long, default_value = "human")]
    pub p1: String,
    /// Seat 2.
    #[arg(long, default_value = "ai:1")]
    pub p2: String,
    /// Seat 3 (Splut! with players=3 or 4).
    #[arg(long, default_value = "ai:1")]
    pub p3: String,
    /// Seat 4 (Splut! with players=4).
    #[arg(long, default_value = "ai:1")]
    pub p4: String,
    /// Player names in seat order (repeatable).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Start from this position string.
    #[arg(long)]
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
