//! A whole turn sent at once is announced decision by decision, and computer players' specs
//! are checked for the game and named for people (moved here from the server's unit tests,
//! so that game ids stay out of the server's sources).

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{assert_error, seated, send, Api};

#[tokio::test]
async fn a_whole_qawale_turn_is_announced_as_its_decisions() {
    let api = Api::start();
    let (game, mut socket) = seated(&api, &json!({"game": "qawale"})).await;
    send(
        &mut socket,
        &json!({"type": "move", "move": "a1:NEN", "seq": 0}),
    )
    .await;
    let mut events = Vec::new();
    loop {
        let frame = next_of_any(&mut socket).await;
        if frame["type"] == "snapshot" {
            break;
        }
        events.push(frame);
    }
    assert!(events.len() > 1, "one event per decision: {events:?}");
    assert!(
        events.iter().all(|e| e["seat"] == 1 && e["seq"] == 1),
        "{events:?}"
    );
    let body = json!({"token": game.token(2), "move": "zz", "seq": 1});
    let refused = api
        .post(&format!("/api/games/{}/moves", game.id), &body)
        .await;
    assert_error(&refused, StatusCode::UNPROCESSABLE_ENTITY, "zz");
}

/// The next event or snapshot frame.
async fn next_of_any(socket: &mut crate::support::Socket) -> serde_json::Value {
    loop {
        let frame = crate::support::next(socket).await;
        if frame["type"] == "event" || frame["type"] == "snapshot" {
            return frame;
        }
    }
}

#[tokio::test]
async fn computer_specs_are_checked_for_the_game_and_named_for_people() {
    let api = Api::start();
    let body = |players: serde_json::Value| json!({"game": "replica", "players": players});
    let good = api
        .post("/api/games", &body(json!(["human", "ai:4:depth=1"])))
        .await;
    assert_eq!(good.0, StatusCode::CREATED, "{}", good.1);
    for bad in ["ai:9", "ai:4:colour=red"] {
        let refused = api.post("/api/games", &body(json!(["human", bad]))).await;
        assert_error(&refused, StatusCode::UNPROCESSABLE_ENTITY, bad);
    }
    for (spec, name) in [("ai:3", "Level 3"), ("ai:mcts", "ai:mcts")] {
        let game = api
            .create(&json!({"game": "replica", "players": ["human", spec]}))
            .await;
        let snapshot = api.snapshot(&game.id).await;
        assert_eq!(snapshot["names"][1], name, "{snapshot}");
    }
}
