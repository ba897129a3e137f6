//! Connections and WebSockets a client can hold: half-sent requests (slowloris) closed after
//! the header timeout while another client plays, heads past 32 KiB refused, trickled bodies
//! cut, connections on which nothing moves closed after the idle timeout, the caps on
//! connections and WebSockets per client, a WebSocket that stops reading closed while the
//! others keep working, and `X-Forwarded-For` trusted only when told.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use futures_util::future::join_all;
use futures_util::StreamExt;
use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{client_async, WebSocketStream};

use crate::support::{assert_error, connect, next_of, send, Api, Dice};

fn loopback(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

/// An HTTP client whose requests come from `127.0.0.N`.
fn client_from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(loopback(n))
        .build()
        .unwrap()
}

/// A TCP connection from `127.0.0.N` to `addr`.
async fn tcp_from(n: u8, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(loopback(n), 0))?;
    socket.connect(addr).await
}

/// A request begun and never finished: the request line and one header, no blank line.
async fn half_open(n: u8, addr: SocketAddr) -> TcpStream {
    let mut stream = tcp_from(n, addr).await.expect("connects");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        .await
        .expect("writes");
    stream
}

/// Whether the server closed `stream` (end of stream or reset, after whatever it answered)
/// within `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let mut rest = Vec::new();
    tokio::time::timeout(wait, stream.read_to_end(&mut rest))
        .await
        .is_ok()
}

type Ws = WebSocketStream<TcpStream>;

/// The game's WebSocket opened from `127.0.0.N`, or the HTTP answer that refused it.
async fn ws_from(
    n: u8,
    api: &Api,
    id: &str,
    token: Option<&str>,
) -> Result<Ws, (StatusCode, Value)> {
    let stream = tcp_from(n, api.server.addr()).await.expect("connects");
    match client_async(api.ws_url(id, token), stream).await {
        Ok((socket, _)) => Ok(socket),
        Err(WsError::Http(response)) => {
            let body = response.body().as_deref().unwrap_or_default();
            Err((
                response.status(),
                serde_json::from_slice(body).unwrap_or(Value::Null),
            ))
        }
        Err(error) => panic!("expected a socket or an HTTP refusal, got {error}"),
    }
}

/// The next snapshot the socket sends (or the delta that makes it).
async fn next_snapshot(socket: &mut Ws) -> Value {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("a frame within 20 s")
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = frame {
            let frame: Value = serde_json::from_str(&text).unwrap();
            if frame["type"] == "snapshot" {
                return frame["snapshot"].clone();
            }
            // A move's delta holds the snapshot's seq, side to move, legal moves and outcome.
            if frame["type"] == "delta" {
                return frame;
            }
        }
    }
}

/// Client 127.0.0.N creates a game against `ai:1` and plays random moves to its end: moves
/// over HTTP, the computer's answers read from the WebSocket. Returns the outcome.
async fn play_against_ai_from(n: u8, api: &Api) -> Value {
    let http = client_from(n);
    let created: Value = http
        .post(api.url("/api/games"))
        .body(json!({"game": "replica", "players": ["human", "ai:1"]}).to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().expect("a game id").to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let mut socket = ws_from(n, api, &id, Some(&token))
        .await
        .expect("socket opens");
    let mut dice = Dice(7);
    for _ in 0..2000 {
        let snapshot = next_snapshot(&mut socket).await;
        if !snapshot["outcome"].is_null() {
            return snapshot["outcome"].clone();
        }
        if snapshot["to_move"] != 1 {
            continue;
        }
        let body = json!({"token": token, "move": dice.legal(&snapshot), "seq": snapshot["seq"]});
        let answer = http
            .post(api.url(&format!("/api/games/{id}/moves")))
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
    }
    panic!("the game against ai:1 did not end");
}

fn vm_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::test]
async fn half_sent_requests_do_not_stop_another_client_and_close_after_the_header_timeout() {
    rlimit::increase_nofile_limit(10_000).unwrap();
    let api = Api::with(Config {
        header_timeout: Duration::from_secs(3),
        // The header timeout alone must free them: no cap closes any at once here.
        connections_per_client: 0,
        ..Config::default()
    });
    let before = vm_rss_kib();
    let mut held = Vec::new();
    for _ in 0..2000 {
        held.push(half_open(2, api.server.addr()).await);
    }
    // The test process is the server and the client; the client's side is a few hundred
    // bytes per socket (docs/SCALING.md).
    if let (Some(before), Some(after)) = (before, vm_rss_kib()) {
        println!(
            "VmRSS holding 2000 half-open connections: {before} KiB before, {after} KiB after"
        );
    }
    let outcome = play_against_ai_from(3, &api).await;
    assert!(!outcome.is_null());
    for (i, stream) in held.iter_mut().enumerate() {
        assert!(
            closed_within(stream, Duration::from_secs(20)).await,
            "half-open connection {i} is still open"
        );
    }
}

/// Sends a `GET /api/games` whose head carries a header of `bytes` bytes; the answer's status
/// line.
async fn status_with_header_of(api: &Api, bytes: usize) -> String {
    let mut stream = tcp_from(4, api.server.addr()).await.unwrap();
    let head = format!(
        "GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-Filler: {}\r\nConnection: close\r\n\r\n",
        "x".repeat(bytes)
    );
    // The server may answer and close before it has read the whole head.
    let _ = stream.write_all(head.as_bytes()).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the connection is closed after the answer");
    let answer = String::from_utf8_lossy(&answer);
    answer.lines().next().unwrap_or_default().to_string()
}

#[tokio::test]
async fn a_request_head_past_32_kib_is_refused_and_an_ordinary_large_one_served() {
    let api = Api::start();
    // Cookies and all, a browser's head stays within a few KiB.
    assert_eq!(
        status_with_header_of(&api, 12 * 1024).await,
        "HTTP/1.1 200 OK"
    );
    // Without a bound of its own the server read heads of up to 400 KiB, on every connection
    // a client may hold.
    for bytes in [40 * 1024, 300 * 1024] {
        let status = status_with_header_of(&api, bytes).await;
        assert_eq!(
            status, "HTTP/1.1 431 Request Header Fields Too Large",
            "{bytes} bytes"
        );
    }
    // The server still serves.
    assert_eq!(status_with_header_of(&api, 100).await, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn a_body_that_trickles_in_is_cut() {
    let api = Api::with(Config {
        body_timeout: Duration::from_secs(1),
        ..Config::default()
    });
    let mut stream = tcp_from(2, api.server.addr()).await.unwrap();
    let head =
        "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"game\":";
    stream.write_all(head.as_bytes()).await.unwrap();
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        // The server may already have cut it: a failed write is what is expected then.
        if stream.write_all(b" ").await.is_err() {
            break;
        }
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the connection is closed");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(
        answer.contains("request body not received within 1 s"),
        "{answer}"
    );
}

#[tokio::test]
async fn a_connection_on_which_nothing_moves_is_closed_after_the_idle_timeout() {
    let api = Api::with(Config {
        header_timeout: Duration::from_secs(60),
        idle_timeout: Duration::from_secs(2),
        ..Config::default()
    });
    let mut silent = half_open(2, api.server.addr()).await;
    let mut busy = half_open(2, api.server.addr()).await;
    // The busy client sends a header line every 300 ms for 4.5 s, more than twice the
    // timeout: bytes move, so it stays (a busy machine may hold this task back a while).
    for n in 0..15 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let line = format!("X-Line-{n}: {n}\r\n");
        busy.write_all(line.as_bytes()).await.unwrap();
    }
    assert!(
        closed_within(&mut silent, Duration::from_secs(10)).await,
        "the silent connection is closed"
    );
    busy.write_all(b"\r\n").await.unwrap();
    let mut answer = [0; 12];
    busy.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200", "the busy connection is served");
}

#[tokio::test]
async fn a_client_over_its_connections_is_closed_at_once_and_others_are_served() {
    let api = Api::with(Config {
        connections_per_client: 10,
        header_timeout: Duration::from_secs(60),
        ..Config::default()
    });
    let mut held = Vec::new();
    for _ in 0..30 {
        held.push(half_open(2, api.server.addr()).await);
    }
    let closed = join_all(
        held.iter_mut()
            .map(|stream| closed_within(stream, Duration::from_secs(2))),
    )
    .await;
    let mut open: Vec<_> = held
        .iter_mut()
        .zip(closed)
        .filter_map(|(stream, closed)| (!closed).then_some(stream))
        .collect();
    assert_eq!(open.len(), 10, "the server keeps the client's first 10");
    open[0].write_all(b"\r\n").await.unwrap();
    let mut answer = [0; 12];
    open[0].read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200", "a kept connection is served");
    let other = client_from(3)
        .get(api.url("/api/meta"))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::OK, "another client is served");
    drop(held);
    // The places come back when the connections close.
    let mut served = false;
    for _ in 0..100 {
        if let Ok(answer) = client_from(2).get(api.url("/api/meta")).send().await {
            served = answer.status() == StatusCode::OK;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        served,
        "the client connects again once its connections closed"
    );
}

#[tokio::test]
async fn a_client_over_its_websockets_gets_429_and_others_still_connect() {
    let api = Api::with(Config {
        websockets_per_client: 3,
        ..Config::default()
    });
    let game = api.create(&json!({"game": "replica"})).await;
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(
            ws_from(2, &api, &game.id, None)
                .await
                .expect("under the cap"),
        );
    }
    let Err(over) = ws_from(2, &api, &game.id, None).await else {
        panic!("a fourth socket from the client opened");
    };
    assert_error(&over, StatusCode::TOO_MANY_REQUESTS, "3 websockets open");
    assert!(
        ws_from(3, &api, &game.id, None).await.is_ok(),
        "another client connects"
    );
    drop(sockets.pop());
    let mut reopened = false;
    for _ in 0..100 {
        if ws_from(2, &api, &game.id, None).await.is_ok() {
            reopened = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reopened, "a closed socket frees its place");
}

#[tokio::test]
async fn a_websocket_that_never_reads_is_closed_and_the_others_keep_working() {
    let api = Api::with(Config {
        ping_interval: Duration::from_millis(100),
        socket_timeout: Duration::from_secs(1),
        ..Config::default()
    });
    let game = api
        .create(&json!({"game": "qawale", "players": ["ai:1", "ai:1"], "speed_ms": 0}))
        .await;
    let mut deaf = connect(&api, &game.id, None).await;
    let mut reader = connect(&api, &game.id, Some(&game.owner)).await;
    // The reader reads (and so answers pings) for three socket timeouts; the deaf socket
    // reads nothing meanwhile.
    let reading = async {
        while let Some(frame) = reader.next().await {
            frame.expect("the reader's socket stays open");
        }
    };
    assert!(
        tokio::time::timeout(Duration::from_secs(3), reading)
            .await
            .is_err(),
        "the reader's socket is still open"
    );
    send(&mut reader, &json!({"type": "ping"})).await;
    next_of(&mut reader, "pong").await;

    let mut close = None;
    let drained = async {
        while let Some(frame) = deaf.next().await {
            match frame {
                Ok(Message::Close(frame)) => close = Some(frame),
                Ok(_) => {}
                Err(_) => break,
            }
        }
    };
    assert!(
        tokio::time::timeout(Duration::from_secs(10), drained)
            .await
            .is_ok(),
        "the server closed the socket that did not read"
    );
    if let Some(Some(frame)) = close {
        assert!(frame.reason.contains("nothing heard"), "{}", frame.reason);
    }
}

#[tokio::test]
async fn forwarded_for_changes_the_client_only_behind_a_trusted_proxy() {
    for trust_proxy in [false, true] {
        let api = Api::with(Config {
            actions_per_second: 1,
            action_burst: 1,
            trust_proxy,
            ..Config::default()
        });
        // An action on no game: counted before the route answers 404.
        let resign = api.url("/api/games/nope/resign");
        let act = |forwarded: &str| {
            reqwest::Client::new()
                .post(&resign)
                .header("x-forwarded-for", forwarded)
                .body(r#"{"token":"not a token"}"#)
                .send()
        };
        assert_eq!(
            act("10.0.0.1").await.unwrap().status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            act("10.0.0.1").await.unwrap().status(),
            StatusCode::TOO_MANY_REQUESTS,
            "the same client, over its rate"
        );
        // Only the last entry counts: the one a proxy appended.
        let spoofed = act("10.0.0.1, 10.0.0.2").await.unwrap().status();
        let expected = if trust_proxy {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(spoofed, expected, "trust_proxy {trust_proxy}");
    }
}
