//! The server's limits and budgets, with the defaults `ludus serve` uses.

use std::path::PathBuf;
use std::time::Duration;

/// Limits and budgets of a server. Its durations count as a year at most, so `Duration::MAX`
/// may stand for "never".
#[derive(Clone, Debug)]
pub struct Config {
    /// Games held in memory at once; when full, the game finished longest ago leaves memory
    /// (with a database it stays on disk, read on demand; without one it is gone), and
    /// creating a game fails while every held game is in progress.
    pub max_games: usize,
    /// The largest request body, in bytes.
    pub body_limit: usize,
    /// The largest body of `POST /api/games`, which may carry a record.
    pub record_limit: usize,
    /// The bytes that bodies of `POST /api/games` may declare at once, over all clients (at
    /// least one `record_limit`); a request past it is answered `503` before its body is read.
    pub records_in_flight: usize,
    /// The largest WebSocket message the server reads; a bigger one gets an error frame, and
    /// one past twice this closes the socket. A client's messages are a move, a chat line or
    /// a control, a few hundred bytes at most.
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
    /// Games in progress the whole server holds; creating one more answers 503 until one
    /// ends (abandoned games end by themselves, see `abandon_after_seconds`).
    pub max_games_in_progress: usize,
    /// Games a client may create per rolling day, finished or not; 0: no limit.
    pub games_per_client_per_day: usize,
    /// How long a game in progress may stay untouched (no change, no open socket of a person)
    /// before it is ended as abandoned, in seconds: the seat to move loses as on time.
    pub abandon_after_seconds: f64,
    /// The most memory one search may ask for, in MiB: a bigger `hash` (alpha-beta's table)
    /// or `tree` (MCTS nodes, counted at 64 bytes each) is refused when the game is created.
    pub max_hash_mb: usize,
    /// Hints one client may have waiting for a search slot (at least 1); one more gets a 429.
    pub max_queued_hints: usize,
    /// The longest a request's head (request line and headers) may take to arrive; then the
    /// connection is closed. Hyper starts this timer whenever it waits for a request, so it
    /// also closes a keep-alive connection left idle between requests.
    pub header_timeout: Duration,
    /// The longest a request's body may take to arrive in full, counted from its head; a body
    /// that trickles in is cut with a 400 and the connection closed.
    pub body_timeout: Duration,
    /// A connection on which no byte moved either way for this long is closed (a client that
    /// stopped reading its answer, for one), within a quarter more: it is looked at four
    /// times per timeout. WebSockets have their own pings instead.
    pub idle_timeout: Duration,
    /// Connections open at once, WebSockets included; a new one over it is closed at once.
    /// 0: no limit.
    pub max_connections: usize,
    /// Connections one TCP peer (an IP address) may hold open at once; 0: no limit. Behind a
    /// reverse proxy the proxy is the one peer: raise it there.
    pub connections_per_client: usize,
    /// WebSockets open at once; an upgrade over it gets a 503. 0: no limit.
    pub max_websockets: usize,
    /// WebSockets one client may hold open at once; an upgrade over it gets a 429. 0: no limit.
    pub websockets_per_client: usize,
    /// Take the client's address for the per-client limits (actions, games, WebSockets) from
    /// the last `X-Forwarded-For` entry, the one the reverse proxy appended. Only for a server
    /// reached solely through such a proxy: otherwise any client could pick its address.
    pub trust_proxy: bool,
    /// How often the server pings each WebSocket.
    pub ping_interval: Duration,
    /// A WebSocket whose client sent nothing (no pong, no message) for this long is closed;
    /// so is one whose client took no frame for this long (it stopped reading).
    pub socket_timeout: Duration,
    /// Host names (`games.example.org`) that requests may name in `Host` besides loopback
    /// names and the address the server listens on; others get a 421, against DNS
    /// rebinding. Empty on a server listening on a non-loopback address: any `Host`.
    pub allowed_hosts: Vec<String>,
    /// The address people reach the server at (`https://games.example.org`), when it is not
    /// the one it listens on (behind a reverse proxy): links are built from it, and with
    /// `https` the session cookie is `Secure`.
    pub public_url: Option<String>,
    /// Accounts one client address may create per hour (0: no limit).
    pub signups_per_hour: usize,
    /// Failed sign-ins per account name in 15 minutes before the name waits (whoever tries).
    pub sign_in_failures: usize,
    /// Sign-in attempts per client address in 15 minutes.
    pub sign_ins_per_client: usize,
}

impl Config {
    /// Whether cookies must carry `Secure`: the public address is `https`.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_games: 10_000,
            body_limit: 64 * 1024,
            record_limit: 1024 * 1024,
            records_in_flight: 32 * 1024 * 1024,
            frame_limit: 8 * 1024,
            search_threads: std::thread::available_parallelism().map_or(2, usize::from),
            hint_seconds: 0.5,
            max_search_seconds: 30.0,
            max_hints: 2,
            grace_seconds: 120.0,
            db: None,
            games_per_client: 20,
            actions_per_second: 0,
            action_burst: 40,
            allowed_origins: Vec::new(),
            max_games_in_progress: 10_000,
            games_per_client_per_day: 500,
            abandon_after_seconds: 7.0 * 24.0 * 3600.0,
            max_hash_mb: 64,
            max_queued_hints: 4,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_connections: 4096,
            connections_per_client: 64,
            max_websockets: 10_000,
            websockets_per_client: 32,
            trust_proxy: false,
            ping_interval: Duration::from_secs(30),
            socket_timeout: Duration::from_secs(90),
            allowed_hosts: Vec::new(),
            public_url: None,
            signups_per_hour: 5,
            sign_in_failures: 5,
            sign_ins_per_client: 30,
        }
    }
}
