//! Games survive `kill -9`: `ludus serve` runs as a child process on a temporary database
//! while a client plays random legal moves through the API; the server is killed at random
//! moments and started again, and every game must be exactly what the client was last told
//! (or one decision further, when the kill fell between storing a move and answering it).
//! Also: a damaged stored game is reported by id and skipped, and `--export` writes records
//! that `ludus replay` reads.

mod restart {
    pub mod client;
}
mod support;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use restart::client::{request, Rng, Served};
use serde_json::{json, Value};

/// What the client was told about a game: its tokens, and the last acknowledged snapshot's
/// `seq` and `position`; `in_flight` while a move awaits its answer.
#[derive(Clone, Debug)]
struct Told {
    tokens: Vec<String>,
    seq: u64,
    position: String,
    over: bool,
    in_flight: bool,
}

type Ledger = Arc<Mutex<HashMap<String, Told>>>;

const GAMES: [&str; 3] = ["qawale", "replica", "yoxii"];

fn create(host: &str, game: &str) -> Option<(String, Told)> {
    let (status, body) = request(host, "POST", "/api/games", Some(&json!({"game": game})))?;
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let tokens = body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    let told = Told {
        tokens,
        seq: 0,
        position: String::new(),
        over: false,
        in_flight: false,
    };
    Some((id, told))
}

fn acknowledge(told: &mut Told, snapshot: &Value) {
    told.seq = snapshot["seq"].as_u64().unwrap();
    told.position = snapshot["position"].as_str().unwrap().to_string();
    told.over = !snapshot["outcome"].is_null();
    told.in_flight = false;
}

/// Plays random legal moves until the server stops answering.
fn play(host: &str, ledger: &Ledger, seed: u64) {
    let mut rng = Rng(seed);
    loop {
        let open: Vec<(String, Told)> = {
            let ledger = ledger.lock().unwrap();
            ledger
                .iter()
                .filter(|(_, t)| !t.over)
                .map(|(i, t)| (i.clone(), t.clone()))
                .collect()
        };
        if open.len() < 2 {
            let Some((id, told)) = create(host, GAMES[rng.below(GAMES.len())]) else {
                return;
            };
            ledger.lock().unwrap().insert(id, told);
            continue;
        }
        let (id, told) = &open[rng.below(open.len())];
        let Some((200, snapshot)) = request(host, "GET", &format!("/api/games/{id}"), None) else {
            return;
        };
        let legal = snapshot["legal"].as_array().unwrap();
        let seat = snapshot["to_move"].as_u64().unwrap() as usize;
        let notation = legal[rng.below(legal.len())].clone();
        let body =
            json!({"token": told.tokens[seat - 1], "move": notation, "seq": snapshot["seq"]});
        ledger.lock().unwrap().get_mut(id).unwrap().in_flight = true;
        match request(host, "POST", &format!("/api/games/{id}/moves"), Some(&body)) {
            Some((200, answer)) => {
                acknowledge(ledger.lock().unwrap().get_mut(id).unwrap(), &answer);
            }
            Some((status, answer)) => panic!("move refused with {status}: {answer}"),
            None => return,
        }
    }
}

/// Every game the client was told about is there, as told (or one stored decision further).
fn check_and_resync(host: &str, ledger: &Ledger) {
    let mut ledger = ledger.lock().unwrap();
    for (id, told) in ledger.iter_mut() {
        let (status, snapshot) = request(host, "GET", &format!("/api/games/{id}"), None).unwrap();
        assert_eq!(status, 200, "game {id} is back: {snapshot}");
        let seq = snapshot["seq"].as_u64().unwrap();
        let position = snapshot["position"].as_str().unwrap();
        if seq == told.seq {
            if !told.position.is_empty() {
                assert_eq!(position, told.position, "game {id} as told");
            }
        } else {
            assert!(
                told.in_flight && seq == told.seq + 1,
                "game {id}: told seq {}, stored {seq}",
                told.seq
            );
        }
        acknowledge(told, &snapshot);
    }
}

#[test]
fn every_acknowledged_decision_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let ledger: Ledger = Arc::default();
    let mut rng = Rng(0x5eed);
    for round in 0..5u64 {
        let served = Served::start(&db);
        check_and_resync(&served.host, &ledger);
        let host = served.host.clone();
        let shared = Arc::clone(&ledger);
        let player = std::thread::spawn(move || play(&host, &shared, round));
        std::thread::sleep(Duration::from_millis(150 + rng.below(500) as u64));
        let stderr = served.kill();
        player.join().unwrap();
        assert!(!stderr.contains("damaged"), "{stderr}");
    }
    let served = Served::start(&db);
    check_and_resync(&served.host, &ledger);
    let moves: u64 = ledger.lock().unwrap().values().map(|t| t.seq).sum();
    assert!(moves > 20, "the client played: {moves} decisions");
    served.kill();
}

/// A database holding a Replica game with one move and a fresh Qawale game: their ids.
fn two_stored_games(db: &Path) -> (String, String) {
    let served = Served::start(db);
    let (good, told) = create(&served.host, "replica").unwrap();
    let body = json!({"token": told.tokens[0], "move": "b4-c5", "seq": 0});
    let path = format!("/api/games/{good}/moves");
    assert_eq!(
        request(&served.host, "POST", &path, Some(&body)).unwrap().0,
        200
    );
    let (other, _) = create(&served.host, "qawale").unwrap();
    served.kill();
    (good, other)
}

fn changes_of(db: &Path, id: &str) -> i64 {
    let connection = rusqlite::Connection::open(db).unwrap();
    connection
        .query_row(
            "SELECT count(*) FROM changes WHERE game_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn a_damaged_game_is_reported_by_id_skipped_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (good, bad) = two_stored_games(&db);
    let connection = rusqlite::Connection::open(&db).unwrap();
    let damage = "INSERT INTO changes (game_id, kind, arg) VALUES (?1, 'move', 'z9')";
    connection.execute(damage, [&bad]).unwrap();
    drop(connection);

    let served = Served::start(&db);
    let status = |id: &str| {
        request(&served.host, "GET", &format!("/api/games/{id}"), None)
            .unwrap()
            .0
    };
    assert_eq!(status(&good), 200);
    assert_eq!(status(&bad), 404);
    let stderr = served.kill();
    assert!(
        stderr.contains(&format!("stored game {bad} is damaged")),
        "{stderr}"
    );
    assert_eq!(
        changes_of(&db, &bad),
        1,
        "the damaged game is left as it was"
    );
}

#[test]
fn export_writes_every_stored_game_as_a_record_replay_reads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (good, _) = two_stored_games(&db);
    let out = dir.path().join("records");
    let export = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--db"])
        .arg(&db)
        .arg("--export")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    assert!(String::from_utf8_lossy(&export.stdout).contains("2 games written"));
    let replay = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("replay")
        .arg(out.join(format!("{good}.json")))
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(String::from_utf8_lossy(&replay.stdout).contains("b4-c5"));
}

/// `POST /api/games/{id}/{route}` that must succeed: its answer.
fn ok(host: &str, id: &str, route: &str, body: &Value) -> Value {
    let (status, answer) = request(
        host,
        "POST",
        &format!("/api/games/{id}/{route}"),
        Some(body),
    )
    .expect("the server answers");
    assert_eq!(status, 200, "{route}: {answer}");
    answer
}

/// A game of `body` with every seat's token.
fn created(host: &str, body: &Value) -> (String, Vec<String>) {
    let (status, answer) = request(host, "POST", "/api/games", Some(body)).unwrap();
    assert_eq!(status, 201, "{answer}");
    let tokens = answer["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    (answer["id"].as_str().unwrap().to_string(), tokens)
}

/// What clients see of a game, leaving out the clocks' "as of" time.
fn seen(host: &str, id: &str) -> Value {
    let (status, mut snapshot) = request(host, "GET", &format!("/api/games/{id}"), None).unwrap();
    assert_eq!(status, 200, "game {id} is back: {snapshot}");
    if let Some(clock) = snapshot.get_mut("clock").and_then(Value::as_object_mut) {
        clock.remove("as_of_ms");
    }
    // Presence is not what clients were told but who is connected now: after a restart every
    // person's seat is away until its socket comes back.
    for seat in snapshot["seats"].as_array_mut().into_iter().flatten() {
        if let Some(seat) = seat.as_object_mut() {
            seat.remove("away");
            seat.remove("claim_from_ms");
        }
    }
    snapshot
}

/// A clocked game whose first seat ran out of time.
fn flagged_game(host: &str) -> String {
    let (flagged, _) = created(
        host,
        &json!({"game": "replica", "clock": {"initial_ms": 200}}),
    );
    for _ in 0..100 {
        if !seen(host, &flagged)["outcome"].is_null() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    flagged
}

/// Games left with something pending or just ended, in this order: a takeback request
/// waiting, a pause (bumps seq without a move), a draw offer one of two others accepted, a
/// draw agreed, a seat flagged. Answers their ids.
fn pending_games(host: &str) -> Vec<String> {
    let (takeback, tokens) = created(host, &json!({"game": "replica"}));
    let body = json!({"token": tokens[0], "move": "b4-c5", "seq": 0});
    ok(host, &takeback, "moves", &body);
    let seq_before = seen(host, &takeback)["seq"].clone();
    ok(
        host,
        &takeback,
        "offer",
        &json!({"token": tokens[0], "kind": "takeback"}),
    );
    assert_eq!(
        seen(host, &takeback)["seq"],
        seq_before,
        "an offer keeps seq"
    );

    let body = json!({"game": "qawale", "players": ["human", "ai:1"]});
    let (status, answer) = request(host, "POST", "/api/games", Some(&body)).unwrap();
    assert_eq!(status, 201, "{answer}");
    let paused = answer["id"].as_str().unwrap().to_string();
    ok(
        host,
        &paused,
        "control",
        &json!({"token": answer["owner"], "paused": true}),
    );

    let (partial, splut) = created(host, &json!({"game": "splut", "options": {"players": 3}}));
    ok(
        host,
        &partial,
        "offer",
        &json!({"token": splut[0], "kind": "draw"}),
    );
    ok(
        host,
        &partial,
        "answer",
        &json!({"token": splut[2], "accept": true}),
    );

    let (drawn, pair) = created(host, &json!({"game": "yoxii"}));
    ok(
        host,
        &drawn,
        "offer",
        &json!({"token": pair[1], "kind": "draw"}),
    );
    ok(
        host,
        &drawn,
        "answer",
        &json!({"token": pair[0], "accept": true}),
    );

    let flagged = flagged_game(host);
    vec![takeback, paused, partial, drawn, flagged]
}

#[test]
fn offers_pauses_draws_and_flags_are_as_told_after_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let served = Served::start(&db);
    let games = pending_games(&served.host);
    let told: Vec<Value> = games.iter().map(|id| seen(&served.host, id)).collect();
    let stderr = served.kill();
    assert!(!stderr.contains("damaged"), "{stderr}");

    let served = Served::start(&db);
    for (id, told) in games.iter().zip(&told) {
        assert_eq!(&seen(&served.host, id), told, "game {id} as told");
    }
    assert_eq!(
        told[0]["offer"],
        json!({"kind": "takeback", "from": 1, "waiting": [2]})
    );
    assert_eq!(
        (&told[1]["paused"], &told[1]["seq"]),
        (&json!(true), &json!(1))
    );
    assert_eq!(
        told[2]["offer"],
        json!({"kind": "draw", "from": 1, "accepted": [3], "waiting": [2]})
    );
    assert_eq!(told[3]["outcome"]["reason"], "draw by agreement");
    assert_eq!(told[4]["outcome"]["reason"], "White ran out of time");
    served.kill();
}
