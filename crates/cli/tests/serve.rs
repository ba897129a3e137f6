//! `ludus serve` end to end: the first line is the URL of a free port, the page and the API
//! answer there, a taken address is a one-line error, and SIGTERM stops the server cleanly;
//! the limit, origin, hash-cap and connection flags reach the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod support;

use support::{host_of, serve_with, Spawned};

/// `ludus serve` on `addr`, its games in `db` (tests never touch the user's data directory).
fn serve(addr: &str, db: &Path) -> Spawned {
    serve_with(addr, db, &[])
}

/// A plain HTTP/1.0 GET; answers the whole response.
fn get(host: &str, path: &str) -> String {
    send(
        host,
        &format!("GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n"),
    )
}

/// A plain HTTP/1.0 GET, `None` if the server closed the connection first.
fn try_get(host: &str, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(host).ok()?;
    let request = format!("GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    Some(answer)
}

/// A raw request; answers the whole response.
fn send(host: &str, request: &str) -> String {
    let mut stream = TcpStream::connect(host).expect("the server listens");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn serve_prints_its_url_first_answers_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut child = serve("127.0.0.1:0", &db);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let host = first
        .trim()
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("first line is the URL: {first:?}"));
    assert!(!host.ends_with(":0"), "the real port: {host}");
    let page = get(host, "/");
    assert!(
        page.starts_with("HTTP/1.0 200") || page.starts_with("HTTP/1.1 200"),
        "{page}"
    );
    assert!(page.to_lowercase().contains("content-type: text/html"));
    let meta = get(host, "/api/meta");
    assert!(meta.contains("\"qawale\""), "{meta}");

    let taken = serve(host, &db).wait_with_output().unwrap();
    assert!(!taken.status.success());
    let error = String::from_utf8_lossy(&taken.stderr);
    assert_eq!(error.trim_end().lines().count(), 1, "{error}");
    assert!(error.contains("cannot listen on"), "{error}");

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    loop {
        if let Some(exit) = child.try_wait().unwrap() {
            assert!(exit.success(), "a clean exit: {exit}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "stops on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut told = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut told)
        .unwrap();
    assert!(
        told.contains(&format!("games are kept in {}", db.display())),
        "where the database is: {told}"
    );
    assert!(
        told.contains("this computer only") && told.contains("--addr 0.0.0.0:"),
        "how to let the local network in: {told}"
    );
}

#[test]
fn limit_and_origin_flags_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let flags = [
        "--games-per-client",
        "1",
        "--actions-per-second",
        "0",
        "--grace-seconds",
        "5",
        "--allow-origin",
        "http://friend.example",
    ];
    let mut child = serve_with("127.0.0.1:0", &db, &flags);
    let host = host_of(&mut child);
    let create = |origin: &str| {
        let body = r#"{"game":"replica"}"#;
        send(
            &host,
            &format!(
                "POST /api/games HTTP/1.0\r\nHost: {host}\r\nOrigin: {origin}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    let allowed = create("http://friend.example");
    assert!(
        allowed.starts_with("HTTP/1.0 201") || allowed.starts_with("HTTP/1.1 201"),
        "{allowed}"
    );
    assert!(
        allowed
            .to_lowercase()
            .contains("access-control-allow-origin: http://friend.example"),
        "{allowed}"
    );
    let second = create(&format!("http://{host}"));
    assert!(
        second.contains(" 429 "),
        "one game in progress per client: {second}"
    );
    let foreign = create("http://evil.example");
    assert!(foreign.contains(" 403 "), "{foreign}");
    child.kill().unwrap();
    child.wait().unwrap();

    let bad = serve_with("127.0.0.1:0", &db, &["--grace-seconds=-1"])
        .wait_with_output()
        .unwrap();
    assert!(!bad.status.success());
    let error = String::from_utf8_lossy(&bad.stderr);
    assert!(error.contains("--grace-seconds"), "{error}");
}

#[test]
fn the_hash_cap_flag_reaches_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut child = serve_with("127.0.0.1:0", &db, &["--max-hash-mb", "8"]);
    let host = host_of(&mut child);
    let create = |spec: &str| {
        let body = format!(r#"{{"game":"replica","players":["human","{spec}"]}}"#);
        send(
            &host,
            &format!(
                "POST /api/games HTTP/1.0\r\nHost: {host}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    let refused = create("ai:4:hash=16");
    assert!(refused.contains(" 422 "), "{refused}");
    assert!(refused.contains("expected hash at most 8"), "{refused}");
    let accepted = create("ai:4:hash=8");
    assert!(accepted.contains(" 201 "), "{accepted}");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn connection_flags_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let flags = ["--connections-per-client", "2", "--trust-proxy"];
    let mut child = serve_with("127.0.0.1:0", &db, &flags);
    let host = host_of(&mut child);
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(&host).unwrap()).collect();
    let mut third = TcpStream::connect(&host).unwrap();
    third
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut byte = [0; 1];
    let read = third.read(&mut byte);
    assert!(
        matches!(read, Ok(0))
            || read
                .as_ref()
                .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
        "a third connection is closed at once: {read:?}"
    );
    drop(held);
    let start = Instant::now();
    loop {
        let meta = try_get(&host, "/api/meta").unwrap_or_default();
        if meta.contains("\"qawale\"") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "served again once its connections closed: {meta}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}
