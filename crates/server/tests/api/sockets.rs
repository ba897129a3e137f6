//! The WebSocket: snapshots and events as they happen, a computer's move arriving by itself,
//! actions over the socket, bad messages answered while the socket stays open, and one past
//! twice the size limit closing it; a move's frames reaching every socket, whether the move's
//! task wrote them or handed them to the socket's own task (a socket past the game's first
//! eight, or one that stopped reading and catches up).

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use tokio_tungstenite::MaybeTlsStream;

use crate::support::{connect, next, next_of, seated, send, Api, Created, Socket};

#[tokio::test]
async fn a_computer_seat_moves_by_itself_and_every_socket_sees_it() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "ai:4:depth=1"]}))
        .await;
    let mut player = connect(&api, &game.id, Some(game.token(1))).await;
    let mut watcher = connect(&api, &game.id, None).await;
    let first = next(&mut player).await;
    assert_eq!(first["type"], "snapshot");
    assert_eq!(next(&mut watcher).await["snapshot"]["seq"], 0);
    let snapshot = &first["snapshot"];
    let notation = snapshot["legal"][0].as_str().unwrap();
    let pointed = &snapshot["pointing"][0];
    send(
        &mut player,
        &json!({"type": "move", "move": notation, "seq": 0}),
    )
    .await;

    for socket in [&mut player, &mut watcher] {
        let mine = next(socket).await;
        assert_eq!(mine["type"], "event", "{mine}");
        assert_eq!(
            (mine["by"].as_str(), mine["seat"].as_u64()),
            (Some("human"), Some(1))
        );
        assert_eq!(mine["cells"], pointed["cells"]);
        let after = next_of(socket, "snapshot").await;
        assert_eq!(after["snapshot"]["seq"], 1);
        let reply = next_of(socket, "event").await;
        assert_eq!(
            (reply["by"].as_str(), reply["seat"].as_u64()),
            (Some("ai"), Some(2))
        );
        let answered = next_of(socket, "snapshot").await["snapshot"].clone();
        assert_eq!(answered["seq"], 2);
        assert_eq!(answered["to_move"], 1);
        assert_eq!(answered["analysis"]["bar_seat"], 1);
    }
    let watch_only = json!({"type": "resign"});
    send(&mut watcher, &watch_only).await;
    let refused = next_of(&mut watcher, "error").await;
    assert!(
        refused["error"].as_str().unwrap().contains("watches only"),
        "{refused}"
    );
}

#[tokio::test]
async fn bad_messages_get_an_error_frame_and_the_socket_stays_open() {
    let api = Api::start();
    let (_, mut socket) = seated(&api, &json!({"game": "yoxii"})).await;
    let bad = [
        Message::text("not json"),
        Message::text(json!({"type": "dance"}).to_string()),
        Message::text(json!({"type": "move", "move": "d4", "seq": 0, "extra": 1}).to_string()),
        Message::text("x".repeat(12 * 1024)),
        Message::binary(vec![1u8, 2, 3]),
        Message::text(json!({"type": "move", "move": "zz9", "seq": 0}).to_string()),
        Message::text(json!({"type": "move", "move": "d4", "seq": 7}).to_string()),
    ];
    let expected = [
        "expected",
        "unknown variant",
        "unknown field",
        "at most",
        "binary",
        "zz9",
        "stale",
    ];
    for (message, needle) in bad.into_iter().zip(expected) {
        socket.send(message).await.unwrap();
        let error = next_of(&mut socket, "error").await;
        let text = error["error"].as_str().unwrap();
        assert!(text.contains(needle), "'{needle}' not in '{text}'");
    }
    send(&mut socket, &json!({"type": "ping"})).await;
    assert_eq!(next(&mut socket).await["type"], "pong");
    send(&mut socket, &json!({"type": "hint"})).await;
    let hint = next_of(&mut socket, "hint").await;
    assert!(hint["move"].is_string(), "{hint}");
}

#[tokio::test]
async fn a_message_past_twice_the_limit_closes_the_socket_and_the_game_goes_on() {
    let api = Api::start();
    let (game, mut socket) = seated(&api, &json!({"game": "yoxii"})).await;
    // Past twice the 8 KiB limit: the server stops reading and closes the socket, where it
    // used to read messages of up to 1 MiB to answer each with an error frame.
    let _ = socket.send(Message::text("x".repeat(200 * 1024))).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(text))) => {
                    assert!(!text.contains("\"error\""), "an error frame: {text}");
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {}
            }
        }
    });
    assert!(closed.await.is_ok(), "the socket is closed within 10 s");
    // The seat's next socket is served.
    let mut again = connect(&api, &game.id, Some(game.token(1))).await;
    next_of(&mut again, "snapshot").await;
}

#[tokio::test]
async fn deleting_a_game_stops_it_and_closes_its_sockets() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "splut", "players": ["ai:1", "ai:1"], "speed_ms": 50}))
        .await;
    let mut socket = connect(&api, &game.id, None).await;
    next_of(&mut socket, "snapshot").await;
    let client = reqwest::Client::new();
    let url = api.url(&format!("/api/games/{}", game.id));
    let refused = client
        .delete(&url)
        .body(json!({"token": "nope"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
    let deleted = client
        .delete(&url)
        .body(json!({"token": game.owner}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    next_of(&mut socket, "deleted").await;
    let (status, _) = api.get(&format!("/api/games/{}", game.id)).await;
    assert_eq!(status, 404);
}

/// A move writes its frames to the game's first sockets from its own task; the others (a
/// popular game's spectators) are sent them by their own tasks, woken: every socket gets the
/// move, in order, either way.
#[tokio::test]
async fn sockets_past_those_a_move_writes_to_itself_are_sent_it_by_their_own_tasks() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "human"]}))
        .await;
    let mut sockets = vec![
        connect(&api, &game.id, Some(game.token(1))).await,
        connect(&api, &game.id, Some(game.token(2))).await,
    ];
    for _ in 0..9 {
        sockets.push(connect(&api, &game.id, None).await);
    }
    let mut first = Value::Null;
    for socket in &mut sockets {
        first = next_of(socket, "snapshot").await["snapshot"].clone();
    }
    let notation = first["legal"][0].as_str().unwrap();
    send(
        &mut sockets[0],
        &json!({"type": "move", "move": notation, "seq": first["seq"]}),
    )
    .await;
    for (n, socket) in sockets.iter_mut().enumerate() {
        let event = next_of(socket, "event").await;
        assert_eq!(event["seat"], 1, "socket {n}: {event}");
        let after = next_of(socket, "snapshot").await["snapshot"].clone();
        assert_eq!(
            after["seq"],
            first["seq"].as_u64().unwrap() + 1,
            "socket {n}"
        );
    }
    let (_, work) = api.get(&format!("/api/games/{}/work", game.id)).await;
    let handed_over = work["items_handed_over"].as_u64().unwrap();
    assert!(
        handed_over >= 3,
        "the move handed to the three sockets past the first eight: {work}"
    );
    assert!(
        work["items_written_by_the_change"].as_u64().unwrap() >= 1,
        "{work}"
    );
}

/// A spectator's socket with a small receive buffer, which fills sooner and leaves the test
/// fewer frames to read.
async fn small_buffered(api: &Api, id: &str) -> Socket {
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    tcp.set_recv_buffer_size(4096).unwrap();
    let address = api.ws_url(id, None);
    let host = address
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap();
    let tcp = tcp.connect(host.parse().unwrap()).await.unwrap();
    let (stream, _) = tokio_tungstenite::client_async(address, MaybeTlsStream::Plain(tcp))
        .await
        .unwrap();
    Socket::wrap(stream)
}

/// Sets `what` (`paused`, `step`) of the computers' game `game`, as its owner.
async fn control(api: &Api, game: &Created, what: &str) {
    let mut setting = json!({"token": game.owner});
    setting[what] = json!(true);
    let (status, answer) = api
        .post(&format!("/api/games/{}/control", game.id), &setting)
        .await;
    assert!(status.is_success(), "{answer}");
}

/// A spectator that stops reading while computers play fast: the moves' tasks hand its items
/// over once its buffers fill, and when it reads again every frame follows on from the one
/// before (or is a snapshot that starts again), up to the game's latest position.
#[tokio::test]
async fn a_spectator_that_stops_reading_catches_up_in_order() {
    let api = Api::start();
    let game = api
        .create(
            &json!({"game": "splut", "players": ["ai:1", "ai:1", "ai:1", "ai:1"],
                        "options": {"players": 4, "size": 25, "max_turns": 0, "repetition": 0},
                        "speed_ms": 0, "seed": 7}),
        )
        .await;
    let mut slow = small_buffered(&api, &game.id).await;
    let work = format!("/api/games/{}/work", game.id);
    let handed_over = async {
        loop {
            let (_, work) = api.get(&work).await;
            if work["items_handed_over"].as_u64() > Some(0) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), handed_over)
        .await
        .expect("the unread socket's buffers filled and its items were handed over");
    // `next` applies each delta to the snapshot held, refusing one that does not follow on:
    // read while the game goes on, then up to its last position once paused.
    let reading = async {
        loop {
            next(&mut slow).await;
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), reading).await;
    control(&api, &game, "paused").await;
    let last = api.snapshot(&game.id).await["seq"].clone();
    loop {
        let frame = next(&mut slow).await;
        if frame["type"] == "snapshot" && frame["snapshot"]["seq"] == last {
            break;
        }
    }
    // Caught up, the socket is sent the next move as a delta again, not a whole snapshot.
    control(&api, &game, "step").await;
    let after = next_of(&mut slow, "snapshot").await;
    assert_eq!(after["delta"], true, "{after}");
    assert_eq!(after["snapshot"]["seq"], last.as_u64().unwrap() + 1);
}
