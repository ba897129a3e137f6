//! A move costs the server the same at decision 10 and at decision 500, shown by counting,
//! never by timing: the work it counts (`GET /api/games/{id}/work`: replays of the history,
//! snapshots built) does not grow with the moves, and the frame each move sends its sockets
//! (a delta) keeps its size. The deltas, applied as a client applies them, give exactly the
//! snapshot the server would send whole.

use serde_json::{json, Value};

use reqwest::StatusCode;

use crate::support::{
    assert_error, connect, next, next_delta, next_of, next_raw, send, Api, Created, Dice, Socket,
};

/// A game for four on the largest Splut! board: random play lasts hundreds of decisions,
/// and seats are knocked out on the way (which the server notes as each move is made).
async fn long_game(api: &Api) -> (Created, Vec<Socket>) {
    let body = json!({"game": "splut", "players": ["human", "human", "human", "human"],
                      "options": {"players": 4, "size": 25, "max_turns": 0, "repetition": 0},
                      "seed": 7});
    let game = api.create(&body).await;
    let mut sockets = Vec::new();
    for seat in 1..=4 {
        let mut socket = connect(api, &game.id, Some(game.token(seat))).await;
        assert_eq!(next(&mut socket).await["type"], "snapshot");
        sockets.push(socket);
    }
    (game, sockets)
}

/// One decision's delta as the mover's socket received it: its size in bytes, and the size
/// of its `legal` and `pointing` lists (which follow the position's legal moves).
struct Sent {
    bytes: usize,
    moves_bytes: usize,
}

/// Plays random decisions over the seats' own sockets until seq `until`; answers each
/// decision's delta, and the snapshot the last one made.
async fn play_until(sockets: &mut [Socket], held: &mut Value, until: u64) -> Vec<Sent> {
    let mut dice = Dice(until);
    let mut sent = Vec::new();
    while held["seq"].as_u64() < Some(until) {
        assert!(
            held["outcome"].is_null(),
            "the game ended early: {}",
            held["outcome"]
        );
        let seat = held["to_move"].as_u64().expect("a seat to move") as usize;
        let seq = held["seq"].clone();
        let notation = dice.legal(held);
        send(
            &mut sockets[seat - 1],
            &json!({"type": "move", "move": notation, "seq": seq}),
        )
        .await;
        // Every socket reads its frames (one left unread would fall behind and be sent a
        // snapshot); the mover's delta is the one measured.
        let mut deltas = Vec::new();
        for socket in sockets.iter_mut() {
            deltas.push(next_delta(socket).await);
        }
        let (delta, bytes) = deltas.swap_remove(seat - 1);
        *held = crate::support::apply_delta(held, &delta);
        assert_out_told(held);
        let moves_bytes = delta["legal"].to_string().len() + delta["pointing"].to_string().len();
        sent.push(Sent { bytes, moves_bytes });
    }
    sent
}

/// Every seat the board shows out of play is told out in `seats` (the turn and who did it)
/// in the same frame: the page says "Blue knocked Red out" from it.
fn assert_out_told(held: &Value) {
    let board_seats = held["view"]["seats"].as_array().expect("the view's seats");
    for (shown, seat) in board_seats
        .iter()
        .zip(held["seats"].as_array().expect("seats"))
    {
        if shown["alive"] == false {
            assert!(
                seat["out"].is_object(),
                "out on the board, not told: {seat}"
            );
        }
    }
}

async fn work(api: &Api, id: &str) -> Value {
    let (status, work) = api.get(&format!("/api/games/{id}/work")).await;
    assert!(status.is_success(), "{work}");
    work
}

#[tokio::test]
async fn moves_replay_nothing_and_build_no_snapshot_however_long_the_game() {
    let api = Api::start();
    let (game, mut sockets) = long_game(&api).await;
    let mut held = api.snapshot(&game.id).await;
    play_until(&mut sockets, &mut held, 10).await;
    let early = work(&api, &game.id).await;
    play_until(&mut sockets, &mut held, 500).await;
    let late = work(&api, &game.id).await;
    assert_eq!(early["deltas"], 10, "{early}");
    assert_eq!(late["deltas"], 500, "one delta per move: {late}");
    for counted in [
        "history_replays",
        "knock_out_replays",
        "snapshots",
        "resyncs",
    ] {
        assert_eq!(
            late[counted], early[counted],
            "{counted} grew from decision 10 to 500: {early} then {late}"
        );
    }
    assert_eq!(late["history_replays"], 0, "{late}");
    // The snapshot the deltas made is the one the server sends whole (built now, once).
    assert_eq!(held, api.snapshot(&game.id).await);
    assert!(
        held["seats"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.get("out").is_some())
            || held["history"].as_array().unwrap().len() > 100,
        "a long game: {}",
        held["history"].as_array().unwrap().len()
    );
}

/// A move's frames are written to the seats' sockets by the task that made the move, not by
/// each socket's own task woken for it (live/fan_out.rs): a socket's own task takes over only
/// when it is itself writing, or reading at that very moment.
#[tokio::test]
async fn a_moves_frames_are_written_by_the_moving_task() {
    let api = Api::start();
    let (game, mut sockets) = long_game(&api).await;
    let mut held = api.snapshot(&game.id).await;
    play_until(&mut sockets, &mut held, 100).await;
    let work = work(&api, &game.id).await;
    let written = work["items_written_by_the_change"].as_u64().unwrap();
    let handed_over = work["items_handed_over"].as_u64().unwrap();
    assert!(
        written + handed_over >= 400,
        "100 moves to four sockets: {work}"
    );
    assert!(written > 3 * handed_over, "{work}");
}

#[tokio::test]
async fn a_moves_frame_keeps_its_size_however_long_the_game() {
    let api = Api::start();
    let (game, mut sockets) = long_game(&api).await;
    let mut held = api.snapshot(&game.id).await;
    let early = play_until(&mut sockets, &mut held, 10).await;
    let late = play_until(&mut sockets, &mut held, 500).await;
    let (at_10, at_500) = (&early[9], &late[late.len() - 1]);
    // The legal moves' lists follow the position (how many moves it has), not the game's
    // length; the rest of the frame is the same size give or take a status line and a few
    // cells.
    let rest = |sent: &Sent| sent.bytes - sent.moves_bytes;
    assert!(
        rest(at_500).abs_diff(rest(at_10)) < 600,
        "frame at decision 10: {} bytes ({} of legal moves); at 500: {} ({})",
        at_10.bytes,
        at_10.moves_bytes,
        at_500.bytes,
        at_500.moves_bytes
    );
    let whole = api.snapshot(&game.id).await.to_string().len();
    assert!(
        at_500.bytes * 2 < whole,
        "the delta ({} bytes) is a small part of the snapshot ({whole})",
        at_500.bytes
    );
}

/// `{"type":"sync"}` answers the whole snapshot to the socket that asked (a seat's or a
/// spectator's) from the one kept since the last change, is charged like any message, and
/// `GET /work` is read like the snapshot: an unknown game is a 404 naming it, a foreign page
/// is refused.
#[tokio::test]
async fn a_sync_answers_the_whole_snapshot_and_the_work_is_read_like_it() {
    let api = Api::with(ludus_server::Config {
        actions_per_second: 1,
        action_burst: 2,
        ..ludus_server::Config::default()
    });
    let game = api.create(&json!({"game": "qawale"})).await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let mut sockets = Vec::new();
    for token in [Some(game.token(1)), None] {
        let mut socket = connect(&api, &game.id, token).await;
        next_of(&mut socket, "snapshot").await;
        sockets.push(socket);
    }
    // A seat coming in is a change (its presence): let it settle before counting.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let before = work(&api, &game.id).await;
    for socket in &mut sockets {
        send(socket, &json!({"type": "sync"})).await;
        let answer = next_of(socket, "snapshot").await;
        assert_eq!(answer["snapshot"], api.snapshot(&game.id).await);
    }
    // Two syncs of an unchanged game: its snapshot is built once at most, nothing else.
    let after = work(&api, &game.id).await;
    let built = |w: &Value| w["snapshots"].as_u64().unwrap();
    assert!(built(&after) <= built(&before) + 1, "{before} then {after}");
    assert_eq!(after["deltas"], before["deltas"], "{before} then {after}");
    // Over the action rate, a sync gets an error frame and builds nothing.
    let mut socket = connect(&api, &game.id, None).await;
    next_of(&mut socket, "snapshot").await;
    let mut refused = Value::Null;
    for _ in 0..5 {
        send(&mut socket, &json!({"type": "sync"})).await;
        let answer = loop {
            let (frame, _) = next_raw(&mut socket).await;
            if frame["type"] == "snapshot" || frame["type"] == "error" {
                break frame;
            }
        };
        if answer["type"] == "error" {
            refused = answer;
            break;
        }
    }
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("too many actions")),
        "{refused}"
    );
    let (status, answer) = api.get("/api/games/nosuchgame/work").await;
    assert_error(&(status, answer), StatusCode::NOT_FOUND, "nosuchgame");
    let foreign = reqwest::Client::new()
        .get(api.url(&format!("/api/games/{}/work", game.id)))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
}
