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
    // Seat 1's clock runs from the creation to the move's answer, which this test times:
    // what it used is at most that, however slow the machine.
    let created = std::time::Instant::now();
    let (id, tokens) = clocked(&api, 1500).await;
    let start = api.snapshot(&id).await;
    assert_eq!(start["clock"]["running"], 1, "{start}");
    let body = json!({"token": tokens[0], "move": "b4-c5", "seq": 0});
    let (status, after) = api.post(&format!("/api/games/{id}/moves"), &body).await;
    let used = created.elapsed().as_millis() as i64;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["clock"]["running"], 2);
    let first = remaining(&after, 0);
    assert!(
        first >= 1600 - used && first <= 1600,
        "seat 1 got its increment: {first} after at most {used} ms used"
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
    // Seat 2's clock runs from the move on, within what this test times from here.
    let moved = std::time::Instant::now();
    let (_, after) = api.post(&format!("/api/games/{id}/moves"), &body).await;
    let first = remaining(&after, 0);
    assert!(
        first < 60_000 - 200 + 100,
        "seat 1 spent its thinking time: {first}"
    );
    drop(api);
    let down = Duration::from_secs(1);
    tokio::time::sleep(down).await;
    let api = Api::with(config());
    let back = api.snapshot(&id).await;
    let up = moved.elapsed().saturating_sub(down).as_millis() as i64;
    assert_eq!(remaining(&back, 0), first, "{back}");
    assert!(
        60_000 - remaining(&back, 1) <= up,
        "the server's downtime is not charged: {back}, {up} ms up"
    );
    assert_eq!(back["seq"], after["seq"]);
    assert_eq!(back["clock"]["running"], 2);
}

/// Seat 1 `b4-c5`, seat 2 a reply, seat 1 another move, in a game of 60 s + 10 s between two
/// tokens: the game, and seat 1's time as it stood after its first move.
async fn three_clocked_turns(api: &Api) -> (String, Vec<String>, i64) {
    let body = json!({"game": "replica", "clock": {"initial_ms": 60_000, "increment_ms": 10_000}});
    let (status, created) = api.post("/api/games", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    let mut dice = crate::support::Dice(11);
    let mut first_after = 0;
    for turn in 0..3 {
        let snapshot = api.snapshot(&id).await;
        let body = json!({"token": tokens[turn % 2], "move": dice.legal(&snapshot), "seq": snapshot["seq"]});
        let (status, after) = api.post(&format!("/api/games/{id}/moves"), &body).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if turn == 0 {
            first_after = remaining(&after, 0);
        }
    }
    (id, tokens, first_after)
}

/// Seat 2 asks to take back its turn, seat 1 accepts: two turns undone.
async fn take_back_seat_two(api: &Api, id: &str, tokens: &[String]) -> Value {
    let ask = json!({"token": tokens[1], "kind": "takeback"});
    let (status, asked) = api.post(&format!("/api/games/{id}/offer"), &ask).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let yes = json!({"token": tokens[0], "accept": true});
    let (status, answered) = api.post(&format!("/api/games/{id}/answer"), &yes).await;
    assert_eq!(answered["undone"], 2, "{answered}");
    assert_eq!(status, StatusCode::OK);
    api.snapshot(id).await
}

#[tokio::test]
async fn a_takeback_gives_back_the_times_of_the_restored_position_without_increments() {
    let api = Api::start();
    let (id, tokens, first_after) = three_clocked_turns(&api).await;
    let back = take_back_seat_two(&api, &id, &tokens).await;
    assert_eq!(back["moves"].as_array().unwrap().len(), 1, "{back}");
    assert_eq!(back["clock"]["running"], 2, "{back}");
    assert_eq!(
        remaining(&back, 0),
        first_after,
        "seat 1's time as after its first move: {back}"
    );
    assert!(
        remaining(&back, 1) <= 60_000,
        "seat 2's time as before its turn, no increment: {back}"
    );
}

#[tokio::test]
async fn after_a_restart_a_takeback_still_gives_back_the_restored_positions_times() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    let (id, tokens, first_after) = three_clocked_turns(&api).await;
    drop(api);
    let api = Api::with(config());
    let back = take_back_seat_two(&api, &id, &tokens).await;
    assert_eq!(remaining(&back, 0), first_after, "{back}");
    assert!(remaining(&back, 1) <= 60_000, "{back}");
}
