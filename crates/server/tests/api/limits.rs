//! Per-client limits and origins: a client over its action rate (HTTP or WebSocket) or its
//! games in progress gets a one-line error while another client (another loopback address)
//! is still served; foreign origins are refused (the WebSocket upgrade too), the server's own
//! page and allowed origins are served, with CORS headers and a working preflight.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use ludus_server::Config;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::support::{assert_error, connect, next_of, send, Api};

/// A client whose requests come from `127.0.0.N`: the server sees another client.
fn client_from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .build()
        .unwrap()
}

async fn answer(request: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_client_over_its_action_rate_is_refused_and_others_are_served() {
    // One a second: the creation and three resigns must come within a second (not half of
    // one) for the third to find the bucket empty.
    let api = Api::with(Config {
        actions_per_second: 1,
        action_burst: 3,
        ..Config::default()
    });
    let game = api.create(&json!({"game": "replica"})).await;
    let resign = format!("/api/games/{}/resign", game.id);
    let wrong = json!({"token": "not a token"});
    for _ in 0..2 {
        assert_eq!(api.post(&resign, &wrong).await.0, StatusCode::FORBIDDEN);
    }
    let over = api.post(&resign, &wrong).await;
    assert_error(&over, StatusCode::TOO_MANY_REQUESTS, "too many actions");
    assert_eq!(
        api.get(&format!("/api/games/{}", game.id)).await.0,
        StatusCode::OK,
        "reading is not an action"
    );
    let other = answer(
        client_from(2)
            .post(api.url(&resign))
            .body(wrong.to_string()),
    )
    .await;
    assert_eq!(
        other.0,
        StatusCode::FORBIDDEN,
        "another client is served: {other:?}"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(
        api.post(&resign, &wrong).await.0,
        StatusCode::FORBIDDEN,
        "the bucket refills"
    );
}

#[tokio::test]
async fn websocket_messages_count_as_actions_and_the_socket_stays_open() {
    let api = Api::with(Config {
        actions_per_second: 1,
        action_burst: 2,
        ..Config::default()
    });
    let game = api.create(&json!({"game": "replica"})).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let mut socket = connect(&api, &game.id, Some(game.token(1))).await;
    next_of(&mut socket, "snapshot").await;
    for _ in 0..2 {
        send(&mut socket, &json!({"type": "ping"})).await;
        next_of(&mut socket, "pong").await;
    }
    send(&mut socket, &json!({"type": "ping"})).await;
    let refused = next_of(&mut socket, "error").await;
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("too many actions"),
        "{refused}"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    send(&mut socket, &json!({"type": "ping"})).await;
    next_of(&mut socket, "pong").await;
}

#[tokio::test]
async fn a_client_may_hold_only_so_many_games_in_progress() {
    let api = Api::with(Config {
        games_per_client: 2,
        ..Config::default()
    });
    let first = api.create(&json!({"game": "replica"})).await;
    api.create(&json!({"game": "replica"})).await;
    let third = api.post("/api/games", &json!({"game": "replica"})).await;
    assert_error(&third, StatusCode::TOO_MANY_REQUESTS, "games in progress");
    let elsewhere = answer(
        client_from(3)
            .post(api.url("/api/games"))
            .body(r#"{"game":"qawale"}"#),
    )
    .await;
    assert_eq!(
        elsewhere.0,
        StatusCode::CREATED,
        "another client creates: {elsewhere:?}"
    );
    let resign = json!({"token": first.token(1)});
    let (status, _) = api
        .post(&format!("/api/games/{}/resign", first.id), &resign)
        .await;
    assert_eq!(status, StatusCode::OK);
    api.create(&json!({"game": "replica"})).await;
}

#[tokio::test]
async fn foreign_origins_are_refused_and_the_own_and_allowed_ones_served() {
    let friend = "http://friend.example";
    let api = Api::with(Config {
        allowed_origins: vec![friend.to_string()],
        ..Config::default()
    });
    let client = reqwest::Client::new();
    let create = |origin: &str| {
        client
            .post(api.url("/api/games"))
            .header("origin", origin)
            .body(r#"{"game":"replica"}"#)
    };
    let foreign = answer(create("http://evil.example")).await;
    assert_error(&foreign, StatusCode::FORBIDDEN, "cross-origin");
    let own = format!("http://{}", api.server.addr());
    assert_eq!(
        answer(create(&own)).await.0,
        StatusCode::CREATED,
        "the page's own POST"
    );
    let allowed = create(friend).send().await.unwrap();
    assert_eq!(allowed.status(), StatusCode::CREATED);
    assert_eq!(allowed.headers()["access-control-allow-origin"], friend);

    let preflight = client
        .request(Method::OPTIONS, api.url("/api/games"))
        .header("origin", friend)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(preflight.headers()["access-control-allow-origin"], friend);
    assert!(preflight.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("POST"));
}

#[tokio::test]
async fn a_foreign_page_cannot_open_a_games_websocket() {
    let api = Api::start();
    let game = api.create(&json!({"game": "replica"})).await;
    let mut request = api
        .ws_url(&game.id, Some(game.token(1)))
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    let refused = connect_async(request).await.unwrap_err();
    let tokio_tungstenite::tungstenite::Error::Http(response) = refused else {
        panic!("expected an HTTP refusal, got {refused}");
    };
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    let mut request = api.ws_url(&game.id, None).into_client_request().unwrap();
    let own = format!("http://{}", api.server.addr());
    request.headers_mut().insert("origin", own.parse().unwrap());
    assert!(
        connect_async(request).await.is_ok(),
        "the page's own socket opens"
    );
}

/// A `POST /api/games` from `127.0.0.N` declaring a 1,000,000-byte record, of which only the
/// head and 4 KiB are sent: a slow upload, held while the stream is. It returns once the
/// server reads the body: the head asks `Expect: 100-continue`, which the server answers when
/// the route begins to read, past the admission that counts it. Without that wait, a request
/// sent after it could be admitted first.
async fn slow_record(n: u8, api: &Api) -> TcpStream {
    slow_upload(n, api, "Content-Length: 1000000").await
}

/// The same upload with `length` as the header that says how long the body is (`Transfer-
/// Encoding: chunked`: no length said).
async fn slow_upload(n: u8, api: &Api, length: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)), 0))
        .unwrap();
    let mut stream = socket.connect(api.server.addr()).await.unwrap();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         {length}\r\nExpect: 100-continue\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut interim = Vec::new();
    while !interim.ends_with(b"\r\n\r\n") {
        let byte = tokio::time::timeout(Duration::from_secs(10), stream.read_u8())
            .await
            .expect("the server reads the slow record within 10 s")
            .unwrap();
        interim.push(byte);
    }
    let interim = String::from_utf8_lossy(&interim);
    assert!(interim.starts_with("HTTP/1.1 100"), "{interim}");
    let mut body = b"{\"record\":\"".to_vec();
    body.extend([b'x'; 4096]);
    if length.starts_with("Transfer-Encoding") {
        // One chunk, and not the last.
        let mut chunk = format!("{:x}\r\n", body.len()).into_bytes();
        chunk.extend(body);
        chunk.extend(b"\r\n");
        body = chunk;
    }
    stream.write_all(&body).await.unwrap();
    stream
}

/// A 600,000-byte record (not a game) from `127.0.0.N`.
fn big_record(n: u8, api: &Api) -> reqwest::RequestBuilder {
    client_from(n)
        .post(api.url("/api/games"))
        .header("Content-Type", "application/json")
        .body(format!("{{\"record\":\"{}\"}}", "x".repeat(600_000)))
}

/// A small game's creation from `127.0.0.N`.
fn small_game(n: u8, api: &Api) -> reqwest::RequestBuilder {
    client_from(n)
        .post(api.url("/api/games"))
        .json(&json!({"game": "yoxii"}))
}

/// Asserts that client 2's big record, refused with `refused` while the uploads held their
/// share, is read once they are gone (within 10 s): then it is refused for what it holds
/// (422), not for its size.
async fn read_once_freed(api: &Api, refused: StatusCode) {
    let mut status = refused;
    for _ in 0..100 {
        status = answer(big_record(2, api)).await.0;
        if status != refused {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn records_read_at_once_share_a_budget_and_a_request_past_it_is_refused_before_its_body() {
    let api = Api::with(Config {
        records_in_flight: 1024 * 1024,
        ..Config::default()
    });
    // One client begins a 1,000,000-byte record and sends it slowly; once the server serves
    // it, a 600,000-byte one from another client no longer fits.
    let slow = slow_record(4, &api).await;
    assert_error(
        &answer(big_record(2, &api)).await,
        StatusCode::SERVICE_UNAVAILABLE,
        "too many large requests at once",
    );
    // A small request still fits, and is served.
    let (status, created) = answer(small_game(3, &api)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    // The slow client gone, its share comes back.
    drop(slow);
    read_once_freed(&api, StatusCode::SERVICE_UNAVAILABLE).await;
}

#[tokio::test]
async fn a_body_of_unsaid_length_is_counted_as_a_whole_record() {
    let api = Api::with(Config {
        records_in_flight: 1536 * 1024,
        ..Config::default()
    });
    // A chunked upload says no length: it takes a whole record's 1 MiB of the 1.5 MiB, and a
    // 600,000-byte record no longer fits beside it.
    let chunked = slow_upload(4, &api, "Transfer-Encoding: chunked").await;
    assert_error(
        &answer(big_record(2, &api)).await,
        StatusCode::SERVICE_UNAVAILABLE,
        "too many large requests at once",
    );
    drop(chunked);
    read_once_freed(&api, StatusCode::SERVICE_UNAVAILABLE).await;
}

#[tokio::test]
async fn one_client_sends_four_large_bodies_at_once_and_the_others_keep_their_share() {
    let api = Api::start();
    let mut slow = Vec::new();
    for _ in 0..4 {
        slow.push(slow_record(2, &api).await);
    }
    // Its fifth large body waits for one of the four; a small request of its own is served.
    assert_error(
        &answer(big_record(2, &api)).await,
        StatusCode::TOO_MANY_REQUESTS,
        "4 large requests",
    );
    assert_eq!(answer(small_game(2, &api)).await.0, StatusCode::CREATED);
    // Another client's record is read.
    assert_eq!(
        answer(big_record(3, &api)).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    slow.pop();
    read_once_freed(&api, StatusCode::TOO_MANY_REQUESTS).await;
}
