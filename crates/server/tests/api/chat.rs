//! Chat over the game's WebSocket: the players' channel reaches players and spectators, the
//! spectators' channel spectators only; text comes back verbatim; bad lines and lines sent
//! too fast get one-line errors and the socket stays open; no chat against the computer; the
//! chat is sent to a socket when it opens, and survives a restart on the same database.

use ludus_server::Config;
use serde_json::{json, Value};

use crate::support::{connect, next_of, send, Api, Created, Socket};

const SCRIPT: &str = "<script>alert(1)</script>";

/// A Replica game between Ana and Bo, both seats held here.
async fn between_people(api: &Api) -> Created {
    api.create(&json!({"game": "replica", "players": ["human", "human"], "names": ["Ana", "Bo"]}))
        .await
}

/// A socket of game `id` (a seat's with `token`), its first snapshot read.
async fn open(api: &Api, id: &str, token: Option<&str>) -> Socket {
    let mut socket = connect(api, id, token).await;
    next_of(&mut socket, "snapshot").await;
    socket
}

async fn say(socket: &mut Socket, channel: &str, text: &str) {
    send(
        socket,
        &json!({"type": "chat", "channel": channel, "text": text}),
    )
    .await;
}

/// The next error frame's one-line message.
async fn refused(socket: &mut Socket) -> String {
    let error = next_of(socket, "error").await;
    let message = error["error"].as_str().expect("a message").to_string();
    assert!(!message.contains('\n'), "one line: {message}");
    message
}

fn line_of(frame: &Value) -> (&str, &str, Option<u64>, &str) {
    (
        frame["channel"].as_str().unwrap(),
        frame["from"].as_str().unwrap(),
        frame["seat"].as_u64(),
        frame["text"].as_str().unwrap(),
    )
}

#[tokio::test]
async fn players_are_read_by_everyone_and_spectators_by_spectators_only() {
    let api = Api::start();
    let game = between_people(&api).await;
    let mut ana = open(&api, &game.id, Some(game.token(1))).await;
    let mut bo = open(&api, &game.id, Some(game.token(2))).await;
    let mut watcher = open(&api, &game.id, None).await;
    let mut other_watcher = open(&api, &game.id, None).await;

    say(&mut ana, "players", SCRIPT).await;
    for socket in [&mut ana, &mut bo, &mut watcher, &mut other_watcher] {
        let frame = next_of(socket, "chat").await;
        assert_eq!(
            line_of(&frame),
            ("players", "Ana", Some(1), SCRIPT),
            "verbatim: {frame}"
        );
        assert!(frame["at_ms"].as_u64().unwrap() > 0, "{frame}");
    }

    say(&mut watcher, "spectators", "who wins?").await;
    for socket in [&mut watcher, &mut other_watcher] {
        let frame = next_of(socket, "chat").await;
        assert_eq!(
            line_of(&frame),
            ("spectators", "spectator", None, "who wins?")
        );
    }
    // Bo's next line is the next chat frame the players get: the spectators' line never came.
    send(&mut bo, &json!({"type": "chat", "text": "good luck"})).await;
    for socket in [&mut ana, &mut bo] {
        let frame = next_of(socket, "chat").await;
        assert_eq!(line_of(&frame), ("players", "Bo", Some(2), "good luck"));
    }
    next_of(&mut watcher, "chat").await;

    say(&mut ana, "spectators", "psst").await;
    assert!(refused(&mut ana).await.contains("players' channel"));
    say(&mut watcher, "players", "hi").await;
    assert!(refused(&mut watcher).await.contains("spectators' channel"));

    // A socket opening now gets the lines it may read.
    let mut late = connect(&api, &game.id, None).await;
    next_of(&mut late, "snapshot").await;
    let history = next_of(&mut late, "chat_history").await;
    let texts: Vec<&str> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, [SCRIPT, "who wins?", "good luck"]);
    let mut back = connect(&api, &game.id, Some(game.token(1))).await;
    next_of(&mut back, "snapshot").await;
    let history = next_of(&mut back, "chat_history").await;
    let channels: Vec<&str> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["channel"].as_str().unwrap())
        .collect();
    assert_eq!(channels, ["players", "players"], "{history}");
}

#[tokio::test]
async fn bad_lines_and_lines_too_fast_are_refused_and_the_socket_stays_open() {
    let api = Api::start();
    let game = between_people(&api).await;
    let mut ana = open(&api, &game.id, Some(game.token(1))).await;
    for (text, said) in [
        ("x".repeat(301), "1 to 300 characters"),
        ("   ".to_string(), "1 to 300 characters"),
        ("two\nlines".to_string(), "U+000A"),
        ("bell\u{7}".to_string(), "control character"),
    ] {
        say(&mut ana, "players", &text).await;
        let message = refused(&mut ana).await;
        assert!(message.contains(said), "{message}");
    }
    say(&mut ana, "lobby", "hi").await;
    assert!(refused(&mut ana).await.contains("expected \"players\""));

    // A burst of three, then one a second.
    for n in 0..3 {
        say(&mut ana, "players", &format!("line {n}")).await;
        assert_eq!(next_of(&mut ana, "chat").await["text"], format!("line {n}"));
    }
    say(&mut ana, "players", "one more").await;
    let message = refused(&mut ana).await;
    assert!(message.contains("at most one a second"), "{message}");
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    say(&mut ana, "players", "after a second").await;
    assert_eq!(next_of(&mut ana, "chat").await["text"], "after a second");
}

#[tokio::test]
async fn there_is_no_chat_against_the_computer() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "ai:1"]}))
        .await;
    let mut player = open(&api, &game.id, Some(game.token(1))).await;
    say(&mut player, "players", "hello computer").await;
    let message = refused(&mut player).await;
    assert!(message.contains("against the computer"), "{message}");
    let mut watcher = open(&api, &game.id, None).await;
    say(&mut watcher, "spectators", "hello").await;
    assert!(refused(&mut watcher).await.contains("against the computer"));
}

#[tokio::test]
async fn the_chat_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    let game = between_people(&api).await;
    let mut ana = open(&api, &game.id, Some(game.token(1))).await;
    let mut watcher = open(&api, &game.id, None).await;
    say(&mut ana, "players", "kept?").await;
    next_of(&mut watcher, "chat").await;
    say(&mut watcher, "spectators", "kept too").await;
    next_of(&mut watcher, "chat").await;
    drop((ana, watcher));
    drop(api);

    let api = Api::with(config());
    let mut watcher = connect(&api, &game.id, None).await;
    next_of(&mut watcher, "snapshot").await;
    let history = next_of(&mut watcher, "chat_history").await;
    let lines = history["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{history}");
    assert_eq!(line_of(&lines[0]), ("players", "Ana", Some(1), "kept?"));
    assert_eq!(
        line_of(&lines[1]),
        ("spectators", "spectator", None, "kept too")
    );
    let mut bo = connect(&api, &game.id, Some(game.token(2))).await;
    next_of(&mut bo, "snapshot").await;
    let history = next_of(&mut bo, "chat_history").await;
    assert_eq!(history["lines"].as_array().unwrap().len(), 1, "{history}");
    assert_eq!(
        api.snapshot(&game.id).await["seq"],
        0,
        "chat changes no seq"
    );
}

#[tokio::test]
async fn the_sounds_are_served_as_audio() {
    let api = Api::start();
    for name in ["move", "capture", "low_time", "end", "turn"] {
        let (status, mime, _) = api.get_text(&format!("/sounds/{name}.wav")).await;
        assert_eq!(status, reqwest::StatusCode::OK, "{name}");
        assert!(mime.starts_with("audio/"), "{name}: {mime}");
    }
}
