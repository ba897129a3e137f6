//! What a delta leaves out: the fields that did not change since the frame before (the
//! people, the controls, the seats of the view), and each pointing entry's notation, which
//! is the `legal` entry at its index. A client keeps what a delta leaves out, so a change made
//! without a frame (a search starting as the game is taken up) must not leave a socket holding
//! a field that a later delta then fails to send.

use serde_json::{json, Value};

use crate::support::{apply_delta, connect, next_delta, next_raw, send, Api};

#[tokio::test]
async fn a_moves_delta_sends_only_what_changed() {
    let api = Api::start();
    let game = api.create(&json!({"game": "qilin"})).await;
    let mut socket = connect(&api, &game.id, Some(game.token(1))).await;
    let (first, _) = next_raw(&mut socket).await;
    let mut held = first["snapshot"].clone();
    // A seat coming in is a change of its own (its presence): the move's delta comes after.
    let notation = held["legal"][0].clone();
    send(
        &mut socket,
        &json!({"type": "move", "move": notation, "seq": 0}),
    )
    .await;
    let delta = loop {
        let (delta, _) = next_delta(&mut socket).await;
        held = apply_delta(&held, &delta);
        if delta["seq"] == 1 {
            break delta;
        }
    };
    for unchanged in [
        "players", "names", "seats", "paused", "offer", "clock", "rated",
    ] {
        assert!(delta.get(unchanged).is_none(), "{unchanged} sent: {delta}");
    }
    assert!(delta["view"].get("seats").is_none(), "{delta}");
    // A field that changed is sent: the first move makes the game one that can be undone.
    assert_eq!(delta["can_undo"], true, "{delta}");
    let pointing = delta["pointing"].as_array().expect("pointing");
    assert_eq!(pointing.len(), delta["legal"].as_array().unwrap().len());
    assert!(pointing.iter().all(|p| p.get("move").is_none()), "{delta}");
    assert_eq!(held, api.snapshot(&game.id).await);
}

/// The computer's first search starts as the game is taken up, without a frame; the socket
/// opened meanwhile holds `thinking` from its snapshot, and the delta of the computer's move
/// must clear it although the frame before (none) never set it.
#[tokio::test]
async fn the_delta_after_a_change_without_a_frame_sends_every_field() {
    let api = Api::start();
    for _ in 0..3 {
        let game = api
            .create(&json!({"game": "replica", "players": ["ai:4:time=1", "human"]}))
            .await;
        let mut socket = connect(&api, &game.id, None).await;
        let (first, _) = next_raw(&mut socket).await;
        let mut held = first["snapshot"].clone();
        if held["seq"] != 0 {
            continue; // the search ended before the socket opened: try again
        }
        assert!(held["thinking"].is_object(), "{held}");
        while held["seq"] == 0 {
            held = apply_delta(&held, &next_delta(&mut socket).await.0);
        }
        assert_eq!(held["thinking"], Value::Null, "{held}");
        assert_eq!(held, api.snapshot(&game.id).await);
        return;
    }
    panic!("the computer's search ended before a socket could open, three times");
}
