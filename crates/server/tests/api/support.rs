//! A server per test and a small client: JSON requests, games created with their tokens,
//! random legal moves from a seeded generator, waiting for computer moves, WebSocket frames.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use ludus_server::{BackgroundServer, Config};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// A running server and a client for it.
pub struct Api {
    pub server: BackgroundServer,
    client: reqwest::Client,
}

/// A created game: its id, the owner's token and a token per human seat (by seat number).
pub struct Created {
    pub id: String,
    pub owner: String,
    pub tokens: Vec<(u64, String)>,
}

impl Created {
    /// The token of seat `seat` (1-based).
    pub fn token(&self, seat: u64) -> &str {
        self.tokens
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or_else(|| panic!("seat {seat} has no token"), |(_, t)| t.as_str())
    }
}

impl Api {
    pub fn start() -> Api {
        Api::with(Config::default())
    }

    pub fn with(config: Config) -> Api {
        Api {
            server: BackgroundServer::start(config).expect("server starts"),
            client: reqwest::Client::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.server.addr())
    }

    pub fn ws_url(&self, id: &str, token: Option<&str>) -> String {
        let query = token.map_or_else(String::new, |t| format!("?token={t}"));
        format!("ws://{}/api/games/{id}/ws{query}", self.server.addr())
    }

    /// `GET path` → status and JSON body.
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let response = self.client.get(self.url(path)).send().await.unwrap();
        read(response).await
    }

    /// `POST path` with a raw body → status and JSON body.
    pub async fn post_raw(
        &self,
        path: &str,
        body: impl Into<reqwest::Body>,
    ) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.url(path))
            .body(body)
            .send()
            .await
            .unwrap();
        read(response).await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        self.post_raw(path, body.to_string()).await
    }

    /// `GET path` as text, with its content type.
    pub async fn get_text(&self, path: &str) -> (StatusCode, String, String) {
        let response = self.client.get(self.url(path)).send().await.unwrap();
        let status = response.status();
        let mime = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (status, mime, response.text().await.unwrap())
    }

    /// Creates a game; panics unless the server answers 201.
    pub async fn create(&self, body: &Value) -> Created {
        let (status, created) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        Created {
            id: created["id"].as_str().unwrap().to_string(),
            owner: created["owner"].as_str().unwrap().to_string(),
            tokens: created["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s["seat"].as_u64().unwrap(),
                        s["token"].as_str().unwrap().to_string(),
                    )
                })
                .collect(),
        }
    }

    pub async fn snapshot(&self, id: &str) -> Value {
        let (status, snapshot) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{snapshot}");
        snapshot
    }

    /// Plays `notation` for the seat to move; answers status and body.
    pub async fn play(
        &self,
        game: &Created,
        snapshot: &Value,
        notation: &str,
    ) -> (StatusCode, Value) {
        let seat = snapshot["to_move"].as_u64().expect("a seat to move");
        let body = json!({"token": game.token(seat), "move": notation, "seq": snapshot["seq"]});
        self.post(&format!("/api/games/{}/moves", game.id), &body)
            .await
    }

    /// Polls the snapshot until `done` holds (computer moves arrive by themselves).
    pub async fn wait_for(&self, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let snapshot = self.snapshot(id).await;
            if done(&snapshot) {
                return snapshot;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out: {snapshot}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// An answer's status and JSON body (panics on a body that is not JSON).
pub async fn read(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("not JSON ({e}) with status {status}: {text}"));
    (status, body)
}

/// Asserts an error answer: this status, JSON `{"error": one line}` mentioning `needle`.
pub fn assert_error(answer: &(StatusCode, Value), status: StatusCode, needle: &str) {
    let (got, body) = answer;
    assert_eq!(*got, status, "{body}");
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    assert!(!message.contains('\n'), "one line: {message}");
    assert!(
        message.to_lowercase().contains(&needle.to_lowercase()),
        "'{needle}' not in '{message}'"
    );
}

/// A small seeded generator (the engine's SplitMix64) for picking random legal moves.
pub struct Dice(pub u64);

impl Dice {
    pub fn below(&mut self, n: usize) -> usize {
        let (state, value) = ludus_engine::splitmix64(self.0);
        self.0 = state;
        (value % n as u64) as usize
    }

    /// A random entry of the snapshot's `legal` list.
    pub fn legal(&mut self, snapshot: &Value) -> String {
        let legal = snapshot["legal"].as_array().expect("legal");
        assert!(!legal.is_empty(), "no legal move in {snapshot}");
        legal[self.below(legal.len())].as_str().unwrap().to_string()
    }
}

/// A game's WebSocket as the page reads it: a delta frame is applied to the snapshot the
/// socket was sent before, and handed on as the snapshot frame it makes (`"delta": true`); a
/// delta that does not follow on from that snapshot fails the test.
pub struct Socket {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    held: Option<Value>,
}

impl std::ops::Deref for Socket {
    type Target = WebSocketStream<MaybeTlsStream<TcpStream>>;
    fn deref(&self) -> &Self::Target {
        &self.stream
    }
}

impl std::ops::DerefMut for Socket {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.stream
    }
}

impl Socket {
    /// A socket opened elsewhere (with its own headers).
    pub fn wrap(stream: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Socket {
        Socket { stream, held: None }
    }
}

pub async fn connect(api: &Api, id: &str, token: Option<&str>) -> Socket {
    let (stream, _) = connect_async(api.ws_url(id, token))
        .await
        .expect("socket opens");
    Socket::wrap(stream)
}

/// A new game (`body`, as for `POST /api/games`) with seat 1's socket open, past the first
/// snapshot it was sent.
pub async fn seated(api: &Api, body: &Value) -> (Created, Socket) {
    let game = api.create(body).await;
    let mut socket = connect(api, &game.id, Some(game.token(1))).await;
    next_of(&mut socket, "snapshot").await;
    (game, socket)
}

/// The next JSON text frame as sent (within 10 s), and its size in bytes.
pub async fn next_raw(socket: &mut Socket) -> (Value, usize) {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), socket.stream.next())
            .await
            .expect("a frame within 10 s")
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = frame {
            let value: Value = serde_json::from_str(&text).expect("JSON frames");
            if value["type"] == "snapshot" {
                socket.held = Some(value["snapshot"].clone());
            }
            return (value, text.len());
        }
    }
}

/// The next JSON text frame (within 10 s), a delta made into the snapshot it gives.
pub async fn next(socket: &mut Socket) -> Value {
    let (frame, _) = next_raw(socket).await;
    if frame["type"] != "delta" {
        return frame;
    }
    let held = socket.held.as_ref().expect("a snapshot before a delta");
    let snapshot = apply_delta(held, &frame);
    socket.held = Some(snapshot.clone());
    json!({"type": "snapshot", "snapshot": snapshot, "delta": true})
}

/// The next delta frame of `socket`, and its size in bytes.
pub async fn next_delta(socket: &mut Socket) -> (Value, usize) {
    loop {
        let (frame, bytes) = next_raw(socket).await;
        if frame["type"] == "delta" {
            return (frame, bytes);
        }
        assert_ne!(frame["type"], "error", "{frame}");
        assert_ne!(frame["type"], "snapshot", "a socket fell behind");
    }
}

/// The snapshot `delta` makes of `held` (as the page's delta.js does).
pub fn apply_delta(held: &Value, delta: &Value) -> Value {
    assert_eq!(
        delta["from_seq"], held["seq"],
        "a delta that follows on: {delta}"
    );
    let mut snapshot = held.clone();
    let from = delta["history_from"].as_u64().expect("history_from") as usize;
    let history = snapshot["history"].as_array_mut().expect("history");
    assert!(
        from <= history.len(),
        "history_from {from} past the history"
    );
    history.truncate(from);
    history.extend(delta["turns"].as_array().expect("turns").iter().cloned());
    let moves: Vec<Value> = history.iter().map(|turn| turn["text"].clone()).collect();
    snapshot["moves"] = Value::Array(moves);
    for (key, value) in delta.as_object().expect("an object") {
        if !["type", "from_seq", "history_from", "turns", "view"].contains(&key.as_str()) {
            snapshot[key] = value.clone();
        }
    }
    for (key, value) in delta["view"].as_object().expect("a view") {
        if key != "cells" {
            snapshot["view"][key] = value.clone();
        }
    }
    for change in delta["view"]["cells"].as_array().expect("changed cells") {
        let index = change["index"].as_u64().expect("index") as usize;
        let cell = &mut snapshot["view"]["cells"][index];
        assert!(cell.is_object(), "no cell {index}");
        cell["stack"] = change["stack"].clone();
        cell["shaded"] = change["shaded"].clone();
    }
    snapshot
}

/// Frames until one of type `kind` comes.
pub async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let frame = next(socket).await;
        if frame["type"] == kind {
            return frame;
        }
    }
}

pub async fn send(socket: &mut Socket, frame: &Value) {
    socket.send(Message::text(frame.to_string())).await.unwrap();
}
