//! What a server facing strangers needs besides the games: security headers on every
//! answer, the `Host` allow-list against DNS rebinding, and allowed origins checked when the
//! server binds (a wildcard used to panic on the first request).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use ludus_server::{BackgroundServer, Config, Server};
use reqwest::StatusCode;
use serde_json::Value;

use crate::support::{assert_error, Api};

/// A raw HTTP/1.0 `GET path` naming `host` in `Host`: the status, the lower-cased head and
/// the body. Raw, because HTTP clients set `Host` from the URL.
fn get_as(addr: SocketAddr, host: &str, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    (status, head.to_lowercase(), body.to_string())
}

/// The value of header `name` (lower case) in a lower-cased head.
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
        .map(str::trim)
}

#[test]
fn every_answer_carries_the_security_headers() {
    let api = Api::start();
    let addr = api.server.addr();
    let host = addr.to_string();
    for path in [
        "/",
        "/app.js",
        "/api/meta",
        "/api/games/nosuchgame",
        "/nosuchfile",
    ] {
        let (status, head, _) = get_as(addr, &host, path);
        assert!(status == 200 || status == 404, "{path}: {status}");
        assert_eq!(
            header(&head, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            header(&head, "referrer-policy"),
            Some("no-referrer"),
            "{path}"
        );
        assert_eq!(header(&head, "x-frame-options"), Some("deny"), "{path}");
        assert_eq!(
            header(&head, "cross-origin-opener-policy"),
            Some("same-origin"),
            "{path}"
        );
        let policy = header(&head, "content-security-policy").unwrap_or_default();
        for directive in [
            "default-src 'self'",
            "script-src 'self';",
            "frame-ancestors 'none'",
            &format!("connect-src 'self' ws://{host} wss://{host}"),
        ] {
            assert!(
                policy.contains(directive),
                "{path}: {directive} in {policy}"
            );
        }
    }
}

#[test]
fn the_page_has_no_inline_script_for_the_policy_to_block() {
    let api = Api::start();
    let addr = api.server.addr();
    let (status, _, page) = get_as(addr, &addr.to_string(), "/");
    assert_eq!(status, 200);
    for script in page.split("<script").skip(1) {
        let tag = script.split('>').next().unwrap_or_default();
        assert!(tag.contains("src="), "an inline script: <script{tag}>");
    }
    assert_eq!(get_as(addr, &addr.to_string(), "/theme-first.js").0, 200);
}

#[test]
fn a_foreign_host_name_is_refused_and_loopback_and_allowed_names_served() {
    let api = Api::with(Config {
        allowed_hosts: vec!["games.example.org".to_string()],
        ..Config::default()
    });
    let addr = api.server.addr();
    let port = addr.port();
    for good in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
        "games.example.org".to_string(),
        format!("games.example.org:{port}"),
    ] {
        assert_eq!(get_as(addr, &good, "/api/meta").0, 200, "{good}");
    }
    // A rebinding page: its own name, resolved to this server's address.
    for evil in [
        "evil.example",
        "evil.example:8080",
        "127.0.0.1.evil.example",
    ] {
        let (status, head, body) = get_as(addr, evil, "/api/meta");
        assert_eq!(status, 421, "{evil}: {body}");
        let error: Value = serde_json::from_str(&body).unwrap();
        let message = error["error"].as_str().unwrap();
        assert!(message.contains("--allow-host"), "{message}");
        assert!(!message.contains('\n'), "{message}");
        assert_eq!(header(&head, "x-frame-options"), Some("deny"), "{evil}");
    }
}

#[test]
fn a_wildcard_or_a_path_is_no_origin_and_the_server_refuses_to_start() {
    for bad in [
        "*",
        "https://example.org/",
        "example.org",
        "https://*.example.org",
    ] {
        let config = Config {
            allowed_origins: vec![bad.to_string()],
            ..Config::default()
        };
        let error = BackgroundServer::start(config).expect_err(bad).to_string();
        assert!(error.starts_with("bad origin"), "{bad}: {error}");
        assert!(error.contains("scheme://host[:port]"), "{error}");
    }
    let config = Config {
        allowed_hosts: vec!["*.example.org".to_string()],
        ..Config::default()
    };
    let error = BackgroundServer::start(config).expect_err("wildcard host");
    assert!(error.to_string().starts_with("bad host"), "{error}");
}

#[tokio::test]
async fn a_server_with_good_origins_binds_and_serves_them() {
    let config = Config {
        allowed_origins: vec![
            "https://example.org".to_string(),
            "http://localhost:3000".to_string(),
        ],
        ..Config::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let status =
        tokio::task::spawn_blocking(move || get_as(addr, &addr.to_string(), "/api/meta").0)
            .await
            .unwrap();
    assert_eq!(status, 200);
    let from = |origin: &'static str| {
        tokio::task::spawn_blocking(move || {
            let mut stream = TcpStream::connect(addr).unwrap();
            write!(
                stream,
                "GET /api/meta HTTP/1.0\r\nHost: {addr}\r\nOrigin: {origin}\r\n\r\n"
            )
            .unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            answer.to_lowercase()
        })
    };
    let allowed = from("https://example.org").await.unwrap();
    assert_eq!(allowed.split(' ').nth(1), Some("200"), "{allowed}");
    assert_eq!(
        header(&allowed, "access-control-allow-origin"),
        Some("https://example.org"),
        "{allowed}"
    );
    let foreign = from("https://elsewhere.example").await.unwrap();
    assert_eq!(foreign.split(' ').nth(1), Some("403"), "{foreign}");
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test]
async fn healthz_answers_while_the_database_answers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let api = Api::with(Config {
        db: Some(path.clone()),
        ..Config::default()
    });
    let (status, body) = api.get("/healthz").await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, serde_json::json!({"ok": true}))
    );
    // The file gone from under the server (a volume unmounted, say).
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    let answer = api.get("/healthz").await;
    assert_error(&answer, StatusCode::SERVICE_UNAVAILABLE, "unhealthy");
}
