//! Per-client limits and origins: a client over its action rate (HTTP or WebSocket) or its
//! games in progress gets a one-line error while another client (another loopback address)
//! is still served; foreign origins are refused (the WebSocket upgrade too), the server's own
//! page and allowed origins are served, with CORS headers and a working preflight.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use ludus_server::Config;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
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
    let api = Api::with(Config {
        actions_per_second: 2,
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
    tokio::time::sleep(Duration::from_millis(600)).await;
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

#[tokio::test]
async fn records_read_at_once_share_a_budget_and_a_request_past_it_is_refused_before_its_body() {
    let api = Api::with(Config {
        records_in_flight: 1024 * 1024,
        ..Config::default()
    });
    // One client begins a 1,000,000-byte record and sends it slowly.
    let mut slow = tokio::net::TcpStream::connect(api.server.addr())
        .await
        .unwrap();
    let head = "POST /api/games HTTP/1.1\r\nHost: localhost\r\n\
                Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"record\":\"";
    slow.write_all(head.as_bytes()).await.unwrap();
    slow.write_all(&[b'x'; 4096]).await.unwrap();
    // Give the server the head: the budget is taken when the request is served.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let big = || {
        client_from(2)
            .post(api.url("/api/games"))
            .header("Content-Type", "application/json")
            .body(format!("{{\"record\":\"{}\"}}", "x".repeat(600_000)))
    };
    let (status, error) = answer(big()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{error}");
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("too many large requests"),
        "{error}"
    );
    // A small request still fits, and is served.
    let (status, created) = answer(
        client_from(3)
            .post(api.url("/api/games"))
            .json(&json!({"game": "yoxii"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    // The slow client gone, its share comes back: the big record is read (and refused for what
    // it holds, not for its size).
    drop(slow);
    let mut status = StatusCode::SERVICE_UNAVAILABLE;
    for _ in 0..100 {
        status = answer(big()).await.0;
        if status != StatusCode::SERVICE_UNAVAILABLE {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}
