//! `ludus admin` against the database of a running `ludus serve`: a backup taken while games
//! are being played holds every decision acknowledged before it began and replays through
//! the rules, and a server started on the copy serves those games (the restore); accounts
//! listed, closed, opened again and given a new password.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use support::{host_of, serve_with, Spawned};

/// A plain HTTP/1.0 request from the server's own page; status and JSON body.
fn request(host: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(host).expect("the server listens");
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("null");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn admin(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["admin", "--db"])
        .arg(db)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A game between two people: its id and the two seats' tokens.
fn new_game(host: &str) -> (String, [String; 2]) {
    let (status, made) = request(
        host,
        "POST",
        "/api/games",
        r#"{"game":"replica","players":["human","human"]}"#,
    );
    assert_eq!(status, 201, "{made}");
    let token = |i: usize| made["seats"][i]["token"].as_str().unwrap().to_string();
    (
        made["id"].as_str().unwrap().to_string(),
        [token(0), token(1)],
    )
}

/// Plays the first legal move of game `id`; answers the seq it acknowledged, or `None` once
/// the game is over.
fn play_one(host: &str, id: &str, tokens: &[String; 2]) -> Option<u64> {
    let (_, snapshot) = request(host, "GET", &format!("/api/games/{id}"), "");
    let seat = snapshot["to_move"].as_u64()?;
    let body = json!({"token": tokens[seat as usize - 1], "move": snapshot["legal"][0], "seq": snapshot["seq"]});
    let (status, answer) = request(
        host,
        "POST",
        &format!("/api/games/{id}/moves"),
        &body.to_string(),
    );
    assert_eq!(status, 200, "{answer}");
    answer["seq"].as_u64()
}

/// Plays `rounds` moves in each game; answers the last seq each game acknowledged.
fn play_rounds(host: &str, games: &[(String, [String; 2])], rounds: usize) -> Vec<u64> {
    let mut acknowledged = vec![0_u64; games.len()];
    for _ in 0..rounds {
        for (index, (id, tokens)) in games.iter().enumerate() {
            if let Some(seq) = play_one(host, id, tokens) {
                acknowledged[index] = seq;
            }
        }
    }
    acknowledged
}

/// Asserts that the copy at `copy` passes `check` and holds every decision acknowledged in
/// `games` before it was taken (`acknowledged`, each game's last seq).
fn assert_holds(copy: &Path, games: &[(String, [String; 2])], acknowledged: &[u64]) {
    let check = admin(copy, &["--json", "check"]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let listed = admin(copy, &["--json", "games"]);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    for ((id, _), before) in games.iter().zip(acknowledged) {
        let line = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .unwrap();
        assert!(
            line["changes"].as_u64().unwrap() >= *before,
            "{line} lost decisions acknowledged before the copy ({before})"
        );
    }
}

fn stop(mut child: Spawned) {
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    child.wait().unwrap();
}

#[test]
fn a_backup_taken_under_play_holds_every_acknowledged_decision_and_restores() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut server = serve_with("127.0.0.1:0", &db, &["--actions-per-second", "0"]);
    let host = host_of(&mut server);
    let games: Vec<_> = (0..8).map(|_| new_game(&host)).collect();
    let acknowledged = play_rounds(&host, &games, 5);
    // Play goes on while the backup is taken.
    let playing = Arc::new(AtomicBool::new(true));
    let player = {
        let (host, games, playing) = (host.clone(), games.clone(), Arc::clone(&playing));
        std::thread::spawn(move || {
            while playing.load(Ordering::Relaxed) {
                for (id, tokens) in &games {
                    play_one(&host, id, tokens);
                }
            }
        })
    };
    let copy = dir.path().join("backup.sqlite3");
    let backup = admin(&db, &["backup", copy.to_str().unwrap()]);
    assert!(
        backup.status.success(),
        "{}",
        String::from_utf8_lossy(&backup.stderr)
    );
    playing.store(false, Ordering::Relaxed);
    player.join().unwrap();
    stop(server);
    assert_holds(&copy, &games, &acknowledged);
    // Restoring is starting a server on the copy.
    let mut restored = serve_with("127.0.0.1:0", &copy, &[]);
    let host = host_of(&mut restored);
    for ((id, _), before) in games.iter().zip(&acknowledged) {
        let (status, snapshot) = request(&host, "GET", &format!("/api/games/{id}"), "");
        assert_eq!(status, 200);
        assert!(snapshot["seq"].as_u64().unwrap() >= *before);
    }
    stop(restored);
    let refused = admin(&db, &["backup", copy.to_str().unwrap()]);
    assert!(
        !refused.status.success(),
        "an existing file is never overwritten"
    );
}

#[test]
fn a_compacted_copy_taken_while_the_server_runs_holds_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut server = serve_with("127.0.0.1:0", &db, &["--actions-per-second", "0"]);
    let host = host_of(&mut server);
    let games: Vec<_> = (0..3).map(|_| new_game(&host)).collect();
    let acknowledged = play_rounds(&host, &games, 4);
    let copy = dir.path().join("compact.sqlite3");
    let compacted = admin(&db, &["--json", "compact", copy.to_str().unwrap()]);
    assert!(
        compacted.status.success(),
        "{}",
        String::from_utf8_lossy(&compacted.stderr)
    );
    let said: Value = serde_json::from_slice(&compacted.stdout).unwrap();
    assert_eq!(
        said["bytes"].as_u64(),
        Some(std::fs::metadata(&copy).unwrap().len())
    );
    stop(server);
    assert_holds(&copy, &games, &acknowledged);
    let refused = admin(&db, &["compact", copy.to_str().unwrap()]);
    assert!(!refused.status.success(), "an existing file is kept");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("exists"), "{said}");
}

#[test]
fn accounts_are_listed_closed_opened_and_given_a_new_password() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut server = serve_with("127.0.0.1:0", &db, &[]);
    let host = host_of(&mut server);
    let signup = r#"{"name":"ana","password":"first password"}"#;
    assert_eq!(request(&host, "POST", "/api/account/signup", signup).0, 201);
    let users = admin(&db, &["--json", "users"]);
    let users: Value = serde_json::from_slice(&users.stdout).unwrap();
    assert_eq!(users[0]["name"], "ana");
    assert_eq!(users[0]["banned"], false);
    assert!(admin(&db, &["ban", "ANA"]).status.success());
    // The running server refuses it (sign-ins read the database each time).
    assert_eq!(request(&host, "POST", "/api/account/signin", signup).0, 401);
    assert!(admin(&db, &["unban", "ana"]).status.success());
    assert_eq!(request(&host, "POST", "/api/account/signin", signup).0, 200);
    let reset = admin(&db, &["--json", "reset-password", "ana"]);
    assert!(
        reset.status.success(),
        "{}",
        String::from_utf8_lossy(&reset.stderr)
    );
    let reset: Value = serde_json::from_slice(&reset.stdout).unwrap();
    let password = reset["password"].as_str().unwrap();
    assert_eq!(request(&host, "POST", "/api/account/signin", signup).0, 401);
    let new = json!({"name": "ana", "password": password}).to_string();
    assert_eq!(request(&host, "POST", "/api/account/signin", &new).0, 200);
    let missing = admin(&db, &["ban", "nobody"]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no account 'nobody'"));
    stop(server);
}
