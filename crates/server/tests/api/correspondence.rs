//! Correspondence clocks (`{"days_per_move":N}`): the snapshot gives the kind, the deadline
//! and the time left; the deadline is a wall-clock instant kept across restarts (the same
//! `deadline_ms` after one); a deadline that passed while the server was down is judged when
//! it starts again, as a flag; days other than the allowed ones are refused; such games are
//! rated as correspondence; a player aborts a game before two turns, unrated.

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::people_support::Person;
use crate::support::{assert_error, Api, Created};

const DAY_MS: u64 = 24 * 3600 * 1000;

fn config(dir: &tempfile::TempDir) -> Config {
    Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    }
}

fn unix_ms() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    u64::try_from(now.expect("after 1970").as_millis()).expect("in range")
}

async fn correspondence(api: &Api, days: u64) -> Created {
    api.create(&json!({"game": "replica", "clock": {"days_per_move": days}}))
        .await
}

fn deadline(snapshot: &Value) -> u64 {
    snapshot["clock"]["deadline_ms"]
        .as_u64()
        .unwrap_or_else(|| panic!("a deadline: {snapshot}"))
}

/// Plays seat 1's first move (`b4-c5`); answers the snapshot after it.
async fn first_move(api: &Api, game: &Created) -> Value {
    let before = api.snapshot(&game.id).await;
    let (status, after) = api.play(game, &before, "b4-c5").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    after
}

#[tokio::test]
async fn the_snapshot_gives_the_kind_the_deadline_and_the_time_left() {
    let api = Api::start();
    let before = unix_ms();
    let game = correspondence(&api, 3).await;
    let start = api.snapshot(&game.id).await;
    let clock = &start["clock"];
    assert_eq!(clock["kind"], "correspondence", "{start}");
    assert_eq!(clock["days_per_move"], 3);
    assert_eq!(clock["running"], 1);
    let due = deadline(&start);
    assert!(
        due >= before + 3 * DAY_MS && due <= unix_ms() + 3 * DAY_MS,
        "three days from creation: {start}"
    );
    let left = clock["remaining_ms"][0].as_u64().unwrap();
    let as_of = clock["as_of_ms"].as_u64().unwrap();
    assert_eq!(left, due - as_of, "the time left is up to the deadline");
    let after = first_move(&api, &game).await;
    assert_eq!(after["clock"]["running"], 2, "{after}");
    assert!(deadline(&after) >= due, "seat 2 gets three days of its own");
    // The lists carry the clock too (the home page's "2 d 4 h left").
    let (_, listed) = api.get("/api/games").await;
    let entry = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == game.id.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["clock"]["deadline_ms"], after["clock"]["deadline_ms"]);
}

#[tokio::test]
async fn a_correspondence_game_keeps_its_deadline_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::with(config(&dir));
    let game = correspondence(&api, 2).await;
    let created = deadline(&api.snapshot(&game.id).await);
    drop(api);

    // Before any move: the first deadline was stored with the game.
    let api = Api::with(config(&dir));
    let back = api.snapshot(&game.id).await;
    assert_eq!(deadline(&back), created, "{back}");
    assert_eq!(back["clock"]["running"], 1);
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let after = first_move(&api, &game).await;
    let second = deadline(&after);
    assert!(second > created, "seat 2's own two days: {after}");
    drop(api);

    let api = Api::with(config(&dir));
    let back = api.snapshot(&game.id).await;
    assert_eq!(deadline(&back), second, "the same instant: {back}");
    assert_eq!(back["clock"]["running"], 2);
    assert_eq!(back["seq"], after["seq"]);
    assert!(back["outcome"].is_null());
}

/// Writes `deadline_ms` into the last clock row of game `id` in the database at `path`.
fn set_stored_deadline(path: &std::path::Path, id: &str, deadline_ms: u64) {
    let connection = rusqlite::Connection::open(path).unwrap();
    let (row, arg): (i64, String) = connection
        .query_row(
            "SELECT id, arg FROM changes WHERE game_id = ?1 AND kind = 'clock' ORDER BY id DESC LIMIT 1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let (kept, _) = arg
        .split_once("deadline_ms=")
        .unwrap_or_else(|| panic!("a stored deadline: '{arg}'"));
    let changed = format!("{kept}deadline_ms={deadline_ms}");
    connection
        .execute(
            "UPDATE changes SET arg = ?2 WHERE id = ?1",
            rusqlite::params![row, changed],
        )
        .unwrap();
}

#[tokio::test]
async fn a_deadline_that_passed_while_the_server_was_down_is_judged_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::with(config(&dir));
    let game = correspondence(&api, 1).await;
    let after = first_move(&api, &game).await;
    assert_eq!(after["clock"]["running"], 2);
    drop(api);
    // As if the day had passed while the server was down.
    let path = dir.path().join("games.sqlite3");
    set_stored_deadline(&path, &game.id, unix_ms() - 60_000);

    let api = Api::with(config(&dir));
    let judged = api.snapshot(&game.id).await;
    assert_eq!(
        judged["outcome"]["winner"], 1,
        "seat 2 lost on time: {judged}"
    );
    assert_eq!(judged["outcome"]["reason"], "Black ran out of time");
    assert_eq!(judged["clock"]["running"], Value::Null);
    assert_eq!(
        judged["seq"],
        after["seq"].as_u64().unwrap() + 1,
        "a change"
    );
    let late = json!({"token": game.token(2), "move": "a5-b4", "seq": after["seq"]});
    let (status, _) = api
        .post(&format!("/api/games/{}/moves", game.id), &late)
        .await;
    assert_ne!(status, StatusCode::OK, "no move after the deadline");
    drop(api);

    // The flag was stored: the game stays over after another restart.
    let api = Api::with(config(&dir));
    let again = api.snapshot(&game.id).await;
    assert_eq!(again["outcome"], judged["outcome"], "{again}");
}

#[tokio::test]
async fn days_other_than_the_allowed_ones_are_refused() {
    let api = Api::start();
    for days in [json!(0), json!(4), json!(30), json!(1.5), json!(-1)] {
        let body = json!({"game": "replica", "clock": {"days_per_move": days}});
        let answer = api.post("/api/games", &body).await;
        assert_error(
            &answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            "1, 2, 3, 5, 7, 14",
        );
    }
    let both = json!({"game": "replica", "clock": {"days_per_move": 3, "initial_ms": 60_000}});
    let answer = api.post("/api/games", &both).await;
    assert_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "either");
    for days in [1, 2, 3, 5, 7, 14] {
        correspondence(&api, days).await;
    }
    let ana = Person::sign_up(&api, "Ana").await;
    let seek = json!({"game": "replica", "clock": {"days_per_move": 4}});
    let answer = ana.post("/api/seeks", &seek).await;
    assert_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "1, 2, 3, 5, 7, 14",
    );
}

#[tokio::test]
async fn a_rated_correspondence_game_aborted_before_two_turns_stays_unrated() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let seek = json!({"game": "replica", "rated": true, "clock": {"days_per_move": 7}});
    let (status, posted) = ana.post("/api/seeks", &seek).await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    assert_eq!(posted["seek"]["class"], "correspondence", "{posted}");
    assert_eq!(posted["seek"]["clock"], json!({"days_per_move": 7}));
    let path = format!(
        "/api/seeks/{}/accept",
        posted["seek"]["id"].as_str().unwrap()
    );
    let (status, started) = bob.post(&path, &json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    let id = started["game"].as_str().unwrap();
    let snapshot = api.snapshot(id).await;
    assert_eq!(snapshot["rated"], true);
    assert_eq!(snapshot["clock"]["kind"], "correspondence");

    let token = started["token"].as_str().unwrap();
    let (status, answer) = crate::owner::delete(&api, id, token).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["aborted"], true);
    assert_eq!(
        api.get(&format!("/api/games/{id}")).await.0,
        StatusCode::NOT_FOUND
    );
    let (_, profile) = api.get("/api/players/Bob").await;
    assert_eq!(profile["ratings"], json!([]), "never rated: {profile}");
    let (_, mine) = ana.get("/api/account/games").await;
    assert_eq!(mine["games"], json!([]), "{mine}");
}

#[tokio::test]
async fn a_player_aborts_only_before_two_turns_and_only_a_game_in_progress() {
    let api = Api::start();
    let (status, created) = api
        .post("/api/games", &json!({"game": "replica", "invite": [2]}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let first = created["seats"][0]["token"].as_str().unwrap();
    let claim = json!({"seat": 2, "invite": created["invites"][0]["invite"]});
    let (_, claimed) = api.post(&format!("/api/games/{id}/claim"), &claim).await;
    let second = claimed["token"].as_str().unwrap().to_string();
    let tokens = [first.to_string(), second];
    let mut dice = crate::support::Dice(5);
    for token in &tokens {
        let snapshot = api.snapshot(id).await;
        let body = json!({"token": token, "move": dice.legal(&snapshot), "seq": snapshot["seq"]});
        let (status, after) = api.post(&format!("/api/games/{id}/moves"), &body).await;
        assert_eq!(status, StatusCode::OK, "{after}");
    }
    let refused = crate::owner::delete(&api, id, &tokens[1]).await;
    assert_error(&refused, StatusCode::FORBIDDEN, "2 turns were played");
    assert_error(&refused, StatusCode::FORBIDDEN, "resign");
    // One turn taken back: fewer than two again, and the other player aborts.
    let ask = json!({"token": tokens[1], "kind": "takeback"});
    api.post(&format!("/api/games/{id}/offer"), &ask).await;
    let yes = json!({"token": tokens[0], "accept": true});
    let (status, _) = api.post(&format!("/api/games/{id}/answer"), &yes).await;
    assert_eq!(status, StatusCode::OK);
    let (status, aborted) = crate::owner::delete(&api, id, &tokens[0]).await;
    assert_eq!(status, StatusCode::OK, "{aborted}");
    assert_eq!(aborted, json!({"deleted": id, "aborted": true}));
}
