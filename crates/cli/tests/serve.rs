//! `ludus serve` end to end: the first line is the URL of a free port, the page and the API
//! answer there, a taken address is a one-line error, and SIGTERM stops the server cleanly.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `ludus serve` on `addr`, its games in `db` (tests never touch the user's data directory).
fn serve(addr: &str, db: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--addr", addr, "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// A plain HTTP/1.0 GET; answers the whole response.
fn get(host: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(host).expect("the server listens");
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
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
}
