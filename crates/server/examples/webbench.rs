//! Measures what a person waits for, apart from moves under load: the page's first load and
//! a computer's reply time against its budget. Numbers go to `docs/WEB.md`. Moves per
//! second, move latency and memory per game under load are `ludus-loadtest`'s job
//! (docs/SCALING.md).
//!
//! ```sh
//! cargo run -p ludus-server --features bench-examples --example webbench --release -- [--url URL]
//! ```
//!
//! Without `--url` it starts a server in the same process (sharing the machine's cores with
//! the clients, as a server on the same machine would).

use std::collections::BTreeSet;
use std::time::Instant;

use futures_util::StreamExt;
use ludus_games::GAMES;
use ludus_server::{BackgroundServer, Config};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// `--url URL`: a running server instead of one started here.
fn url_option() -> Option<String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => None,
        [flag, url] if flag == "--url" => Some(url.trim_end_matches('/').to_string()),
        _ => panic!("expected no argument or --url URL"),
    }
}

#[tokio::main]
async fn main() {
    let url = url_option();
    let local = url
        .is_none()
        .then(|| BackgroundServer::start(Config::default()).expect("server starts"));
    let base = url.unwrap_or_else(|| {
        let server = local.as_ref().expect("a local server");
        format!("http://{}", server.addr())
    });
    println!("server: {base}");
    page_load(&base).await;
    for (spec, budget_ms) in [("ai:1", 0), ("ai:4:time=0.2", 200), ("ai:4:time=1", 1000)] {
        computer_reply(&base, spec, budget_ms).await;
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

/// A xorshift step: the computer-reply games' moves, reproducible without a dependency.
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
