//! Clocks: the snapshot carries each seat's remaining time; the mover's time runs, the other
//! seat's stands still, and no clock runs before an invited person has come; a seat whose time runs out loses; bad clocks are refused; the times
//! survive a restart (and do not run while the server is down).

use std::time::Duration;

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, Api};

async fn clocked(api: &Api, initial_ms: u64) -> (String, Vec<String>) {
    let body = json!({"game": "replica", "clock": {"initial_ms": initial_ms, "increment_ms": 100}});
    let (status, created) = api.post("/api/games", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    (created["id"].as_str().unwrap().to_string(), tokens)
}

fn remaining(snapshot: &Value, seat: usize) -> i64 {
    snapshot["clock"]["remaining_ms"][seat].as_i64().unwrap()
}

#[tokio::test]
async fn the_seat_whose_time_runs_out_loses() {
    let api = Api::start();
    let (id, tokens) = clocked(&api, 700).await;
    let start = api.snapshot(&id).await;
    assert_eq!(start["clock"]["running"], 1, "{start}");
    let body = json!({"token": tokens[0], "move": "b4-c5", "seq": 0});
    let (status, after) = api.post(&format!("/api/games/{id}/moves"), &body).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["clock"]["running"], 2);
    let first = remaining(&after, 0);
    assert!(
        first > 700 && first <= 800,
        "seat 1 got its increment: {first}"
    );

    let over = api.wait_for(&id, |s| !s["outcome"].is_null()).await;
    assert_eq!(over["outcome"]["winner"], 1, "seat 2 flagged: {over}");
    assert_eq!(
        over["outcome"]["reason"], "Black ran out of time",
        "a flag says time, not resignation: {over}"
    );
    assert_eq!(remaining(&over, 0), first, "seat 1's clock stood still");
    assert!(remaining(&over, 1) <= 0, "{over}");
    assert_eq!(over["clock"]["running"], Value::Null);
}

#[tokio::test]
async fn no_clock_runs_until_the_invited_person_comes() {
    let api = Api::start();
    let body = json!({"game": "replica", "invite": [2],
                      "clock": {"initial_ms": 60_000, "increment_ms": 0}});
    let (status, created) = api.post("/api/games", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let waiting = api.snapshot(&id).await;
    assert_eq!(waiting["clock"]["running"], Value::Null, "{waiting}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = api.snapshot(&id).await;
    assert_eq!(
        remaining(&later, 0),
        60_000,
        "the creator's time stood still"
    );
    let invite = created["invites"][0]["invite"].as_str().unwrap();
    let claim = json!({"seat": 2, "invite": invite});
    let (status, claimed) = api.post(&format!("/api/games/{id}/claim"), &claim).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    let playing = api.snapshot(&id).await;
    assert_eq!(playing["clock"]["running"], 1, "{playing}");
}

#[tokio::test]
async fn bad_clocks_are_refused() {
    let api = Api::start();
    for clock in [
        json!({"initial_ms": 0}),
        json!({"initial_ms": 1_000_000_000_000u64}),
    ] {
        let body = json!({"game": "replica", "clock": clock});
        let answer = api.post("/api/games", &body).await;
        assert_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "clock");
    }
    let typo = json!({"game": "replica", "clock": {"initial": 5}});
    assert_eq!(
        api.post("/api/games", &typo).await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn clock_times_survive_a_restart_and_stand_still_while_down() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    let (id, tokens) = clocked(&api, 60_000).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let body = json!({"token": tokens[0], "move": "b4-c5", "seq": 0});
    let (_, after) = api.post(&format!("/api/games/{id}/moves"), &body).await;
    let first = remaining(&after, 0);
    assert!(
        first < 60_000 - 200 + 100,
        "seat 1 spent its thinking time: {first}"
    );
    drop(api);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let api = Api::with(config());
    let back = api.snapshot(&id).await;
    assert_eq!(remaining(&back, 0), first, "{back}");
    assert!(
        remaining(&back, 1) > 60_000 - 300,
        "the server's downtime is not charged: {back}"
    );
    assert_eq!(back["seq"], after["seq"]);
    assert_eq!(back["clock"]["running"], 2);
}
