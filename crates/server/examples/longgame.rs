//! Measures what one move costs the server early and late in a long game: server CPU per
//! move and the bytes of the frame each socket is sent, over a window of moves at the start
//! and one after `DECISIONS` decisions. Numbers go to `docs/SCALING.md`.
//!
//! ```sh
//! cargo run -p ludus-server --features bench-examples --example longgame --release -- DECISIONS GAME OPTIONS_JSON
//! cargo run -p ludus-server --features bench-examples --example longgame --release -- 10000 splut \
//!     '{"players":4,"size":25,"max_turns":0,"repetition":0}'
//! ```
//!
//! Human seats (as many as the options' `players`, or two) each play random legal decisions over its own
//! WebSocket, as `ludus-loadtest` does. The server runs in this process on its own threads;
//! the clients run on the main thread alone, so the server's CPU is what its other threads ran (their
//! `/proc/self/task/*/schedstat`, Linux only). Threads that ended inside a window are not
//! counted: the server's threads live as long as it does.
//!
//! With `LUDUS_SERVE=target/release/ludus` the server is that binary instead (`ludus serve`
//! on a free port and a fresh SQLite database, so a move's cost includes its commit): its CPU
//! is its process's threads' `schedstat`, its memory its own VmRSS, the clients' excluded.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use ludus_server::{BackgroundServer, Config};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// The `ludus` binary's allocator (crates/cli/src/main.rs), so the server is measured as it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Moves per measured window.
const WINDOW: u64 = 1000;

/// Nanoseconds a thread ran, from its `schedstat` (the scheduler's own count: finer than
/// the 10 ms ticks of `stat`).
fn ran_ns(path: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Nanoseconds every thread of process `pid` (`self` for this one) ran so far.
fn process_ns(pid: &str) -> u64 {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |tasks| {
        tasks
            .flatten()
            .map(|t| ran_ns(&format!("{}/schedstat", t.path().display())))
            .sum()
    })
}

/// A `ludus serve` process on a free port and a fresh database, stopped when dropped.
struct Serve {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Serve {
    fn start(binary: &std::ffi::OsStr) -> Serve {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut child = Command::new(binary)
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--actions-per-second",
                "0",
                "--db",
            ])
            .arg(dir.path().join("longgame.sqlite3"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("LUDUS_SERVE: a ludus binary to run");
        // Its first line is its URL; nothing reads the rest, which it does not write.
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its output"))
            .read_line(&mut line)
            .expect("its address");
        let addr = line
            .trim()
            .trim_start_matches("http://")
            .trim_end_matches('/');
        Serve {
            addr: addr.to_string(),
            child,
            _dir: dir,
        }
    }

    fn pid(&self) -> String {
        self.child.id().to_string()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server measured: in this process, or a `ludus serve` process.
enum Server {
    Here(BackgroundServer),
    Spawned(Serve),
}

impl Server {
    fn addr(&self) -> String {
        match self {
            Server::Here(server) => server.addr().to_string(),
            Server::Spawned(serve) => serve.addr.clone(),
        }
    }

    /// Seconds of CPU the server ran so far: in this process, every thread but this one.
    fn cpu(&self) -> f64 {
        let ns = match self {
            Server::Here(_) => {
                process_ns("self").saturating_sub(ran_ns("/proc/thread-self/schedstat"))
            }
            Server::Spawned(serve) => process_ns(&serve.pid()),
        };
        ns as f64 / 1e9
    }

    /// The server's resident memory (this whole process's when it runs here).
    fn rss_mib(&self) -> f64 {
        match self {
            Server::Here(_) => vm_rss_mib("self"),
            Server::Spawned(serve) => vm_rss_mib(&serve.pid()),
        }
    }
}

fn vm_rss_mib(pid: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

/// The next delta frame of `socket` (other frames skipped), and its size.
async fn next_delta(socket: &mut Socket) -> (Value, usize) {
    loop {
        let frame = socket.next().await.expect("open").expect("a frame");
        if let Message::Text(text) = frame {
            let value: Value = serde_json::from_str(&text).expect("JSON");
            match value["type"].as_str() {
                Some("delta") => return (value, text.len()),
                Some("snapshot") => return (value["snapshot"].clone(), text.len()),
                Some("error") => panic!("refused: {value}"),
                _ => {}
            }
        }
    }
}

struct Window {
    from: u64,
    cpu: f64,
    bytes: usize,
    moves: u64,
}

/// A game whose seats are all human, each with its own socket; and its first snapshot.
struct Table {
    base: String,
    id: String,
    sockets: Vec<Socket>,
    held: Value,
}

async fn json_of(request: reqwest::RequestBuilder) -> Value {
    request
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("JSON")
}

async fn open(server: &Server, game: &str, options: &Value) -> Table {
    let base = format!("http://{}", server.addr());
    let http = reqwest::Client::new();
    // As many human seats as the options' `players` asks (two when it says nothing).
    let seats = options["players"].as_u64().unwrap_or(2) as usize;
    let body = json!({"game": game, "options": options, "seed": 1,
                      "players": vec!["human"; seats]});
    let created = json_of(
        http.post(format!("{base}/api/games"))
            .body(body.to_string()),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut sockets = Vec::new();
    for seat in created["seats"].as_array().expect("seats") {
        let token = seat["token"].as_str().expect("a token");
        let url = format!("ws://{}/api/games/{id}/ws?token={token}", server.addr());
        let (mut socket, _) = connect_async(url).await.expect("socket");
        next_delta(&mut socket).await;
        sockets.push(socket);
    }
    let held = json_of(http.get(format!("{base}/api/games/{id}"))).await;
    Table {
        base,
        id,
        sockets,
        held,
    }
}

impl Table {
    /// Plays one random decision on its seat's socket; answers the bytes of the frame that
    /// socket got for it, once every socket has its frame.
    async fn play(&mut self, dice: &mut u64) -> usize {
        let seat = self.held["to_move"].as_u64().expect("a seat") as usize;
        let legal = self.held["legal"].as_array().expect("legal");
        let (state, value) = ludus_engine::splitmix64(*dice);
        *dice = state;
        let pick = legal[(value % legal.len() as u64) as usize].clone();
        let frame = json!({"type": "move", "move": pick, "seq": self.held["seq"]});
        self.sockets[seat - 1]
            .send(Message::text(frame.to_string()))
            .await
            .expect("sent");
        let mut bytes = 0;
        for (i, socket) in self.sockets.iter_mut().enumerate() {
            let (delta, size) = next_delta(socket).await;
            if i == seat - 1 {
                if delta["type"] == "delta" {
                    ludus_server::frames::apply_delta(&mut self.held, &delta).expect("a delta");
                } else {
                    self.held = delta;
                }
                bytes = size;
            }
        }
        bytes
    }
}

/// Plays up to `decisions` decisions, measuring a window of moves from decision 10 and one
/// ending at the last; answers the windows and the highest VmRSS seen.
async fn play(server: &Server, table: &mut Table, decisions: u64) -> (Vec<Window>, f64) {
    let mut dice = 0x9E37_79B9_7F4A_7C15_u64;
    let mut windows: Vec<Window> = Vec::new();
    let mut rss_max = server.rss_mib();
    for decision in 0..decisions {
        if table.held["outcome"].is_object() {
            println!(
                "the game ended after {decision} decisions: {}",
                table.held["outcome"]
            );
            break;
        }
        if decision == 10 || decision + WINDOW == decisions {
            windows.push(Window {
                from: decision,
                cpu: server.cpu(),
                bytes: 0,
                moves: 0,
            });
        }
        let bytes = table.play(&mut dice).await;
        if let Some(window) = windows.last_mut().filter(|w| w.moves < WINDOW) {
            window.bytes += bytes;
            window.moves += 1;
            if window.moves == WINDOW {
                window.cpu = server.cpu() - window.cpu;
            }
        }
        if decision % 1000 == 0 {
            rss_max = rss_max.max(server.rss_mib());
        }
    }
    (windows, rss_max)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [decisions, game, options] = args.as_slice() else {
        panic!("expected DECISIONS GAME OPTIONS_JSON (see the example's doc comment)");
    };
    let decisions: u64 = decisions.parse().expect("DECISIONS: a number");
    let options: Value = serde_json::from_str(options).expect("OPTIONS_JSON: a JSON object");
    let game = game.as_str();
    let server = match std::env::var_os("LUDUS_SERVE") {
        Some(binary) => Server::Spawned(Serve::start(&binary)),
        None => Server::Here(BackgroundServer::start(Config::default()).expect("server starts")),
    };
    let rss_start = server.rss_mib();
    let started = Instant::now();
    let mut table = open(&server, game, &options).await;
    let (windows, rss_max) = play(&server, &mut table, decisions).await;
    let http = reqwest::Client::new();
    let work = json_of(http.get(format!("{}/api/games/{}/work", table.base, table.id))).await;
    println!(
        "{game} {options}: {} turns in {:.1} s; {} VmRSS {rss_start:.1} MiB at the start, {:.1} at most, {:.1} at the end",
        table.held["history"].as_array().map_or(0, Vec::len),
        started.elapsed().as_secs_f64(),
        match server {
            Server::Here(_) => "process (server and clients)",
            Server::Spawned(_) => "server",
        },
        rss_max.max(server.rss_mib()),
        server.rss_mib()
    );
    for window in windows.iter().filter(|w| w.moves == WINDOW) {
        println!(
            "decisions {}..{}: server CPU {:.1} µs per move, frame {:.0} bytes per move per socket",
            window.from,
            window.from + window.moves,
            window.cpu * 1e6 / window.moves as f64,
            window.bytes as f64 / window.moves as f64
        );
    }
    println!("work counted by the server: {work}");
}
