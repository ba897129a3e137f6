//! The command line of `ludus-loadtest`.

use std::path::PathBuf;

use clap::Parser;

/// Load a Ludus server with games of random moves over WebSockets: moves/s, latency, memory,
/// and a check that every acknowledged decision was stored once.
#[derive(Debug, Parser)]
#[command(name = "ludus-loadtest", version)]
pub struct LoadtestArgs {
    /// The server to load, http://HOST:PORT (a running `ludus serve`).
    #[arg(long, required_unless_present = "spawn", conflicts_with = "spawn")]
    pub url: Option<String>,
    /// Start `ludus serve` on a free local port and a temporary database, load it, and
    /// measure its memory.
    #[arg(long)]
    pub spawn: bool,
    /// The `ludus` binary that --spawn starts (default: the one beside this binary, else the
    /// one on the PATH).
    #[arg(long, value_name = "PATH", requires = "spawn")]
    pub server_bin: Option<PathBuf>,
    /// The server's process id (a local --url), to measure its memory and CPU.
    #[arg(long, conflicts_with = "spawn", value_parser = clap::value_parser!(u32).range(1..))]
    pub pid: Option<u32>,
    /// Games played at once (two WebSockets each), 1 to 10,000; a finished game is replaced.
    #[arg(long, default_value_t = 100, value_parser = |t: &str| whole_in(t, 1, 10_000))]
    pub games: u64,
    /// How long to play, in seconds: more than 0, at most 3600.
    #[arg(long, default_value_t = 10.0, value_parser = seconds, allow_hyphen_values = true)]
    pub seconds: f64,
    /// Moves per second over all games, each game pacing its moves evenly, 0 to 1,000,000;
    /// 0: every game moves as soon as its last move is answered.
    #[arg(long, default_value_t = 0, value_parser = |t: &str| whole_in(t, 0, 1_000_000))]
    pub rate: u64,
    /// Only this game (`ludus games` lists them); without it every game takes its turn.
    #[arg(long)]
    pub game: Option<String>,
    /// Seed of the random moves (each game is seeded from it and its number).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Sign up K accounts (load0001, ...; 0 to 10,000, never 1) and make every game between
    /// two of them by the pairing API: one posts a seek, the other accepts it. 0: games are
    /// created directly, without accounts.
    #[arg(long, default_value_t = 0, value_parser = |t: &str| whole_in(t, 0, 10_000))]
    pub accounts: u64,
    /// Games made by pairing are rated (needs --accounts).
    #[arg(long)]
    pub rated: bool,
    /// Lobby WebSockets kept open during the run (half signed in as accounts, half not),
    /// counting the seek and unseek frames they hear; 0 to 10,000 (needs --accounts).
    #[arg(long, default_value_t = 0, value_parser = |t: &str| whole_in(t, 0, 10_000))]
    pub lobby: u64,
    /// Accounts that each keep one seek open that nobody accepts, so the lobby is never
    /// empty; at most --accounts. Default: 10 with --lobby, else 0.
    #[arg(long, value_parser = |t: &str| whole_in(t, 0, 10_000))]
    pub open_seeks: Option<u64>,
    /// Print one JSON object (docs/API.md, "Load test") instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// A whole number in `min..=max`, refused with the range named (clap's own message for a
/// number too large for its type does not name it).
fn whole_in(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let within = |n: &u64| (min..=max).contains(n);
    let number = text.trim().parse().ok().filter(within);
    number.ok_or_else(|| format!("expected a whole number from {min} to {max}"))
}

/// A number of seconds: finite, above 0 and at most an hour.
fn seconds(text: &str) -> Result<f64, String> {
    let within = |s: &f64| s.is_finite() && *s > 0.0 && *s <= 3600.0;
    let number = text.trim().parse().ok().filter(within);
    number.ok_or_else(|| "expected a number of seconds above 0 and at most 3600".to_string())
}
