//! `ludus serve` for self-hosters: bad `--allow-origin` and `--allow-host` values stop it
//! before it binds, `--log info` writes a request log whose lines never hold a token or an
//! invitation and name the client a reverse proxy forwarded (with `--trust-proxy` only), a
//! server on a non-loopback address says how to restrict its host names, and SIGTERM sent as
//! soon as the server says where it listens stops it cleanly.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod support;

use support::{host_of, temp_dir, Spawned};

/// `ludus serve FLAGS` with its database in `dir` (a test's own folder, which the test keeps
/// until the server has stopped).
fn serve(dir: &Path, flags: &[&str]) -> Spawned {
    let db = dir.join(format!(
        "{}.sqlite3",
        flags.join("_").replace(['/', ':', '*', '\''], "")
    ));
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--db"])
        .arg(db)
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Spawned)
        .expect("the binary runs")
}

/// A plain HTTP/1.0 GET to `addr`; the status line.
fn get(addr: &str, path: &str) -> String {
    get_with(addr, path, "")
}

/// A plain HTTP/1.0 GET to `addr` with more header lines (each ending in CRLF); the status line.
fn get_with(addr: &str, path: &str, headers: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("the server listens");
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: {addr}\r\n{headers}\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.lines().next().unwrap_or_default().to_string()
}

/// SIGTERM, then everything the server wrote on stderr.
fn stop(child: Spawned) -> Output {
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    child.wait_with_output().unwrap()
}

#[test]
fn bad_origins_and_hosts_stop_the_server_before_it_listens() {
    let dir = temp_dir("serve-ops", "origins");
    for (flags, needle) in [
        (["--allow-origin", "*"], "bad origin '*'"),
        (["--allow-origin", "https://example.org/"], "no path"),
        (["--allow-host", "*.example.org"], "bad host"),
        (["--allow-host", "http://example.org"], "bad host"),
    ] {
        let mut all = vec!["--addr", "127.0.0.1:0"];
        all.extend(flags);
        let output = serve(dir.path(), &all).wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&output.stdout);
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {err}");
        assert_eq!(out, "", "no URL: it never listened ({flags:?})");
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("error:") && first.contains(needle),
            "{flags:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn the_request_log_names_paths_but_never_tokens_or_invitations() {
    let dir = temp_dir("serve-ops", "log");
    let mut child = serve(dir.path(), &["--addr", "127.0.0.1:0", "--log", "info"]);
    let host = host_of(&mut child);
    let secret = "SECRETf00dfeed";
    let invitation = format!("/g/abc123?seat=2&invite={secret}");
    assert!(get(&host, &invitation).contains(" 200 "));
    let record = format!("/api/games/nosuchgame/record?token={secret}");
    assert!(get(&host, &record).contains(" 404 "));
    let output = stop(child);
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("answered")).collect();
    assert_eq!(lines.len(), 2, "one line per request: {log}");
    assert!(
        lines[0].contains("path=/g/abc123") && lines[0].contains("status=200"),
        "{log}"
    );
    assert!(lines[1].contains("/api/games/nosuchgame/record"), "{log}");
    assert!(
        lines[1].contains("status=404") && lines[1].contains("client=127.0.0.1"),
        "{log}"
    );
    assert!(
        log.contains("method=GET") && log.contains("latency_ms="),
        "{log}"
    );
    assert!(!log.contains(secret), "a secret in the log: {log}");
    assert!(!log.contains("invite=") && !log.contains("token="), "{log}");
}

#[test]
fn behind_a_proxy_the_request_log_names_the_client_it_forwarded() {
    // The proxy appended the last entry; the first is the client's own word. Without
    // --trust-proxy the header is ignored and the log names the TCP peer.
    let forwarded = "X-Forwarded-For: 198.51.100.1, 203.0.113.7\r\n";
    let dir = temp_dir("serve-ops", "proxy");
    for (trust, client) in [(false, "client=127.0.0.1}"), (true, "client=203.0.113.7}")] {
        let mut flags = vec!["--addr", "127.0.0.1:0", "--log", "info"];
        if trust {
            flags.push("--trust-proxy");
        }
        let mut child = serve(dir.path(), &flags);
        let host = host_of(&mut child);
        assert!(get_with(&host, "/healthz", forwarded).contains(" 200 "));
        let output = stop(child);
        let log = String::from_utf8_lossy(&output.stderr);
        let line = log
            .lines()
            .find(|l| l.contains("path=/healthz"))
            .unwrap_or_else(|| panic!("no line for /healthz: {log}"));
        assert!(line.contains(client), "--trust-proxy {trust}: {log}");
        assert!(!log.contains("198.51.100.1"), "{log}");
    }
}

#[test]
fn a_server_on_every_address_says_how_to_restrict_its_host_names() {
    let dir = temp_dir("serve-ops", "hosts");
    let mut child = serve(dir.path(), &["--addr", "0.0.0.0:0"]);
    let _ = host_of(&mut child);
    let output = stop(child);
    let err = String::from_utf8_lossy(&output.stderr);
    let warning: Vec<&str> = err.lines().filter(|l| l.contains("--allow-host")).collect();
    assert_eq!(warning.len(), 1, "{err}");
    assert!(warning[0].contains("any Host name"), "{err}");

    let mut quiet = serve(
        dir.path(),
        &["--addr", "0.0.0.0:0", "--allow-host", "games.example.org"],
    );
    let _ = host_of(&mut quiet);
    let err = String::from_utf8_lossy(&stop(quiet).stderr).into_owned();
    assert!(!err.contains("any Host name"), "{err}");
}

#[test]
fn sigterm_as_soon_as_the_address_is_printed_stops_the_server_cleanly() {
    // Whoever reads the address may stop the server at once (a supervisor, a script): the
    // signal must find its handler installed, not kill the process before it closed its store.
    let dir = temp_dir("serve-ops", "sigterm");
    for round in 0..5 {
        let mut child = serve(dir.path(), &["--addr", "127.0.0.1:0", "--log", "info"]);
        let _ = host_of(&mut child);
        let output = stop(child);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "round {round}: {:?}: {err}",
            output.status
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
