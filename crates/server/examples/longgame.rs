//! Measures what one move costs the server early and late in a long game: server CPU per
//! move and the bytes of the frame each socket is sent, over a window of moves at the start
//! and one after `DECISIONS` decisions. Numbers go to `docs/SCALING.md`.
//!
//! ```sh
//! cargo run -p ludus-server --example longgame --release -- [DECISIONS] [GAME] [OPTIONS_JSON]
//! ```
//!
//! Defaults: 10,000 decisions of Splut! for four on the 25-board without turn limit, four
//! human seats each playing random legal decisions over its own WebSocket (as `ludus
//! loadtest` does). The server runs in this process on its own threads; the clients run on
//! the main thread alone, so the server's CPU is what its other threads ran (their
//! `/proc/self/task/*/schedstat`, Linux only). Threads that ended inside a window are not
//! counted: the server's threads live as long as it does.

use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use ludus_server::{BackgroundServer, Config};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Moves per measured window.
const WINDOW: u64 = 200;

/// Nanoseconds a thread ran, from its `schedstat` (the scheduler's own count: finer than
/// the 10 ms ticks of `stat`).
fn ran_ns(path: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Seconds of CPU the server's threads (every thread but this one) ran so far.
fn server_cpu() -> f64 {
    let all: u64 = std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .flatten()
                .map(|t| ran_ns(&format!("{}/schedstat", t.path().display())))
                .sum()
        })
        .unwrap_or(0);
    all.saturating_sub(ran_ns("/proc/thread-self/schedstat")) as f64 / 1e9
}

fn vm_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
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
    cpu: f64,
    bytes: usize,
    moves: u64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let decisions: u64 = args
        .first()
        .map_or(10_000, |n| n.parse().expect("DECISIONS"));
    let game = args.get(1).map_or("splut", String::as_str);
    let options: Value = args.get(2).map_or_else(
        || json!({"players": 4, "size": 25, "max_turns": 0, "repetition": 0}),
        |o| serde_json::from_str(o).expect("OPTIONS_JSON"),
    );
    let server = BackgroundServer::start(Config::default()).expect("server starts");
    let base = format!("http://{}", server.addr());
    let http = reqwest::Client::new();
    let created: Value = http
        .post(format!("{base}/api/games"))
        .body(json!({"game": game, "options": options, "players": ["human", "human", "human", "human"], "seed": 1}).to_string())
        .send()
        .await
        .expect("created")
        .json()
        .await
        .expect("JSON");
    let id = created["id"].as_str().expect("an id").to_string();
    let mut sockets = Vec::new();
    for seat in created["seats"].as_array().expect("seats") {
        let token = seat["token"].as_str().expect("a token");
        let url = format!("ws://{}/api/games/{id}/ws?token={token}", server.addr());
        let (mut socket, _) = connect_async(url).await.expect("socket");
        next_delta(&mut socket).await;
        sockets.push(socket);
    }
    let mut held: Value = http
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .expect("snapshot")
        .json()
        .await
        .expect("JSON");
    let mut dice = 0x9E37_79B9_7F4A_7C15_u64;
    let mut windows = Vec::new();
    let mut open: Option<(f64, usize, u64)> = None;
    let started = Instant::now();
    let rss_start = vm_rss_mib();
    let mut rss_max = rss_start;
    for decision in 0..decisions {
        if held["outcome"].is_object() {
            println!(
                "the game ended after {decision} decisions: {}",
                held["outcome"]
            );
            break;
        }
        if decision == 10 || decision + WINDOW == decisions {
            open = Some((server_cpu(), 0, 0));
        }
        let seat = held["to_move"].as_u64().expect("a seat") as usize;
        let legal = held["legal"].as_array().expect("legal");
        let (state, value) = ludus_engine::splitmix64(dice);
        dice = state;
        let pick = legal[(value % legal.len() as u64) as usize].clone();
        let frame = json!({"type": "move", "move": pick, "seq": held["seq"]});
        sockets[seat - 1]
            .send(Message::text(frame.to_string()))
            .await
            .expect("sent");
        let mut bytes = 0;
        for (i, socket) in sockets.iter_mut().enumerate() {
            let (delta, size) = next_delta(socket).await;
            if i == seat - 1 {
                held = if delta["type"] == "delta" {
                    ludus_server::frames::apply_delta(&held, &delta).expect("a delta that follows")
                } else {
                    delta
                };
                bytes = size;
            }
        }
        if let Some((cpu, sum, moves)) = &mut open {
            *sum += bytes;
            *moves += 1;
            if *moves == WINDOW {
                windows.push((
                    decision + 1 - WINDOW,
                    Window {
                        cpu: server_cpu() - *cpu,
                        bytes: *sum,
                        moves: *moves,
                    },
                ));
                open = None;
            }
        }
        if decision % 1000 == 0 {
            rss_max = rss_max.max(vm_rss_mib());
        }
    }
    let work: Value = http
        .get(format!("{base}/api/games/{id}/work"))
        .send()
        .await
        .expect("work")
        .json()
        .await
        .expect("JSON");
    println!(
        "{game} {options}: {} decisions in {:.1} s; process VmRSS {rss_start:.1} MiB at the start, {:.1} at most, {:.1} at the end",
        held["history"].as_array().map_or(0, Vec::len),
        started.elapsed().as_secs_f64(),
        rss_max.max(vm_rss_mib()),
        vm_rss_mib()
    );
    for (from, window) in &windows {
        println!(
            "decisions {from}..{}: server CPU {:.1} µs per move, frame {:.0} bytes per move per socket",
            from + window.moves,
            window.cpu * 1e6 / window.moves as f64,
            window.bytes as f64 / window.moves as f64
        );
    }
    println!("work counted by the server: {work}");
}
