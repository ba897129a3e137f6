//! The arguments of the commands that serve a server or administer its database: `serve` and
//! `admin`.

use std::path::PathBuf;

use clap::Args;

/// `ludus admin`.
#[derive(Debug, Args)]
pub struct AdminArgs {
    /// The server's database (its `--db`).
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Print JSON instead of lines.
    #[arg(long)]
    pub json: bool,
    /// What to do.
    #[command(subcommand)]
    pub action: AdminAction,
}

/// What `ludus admin` does.
#[derive(Debug, clap::Subcommand)]
pub enum AdminAction {
    /// Copy the database into a new file, consistent as of one moment, while the server
    /// writes on (SQLite's online backup). A restore is starting a server on the copy.
    Backup {
        /// The new file.
        out: PathBuf,
    },
    /// Copy the database into a new, compacted file with 1 KiB pages (SQLite's VACUUM
    /// INTO), consistent as of one moment, while the server writes on. A server started on
    /// the copy of a database made with 4 KiB pages writes under half the bytes a move.
    Compact {
        /// The new file.
        out: PathBuf,
    },
    /// Replay every stored game through the rules; name the damaged ones (exit 1 if any).
    Check,
    /// List the stored games.
    Games,
    /// Delete a stored game (a running server forgets it at its next start).
    DeleteGame {
        /// The game's id.
        id: String,
    },
    /// List the accounts.
    Users,
    /// Close an account: it cannot sign in, its sessions and tokens end (within a minute on
    /// a running server), it is listed nowhere.
    Ban {
        /// The account's name.
        name: String,
    },
    /// Open a closed account again.
    Unban {
        /// The account's name.
        name: String,
    },
    /// Give an account a new random password, printed once; its sessions end.
    ResetPassword {
        /// The account's name.
        name: String,
    },
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
    /// Games one client (an IP address) may have created and still in progress (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub games_per_client: usize,
    /// Actions (moves and other requests that change something, WebSocket messages) one
    /// client may send per second, with bursts of twice as many (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub actions_per_second: u32,
    /// How long a person's seat must be away before the other side may claim the win or hand
    /// the seat to a computer player.
    #[arg(long, value_name = "S", default_value_t = 120.0)]
    pub grace_seconds: f64,
    /// An origin (`https://example.org`) whose pages may use the API, besides the server's
    /// own page (repeatable). Other cross-origin requests are refused.
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = origin)]
    pub allow_origins: Vec<String>,
    /// Games one client may create per rolling day, finished or not (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub games_per_client_per_day: usize,
    /// Games in progress the whole server holds; more answer 503 until one ends.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_games_in_progress: u32,
    /// How long a game in progress may stay untouched (no move, no person connected) before
    /// the seat to move loses as on time (0: never).
    #[arg(
        long,
        value_name = "HOURS",
        default_value_t = 168.0,
        allow_hyphen_values = true
    )]
    pub abandon_after_hours: f64,
    /// The most memory one computer player's search may ask for, in MiB (alpha-beta's `hash`,
    /// MCTS's `tree` at 64 bytes a node); creating a game whose spec asks for more is refused.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub max_hash_mb: usize,
    /// Hints one client may have waiting for a search slot (at least 1); one more gets a 429.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_queued_hints: usize,
    /// A host name (`games.example.org`) that requests may name, besides loopback names and
    /// the listening address (repeatable); requests naming others get a 421, against DNS
    /// rebinding. Without it, a server on a non-loopback address accepts any name.
    #[arg(long = "allow-host", value_name = "NAME", value_parser = host)]
    pub allow_hosts: Vec<String>,
    /// What to log on stderr, as a level (`info` logs every request: method, path without
    /// its query, status, latency, client) or a filter such as `warn,ludus_server=info`;
    /// default: the LUDUS_LOG environment variable, else `warn`.
    #[arg(long, value_name = "LEVEL")]
    pub log: Option<String>,
    /// Connections open at once, WebSockets included; a new one over it is closed at once
    /// (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub max_connections: usize,
    /// Connections one TCP peer may hold open at once (0: no limit). Behind a reverse proxy
    /// the proxy is that one peer: raise this to what the proxy needs.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub connections_per_client: usize,
    /// WebSockets open at once (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_websockets: usize,
    /// WebSockets one client may hold open at once (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub websockets_per_client: usize,
    /// Take the client's address for the per-client limits from the last X-Forwarded-For
    /// entry (the one a reverse proxy appends). Only when every request comes through it.
    #[arg(long)]
    pub trust_proxy: bool,
    /// The address people reach the server at, when it differs from --addr (behind a
    /// reverse proxy): `https://games.example.org`. With https the session cookie is Secure.
    #[arg(long, value_name = "URL", value_parser = origin)]
    pub public_url: Option<String>,
    /// Accounts one client address may create per hour (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub signups_per_hour: usize,
}

/// An `--allow-origin` value the server accepts.
fn origin(text: &str) -> Result<String, ludus_server::AccessError> {
    ludus_server::check_origin(text).map(|()| text.to_string())
}

/// An `--allow-host` value the server accepts.
fn host(text: &str) -> Result<String, ludus_server::AccessError> {
    ludus_server::check_host(text).map(|()| text.to_string())
}
