//! The server's limits and budgets, with the defaults `ludus serve` uses.

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
        }
    }
}
