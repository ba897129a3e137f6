//! The server's limits and budgets, with the defaults `ludus serve` uses.

use std::path::PathBuf;

/// Limits and budgets of a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games held at once; when full, the game finished longest ago is dropped, and creating
    /// a game fails while every held game is in progress.
    pub max_games: usize,
    /// The largest request body, in bytes.
    pub body_limit: usize,
    /// The largest body of `POST /api/games`, which may carry a record.
    pub record_limit: usize,
    /// The largest WebSocket message the server reads; a bigger one gets an error frame.
    pub frame_limit: usize,
    /// Searches that may run at once (default: one per core).
    pub search_threads: usize,
    /// The hint's search time, in seconds.
    pub hint_seconds: f64,
    /// The longest a computer's search may hold a core, in seconds, whatever its spec asks
    /// (`ai:4:time=1000`): then its stop flag is raised and it plays the best found so far.
    pub max_search_seconds: f64,
    /// Hints of one game searched at once.
    pub max_hints: usize,
    /// How long a person's seat must be away before the other side may claim the win or hand
    /// the seat to a computer player, in seconds.
    pub grace_seconds: f64,
    /// The SQLite database that keeps every game across restarts; `None` keeps games in
    /// memory only.
    pub db: Option<PathBuf>,
    /// Games a client (an IP address) may have created and still in progress; 0: no limit.
    pub games_per_client: usize,
    /// Actions (requests that change something, WebSocket messages) a client may send per
    /// second, sustained; 0: no limit. `ludus serve` sets 20 unless told otherwise; the
    /// library's default is 0, so servers embedded in tests and tools are not throttled.
    pub actions_per_second: u32,
    /// Actions a client may send at once before the sustained rate applies.
    pub action_burst: u32,
    /// Origins (`https://example.org`) whose pages may use the API besides the server's own.
    pub allowed_origins: Vec<String>,
    /// Host names (`games.example.org`) that requests may name in `Host` besides loopback
    /// names and the address the server listens on; others get a 421, against DNS
    /// rebinding. Empty on a server listening on a non-loopback address: any `Host`.
    pub allowed_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_games: 10_000,
            body_limit: 64 * 1024,
            record_limit: 1024 * 1024,
            frame_limit: 64 * 1024,
            search_threads: std::thread::available_parallelism().map_or(2, usize::from),
            hint_seconds: 0.5,
            max_search_seconds: 30.0,
            max_hints: 2,
            grace_seconds: 120.0,
            db: None,
            games_per_client: 50,
            actions_per_second: 0,
            action_burst: 40,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
        }
    }
}
