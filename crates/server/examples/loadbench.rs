//! Measures the server: the page's first load, API moves per second with scripted clients
//! playing random legal moves (p50/p99 latency), and a computer's reply time against its
//! budget. Numbers go to `docs/WEB.md`.
//!
//! ```sh
//! cargo run -p ludus-server --example loadbench --release -- [--clients 8] [--seconds 10] [--url URL]
//! ```
//!
//! Without `--url` it starts a server in the same process (sharing the machine's cores with
//! the clients, as a server on the same machine would).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use ludus_games::GAMES;
use ludus_server::{BackgroundServer, Config};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

struct Options {
    clients: usize,
    seconds: f64,
    url: Option<String>,
}

fn options() -> Options {
    let mut options = Options {
        clients: 8,
        seconds: 10.0,
        url: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map_or("", String::as_str);
        match pair[0].as_str() {
            "--clients" => options.clients = value.parse().expect("--clients N"),
            "--seconds" => options.seconds = value.parse().expect("--seconds S"),
            "--url" => options.url = Some(value.trim_end_matches('/').to_string()),
            other => panic!("unknown argument {other}: expected --clients, --seconds or --url"),
        }
    }
    options
}

#[tokio::main]
async fn main() {
    let options = options();
    let local = options
        .url
        .is_none()
        .then(|| BackgroundServer::start(Config::default()).expect("server starts"));
    let base = options.url.clone().unwrap_or_else(|| {
        let server = local.as_ref().expect("a local server");
        format!("http://{}", server.addr())
    });
    println!("server: {base}");
    page_load(&base).await;
    throughput(&base, options.clients, options.seconds).await;
    for (spec, budget_ms) in [("ai:1", 0), ("ai:4:time=0.2", 200), ("ai:4:time=1", 1000)] {
        computer_reply(&base, spec, budget_ms).await;
    }
    if local.is_some() {
        idle_memory(&base, 2000).await;
    }
}

/// The resident memory of this process (the server's when it runs here), in KiB.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Memory per idle game: the resident memory grown by creating `count` games (a person
/// against level 1, one of the five games each), divided by `count`.
async fn idle_memory(base: &str, count: usize) {
    let client = reqwest::Client::new();
    let before = resident_kib();
    for i in 0..count {
        let body = json!({"game": GAMES[i % GAMES.len()].id, "players": ["human", "ai:1"]});
        post(&client, &format!("{base}/api/games"), &body).await;
    }
    if let (Some(before), Some(after)) = (before, resident_kib()) {
        let per_game = after.saturating_sub(before) as f64 / count as f64;
        println!("idle games: {count} created, {per_game:.1} KiB of resident memory each");
    }
}

/// Fetches `/` and everything it loads (stylesheet, modules and their imports, the meta
/// document), level by level in parallel as a browser does, with a fresh client (no cache).
async fn page_load(base: &str) {
    let client = reqwest::Client::new();
    let start = Instant::now();
    let mut seen = BTreeSet::from(["/".to_string()]);
    let mut level = vec!["/".to_string(), "/api/meta".to_string()];
    let (mut files, mut bytes) = (0, 0);
    while !level.is_empty() {
        let fetches = level.iter().map(|path| {
            let client = client.clone();
            let url = format!("{base}{path}");
            async move { client.get(url).send().await.unwrap().text().await.unwrap() }
        });
        let bodies = futures_util::future::join_all(fetches).await;
        let mut next = Vec::new();
        for body in &bodies {
            files += 1;
            bytes += body.len();
            for link in links(body) {
                if seen.insert(link.clone()) {
                    next.push(link);
                }
            }
        }
        level = next;
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    println!(
        "page first load: {files} files, {} KiB, {ms:.1} ms",
        bytes / 1024
    );
}

/// Local files a page or module refers to: `href="/x"`, `src="/x"`, `from "./x.js"`.
fn links(body: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in ["href=\"/", "src=\"/", "from \"./", "from './"] {
        let mut rest = body;
        while let Some(at) = rest.find(marker) {
            rest = &rest[at + marker.len()..];
            let end = rest.find(['"', '\'']).unwrap_or(0);
            let name = &rest[..end];
            if !name.is_empty() && name.contains('.') {
                found.push(format!("/{name}"));
            }
        }
    }
    found
}

/// `clients` scripted clients, each playing whole games of random legal moves (every seat
/// a person) for `seconds`; prints moves per second and latency percentiles.
async fn throughput(base: &str, clients: usize, seconds: f64) {
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|i| tokio::spawn(client_loop(base.to_string(), i as u64 + 1, deadline)))
        .collect();
    let start = Instant::now();
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut games = 0;
    for task in tasks {
        let report = task.await.expect("client runs");
        latencies.extend(report.latencies);
        errors += report.errors;
        games += report.games;
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let rate = latencies.len() as f64 / elapsed;
    println!(
        "API moves: {clients} clients, {} moves in {elapsed:.1} s = {rate:.0} moves/s; \
         latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {games} games finished; {errors} errors",
        latencies.len(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
    );
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[index].as_secs_f64() * 1000.0
}

/// What a bot reads of a snapshot; serde skips the rest (the board, the history) unparsed.
#[derive(Deserialize)]
struct Brief {
    seq: u64,
    to_move: Option<usize>,
    legal: Vec<String>,
    outcome: Option<IgnoredAny>,
}

/// Sends `request`; the snapshot it answers, or `None` for an error answer.
async fn brief(request: reqwest::RequestBuilder) -> Option<Brief> {
    let response = request.send().await.expect("the server answers");
    let ok = response.status().is_success();
    let bytes = response.bytes().await.expect("a body");
    ok.then(|| serde_json::from_slice(&bytes).expect("a snapshot"))
}

struct Report {
    latencies: Vec<Duration>,
    errors: usize,
    games: usize,
}

async fn client_loop(base: String, seed: u64, deadline: Instant) -> Report {
    let client = reqwest::Client::new();
    let mut dice = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut report = Report {
        latencies: Vec::new(),
        errors: 0,
        games: 0,
    };
    while Instant::now() < deadline {
        let game = GAMES[(roll(&mut dice) % GAMES.len() as u64) as usize].id;
        let created: Value = post(
            &client,
            &format!("{base}/api/games"),
            &json!({"game": game}),
        )
        .await
        .1;
        let id = created["id"].as_str().expect("created").to_string();
        let tokens: Vec<String> = created["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["token"].as_str().expect("token").to_string())
            .collect();
        let Some(mut snapshot) = brief(client.get(format!("{base}/api/games/{id}"))).await else {
            report.errors += 1;
            continue;
        };
        while snapshot.outcome.is_none() && Instant::now() < deadline {
            let pick = &snapshot.legal[(roll(&mut dice) % snapshot.legal.len() as u64) as usize];
            let seat = snapshot.to_move.expect("a seat to move");
            let body = json!({"token": tokens[seat - 1], "move": pick, "seq": snapshot.seq});
            let started = Instant::now();
            let request = client
                .post(format!("{base}/api/games/{id}/moves"))
                .body(body.to_string());
            let next = brief(request).await;
            report.latencies.push(started.elapsed());
            let Some(next) = next else {
                report.errors += 1;
                break;
            };
            snapshot = next;
        }
        report.games += usize::from(snapshot.outcome.is_some());
    }
    report
}

async fn post(client: &reqwest::Client, url: &str, body: &Value) -> (bool, Value) {
    let response = client
        .post(url)
        .body(body.to_string())
        .send()
        .await
        .expect("the server answers");
    let ok = response.status().is_success();
    (ok, response.json().await.expect("JSON"))
}

fn roll(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// A person plays each game against `spec` (4 turns each): the time from posting the move
/// that ends the person's turn to the computer's first decision arriving on the WebSocket,
/// against the computer's time budget.
async fn computer_reply(base: &str, spec: &str, budget_ms: u64) {
    let mut ms = Vec::new();
    for info in GAMES {
        ms.extend(replies_in(base, info.id, spec).await);
    }
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let worst = ms.iter().copied().fold(0.0, f64::max);
    println!(
        "computer reply ({spec}, budget {budget_ms} ms, five games): {} replies, mean {mean:.1} ms, \
         max {worst:.1} ms, max over budget {:.1} ms",
        ms.len(),
        worst - budget_ms as f64
    );
}

/// The reply times, in milliseconds, of `spec` in four turns of the game `game`.
async fn replies_in(base: &str, game: &str, spec: &str) -> Vec<f64> {
    let client = reqwest::Client::new();
    let body = json!({"game": game, "players": ["human", spec], "seed": 1});
    let created = post(&client, &format!("{base}/api/games"), &body).await.1;
    let id = created["id"].as_str().expect("created");
    let token = created["seats"][0]["token"].as_str().expect("token");
    let ws = format!(
        "{}/api/games/{id}/ws?token={token}",
        base.replacen("http", "ws", 1)
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(ws).await.expect("socket");
    let mut snapshot = next_snapshot(&mut socket).await;
    let (mut replies, mut dice) = (Vec::new(), 7u64);
    while replies.len() < 4 && snapshot["outcome"].is_null() {
        let legal = snapshot["legal"].as_array().expect("legal");
        let pick = &legal[(roll(&mut dice) % legal.len() as u64) as usize];
        let started = Instant::now();
        let body = json!({"token": token, "move": pick, "seq": snapshot["seq"]});
        post(&client, &format!("{base}/api/games/{id}/moves"), &body).await;
        let mut first = true;
        loop {
            let frame = next_frame(&mut socket).await;
            if frame["type"] == "event" && frame["by"] == "ai" && first {
                replies.push(started.elapsed().as_secs_f64() * 1000.0);
                first = false;
            }
            let settled =
                frame["snapshot"]["to_move"] == 1 || !frame["snapshot"]["outcome"].is_null();
            if frame["type"] == "snapshot" && settled {
                snapshot = frame["snapshot"].clone();
                break;
            }
        }
    }
    replies
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next_frame(socket: &mut Socket) -> Value {
    loop {
        if let Message::Text(text) = socket.next().await.expect("open").expect("frame") {
            return serde_json::from_str(&text).expect("JSON");
        }
    }
}

async fn next_snapshot(socket: &mut Socket) -> Value {
    loop {
        let frame = next_frame(socket).await;
        if frame["type"] == "snapshot" {
            return frame["snapshot"].clone();
        }
    }
}
