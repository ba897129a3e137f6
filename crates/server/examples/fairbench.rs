//! Measures how long one person waits for a level-1 reply and a hint while another client
//! floods the server with deep searches and hints. Numbers go to `docs/SCALING.md`.
//!
//! ```sh
//! cargo run -p ludus-server --features bench-examples --example fairbench -- GAME
//! ```
//!
//! `docs/SCALING.md`'s figures name the game they were measured on (the game is an argument,
//! so that no game's id is written outside its folder).
//!
//! A server starts in the same process with the default search slots (one per core). Client A
//! (127.0.0.2) creates four games between `ai:4:time=1` players and keeps six hints asked on
//! one-screen games; client B (127.0.0.3) then plays ten moves against `ai:1` and asks three
//! hints, and the times B waited are printed.

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use ludus_server::{BackgroundServer, Config};
use serde_json::{json, Value};

fn client_from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .build()
        .expect("a client")
}

async fn post(client: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let response = client.post(url).json(body).send().await.expect("an answer");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(url: &str) -> Value {
    reqwest::get(url)
        .await
        .expect("an answer")
        .json()
        .await
        .expect("JSON")
}

/// A keeps hints asked on a one-screen game, one after another.
async fn keep_asking(a: reqwest::Client, base: String, game: String) {
    let body = json!({"game": game, "players": ["human", "human"]});
    let (_, game) = post(&a, &format!("{base}/api/games"), &body).await;
    let url = format!(
        "{base}/api/games/{}/hint",
        game["id"].as_str().unwrap_or_default()
    );
    let token = json!({"token": game["seats"][0]["token"]});
    // Until the server stops; a refused hint (over the client's cap) is asked again soon.
    while let Ok(response) = a.post(&url).json(&token).send().await {
        if !response.status().is_success() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

fn summary(label: &str, mut waits: Vec<Duration>) {
    waits.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = waits.get(waits.len() / 2).copied().unwrap_or_default();
    let worst = waits.last().copied().unwrap_or_default();
    println!(
        "{label}: {} waits, median {:.0} ms, worst {:.0} ms",
        waits.len(),
        ms(median),
        ms(worst)
    );
}

#[tokio::main]
async fn main() {
    let Some(game) = std::env::args().nth(1) else {
        eprintln!("usage: fairbench GAME: expected a game id (ludus games lists them)");
        std::process::exit(2);
    };
    let server = BackgroundServer::start(Config::default()).expect("a server");
    let base = format!("http://{}", server.addr());
    let (a, b) = (client_from(2), client_from(3));
    for _ in 0..4 {
        let body = json!({"game": game, "speed_ms": 0,
                          "players": ["ai:4:time=1", "ai:4:time=1"]});
        post(&a, &format!("{base}/api/games"), &body).await;
    }
    for _ in 0..3 {
        // Two hints at once per game, the most a game allows.
        tokio::spawn(keep_asking(a.clone(), base.clone(), game.clone()));
        tokio::spawn(keep_asking(a.clone(), base.clone(), game.clone()));
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let body = json!({"game": game, "players": ["human", "ai:1"]});
    let (_, game) = post(&b, &format!("{base}/api/games"), &body).await;
    let id = game["id"].as_str().unwrap_or_default().to_string();
    let token = game["seats"][0]["token"].clone();
    let mut replies = Vec::new();
    for _ in 0..10 {
        let snapshot = get(&format!("{base}/api/games/{id}")).await;
        let Some(first) = snapshot["legal"]
            .as_array()
            .and_then(|l| l.first())
            .cloned()
        else {
            break;
        };
        let body = json!({"token": token, "move": first, "seq": snapshot["seq"]});
        let asked = Instant::now();
        post(&b, &format!("{base}/api/games/{id}/moves"), &body).await;
        loop {
            let now = get(&format!("{base}/api/games/{id}")).await;
            if now["to_move"] != 2 && now["thinking"].is_null() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        replies.push(asked.elapsed());
    }
    let mut hints = Vec::new();
    for _ in 0..3 {
        let asked = Instant::now();
        let (status, _) = post(
            &b,
            &format!("{base}/api/games/{id}/hint"),
            &json!({"token": token}),
        )
        .await;
        hints.push(asked.elapsed());
        if status != 200 {
            println!("hint answered {status}");
        }
    }
    summary("B's level-1 replies", replies);
    summary("B's hints (0.5 s searches)", hints);
}
