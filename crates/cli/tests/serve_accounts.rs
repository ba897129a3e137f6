//! Accounts through the real binary: with every request logged at the most detailed level,
//! a sign-up, a failed sign-in and a password change leave no password (and no session
//! secret) in the log, in any answer, or in the database's files after the server stops.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;

use support::{host_of, serve_with};

/// A plain HTTP/1.0 POST from the server's own page; the whole answer (head and body).
fn post(host: &str, path: &str, body: &str, cookie: Option<&str>) -> String {
    let mut stream = TcpStream::connect(host).expect("the server listens");
    let cookie = cookie.map_or_else(String::new, |c| format!("Cookie: {c}\r\n"));
    write!(
        stream,
        "POST {path} HTTP/1.0\r\nHost: {host}\r\nOrigin: http://{host}\r\n{cookie}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// The `name=value` of the answer's session cookie.
fn session_of(answer: &str) -> String {
    let line = answer
        .lines()
        .find(|l| {
            l.to_ascii_lowercase()
                .starts_with("set-cookie: ludus_session=")
        })
        .unwrap_or_else(|| panic!("a session cookie in {answer}"));
    line["set-cookie: ".len()..]
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn no_password_reaches_the_log_the_answers_or_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut server = serve_with("127.0.0.1:0", &db, &["--log", "trace"]);
    let host = host_of(&mut server);
    let (first, second, wrong) = (
        "first-Secret-9731",
        "second-Secret-4420",
        "wrong-Secret-5518",
    );
    let mut answers = String::new();
    let signed_up = post(
        &host,
        "/api/account/signup",
        &format!(r#"{{"name":"ana","password":"{first}"}}"#),
        None,
    );
    assert!(signed_up.starts_with("HTTP/1.0 201"), "{signed_up}");
    let cookie = session_of(&signed_up);
    answers.push_str(&signed_up);
    answers.push_str(&post(
        &host,
        "/api/account/signin",
        &format!(r#"{{"name":"ana","password":"{wrong}"}}"#),
        None,
    ));
    let changed = post(
        &host,
        "/api/account/password",
        &format!(r#"{{"current":"{first}","new":"{second}"}}"#),
        Some(&cookie),
    );
    assert!(changed.starts_with("HTTP/1.0 200"), "{changed}");
    answers.push_str(&changed);
    let term = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let output = server.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(
        log.contains("/api/account/signin"),
        "requests are logged: {log}"
    );
    let secret = cookie.split('=').nth(1).unwrap();
    for needle in [first, second, wrong, secret] {
        assert!(!log.contains(needle), "'{needle}' in the log: {log}");
        assert!(
            !answers.contains(needle) || needle == secret,
            "'{needle}' in an answer: {answers}"
        );
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            assert!(
                !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
                "'{needle}' in the database's files"
            );
        }
    }
}
