//! `ludus serve` at start on a database in trouble: a torn write-ahead log is reported on
//! stderr with the games it held and the server still serves; a file that is not a
//! database, or a directory, is a one-line error naming the file, and the exit is non-zero;
//! after SIGTERM the database file alone holds every game.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

use support::{host_of, serve_with, Spawned};

fn serve(db: &Path) -> Spawned {
    serve_with("127.0.0.1:0", db, &[])
}

/// A raw HTTP/1.0 request; answers the whole response.
fn send(host: &str, method: &str, path: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(host).expect("the server listens");
    let request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {host}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// The `"id"` of a created game's answer.
fn id_in(answer: &str) -> String {
    let body = answer.split("\r\n\r\n").nth(1).expect("a body");
    let value: serde_json::Value = serde_json::from_str(body).expect("JSON");
    value["id"].as_str().expect("an id").to_string()
}

fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn stops(mut child: Spawned) -> Output {
    child.kill().unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_torn_log_is_reported_naming_its_games_and_the_server_still_serves() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut child = serve(&db);
    let host = host_of(&mut child);
    let ids: Vec<String> = (0..3)
        .map(|_| id_in(&send(&host, "POST", "/api/games", r#"{"game":"replica"}"#)))
        .collect();
    // The files as a power cut would leave them, the log's last 100 bytes never written.
    let cut = tempfile::tempdir().unwrap();
    let copy = cut.path().join("games.sqlite3");
    std::fs::copy(&db, &copy).unwrap();
    let mut wal = std::fs::read(beside(&db, "-wal")).unwrap();
    wal.truncate(wal.len() - 100);
    std::fs::write(beside(&copy, "-wal"), &wal).unwrap();
    stops(child);

    let mut child = serve(&copy);
    let host = host_of(&mut child);
    let kept = send(&host, "GET", &format!("/api/games/{}", ids[0]), "");
    assert!(kept.contains(" 200 "), "the others load: {kept}");
    let lost = send(&host, "GET", &format!("/api/games/{}", ids[2]), "");
    assert!(lost.contains(" 404 "), "its creation was torn off: {lost}");
    let output = stops(child);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let warning = stderr
        .lines()
        .find(|line| line.contains("torn"))
        .unwrap_or_else(|| panic!("no warning: {stderr}"));
    assert!(warning.contains(&copy.display().to_string()), "{warning}");
    assert!(
        warning.contains("may have lost their last decisions"),
        "{warning}"
    );
    // The lost page was the games table's: it carried the rows of the two games kept.
    assert!(
        warning.contains(&ids[0]) && warning.contains(&ids[1]),
        "{warning}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_a_one_line_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("games.sqlite3");
    std::fs::write(&garbage, [0xde_u8; 5000]).unwrap();
    for path in [garbage.as_path(), dir.path()] {
        let output = serve(path).wait_with_output().unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&path.display().to_string()), "{stderr}");
        assert!(!stderr.contains("cannot listen"), "{stderr}");
        assert!(
            stderr.contains("is not a database") || stderr.contains("is a directory"),
            "{stderr}"
        );
    }
}

#[test]
fn after_sigterm_the_database_file_alone_holds_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut child = serve(&db);
    let host = host_of(&mut child);
    let ids: Vec<String> = (0..2)
        .map(|_| id_in(&send(&host, "POST", "/api/games", r#"{"game":"qawale"}"#)))
        .collect();
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let log = std::fs::metadata(beside(&db, "-wal")).map_or(0, |m| m.len());
    assert_eq!(log, 0, "checkpointed on the way out");
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("games.sqlite3");
    std::fs::copy(&db, &copy).unwrap();
    let connection = rusqlite::Connection::open(&copy).unwrap();
    let mut stored: Vec<String> = connection
        .prepare("SELECT id FROM games")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    stored.sort();
    let mut created = ids;
    created.sort();
    assert_eq!(stored, created);
}
