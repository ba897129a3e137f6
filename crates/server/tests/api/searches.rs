//! Computer searches share the cores: at most one search per permit, the others wait their
//! turn; undo and resignation stop a running search at once and its result is dropped.

use std::time::Duration;

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{connect, next_of, Api, Dice};

#[tokio::test]
async fn searches_wait_for_a_free_core_and_undo_stops_a_long_one() {
    let api = Api::with(Config {
        search_threads: 1,
        ..Config::default()
    });
    let slow = api
        .create(&json!({"game": "replica", "players": ["human", "ai:4:time=30"]}))
        .await;
    let quick = api
        .create(&json!({"game": "replica", "players": ["human", "ai:3"]}))
        .await;
    // The long search reports its progress once it holds the only core; only then does the
    // other game ask for one (each search takes its place in the queue on its own task, so
    // two asked at once may queue in either order).
    let mut watching = connect(&api, &slow.id, None).await;
    for game in [&slow, &quick] {
        let snapshot = api.snapshot(&game.id).await;
        let notation = Dice(2).legal(&snapshot);
        let (status, after) = api.play(game, &snapshot, &notation).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(after["thinking"]["seat"], 2, "{after}");
        if game.id == slow.id {
            next_of(&mut watching, "thinking").await;
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let waiting = api.snapshot(&quick.id).await;
    assert_eq!(
        waiting["to_move"], 2,
        "the only core is busy: level 3 waits its turn (levels 1 and 2 need no slot)"
    );

    let thinking = api.snapshot(&slow.id).await;
    let body = json!({"token": slow.token(1), "seq": thinking["seq"], "scope": "turn"});
    let (status, undone) = api
        .post(&format!("/api/games/{}/undo", slow.id), &body)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(undone["thinking"].is_null());
    // The quick game gets the core within `wait_for`'s 20 s only if the 30 s search stopped.
    let replied = api.wait_for(&quick.id, |s| s["to_move"] == 1).await;
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = api.snapshot(&slow.id).await;
    assert_eq!(
        after["moves"],
        json!([]),
        "the stopped search's move was dropped"
    );
    assert_eq!(after["seq"], undone["seq"]);
}

#[tokio::test]
async fn no_spec_holds_a_core_past_the_servers_limit() {
    let api = Api::with(Config {
        max_search_seconds: 0.3,
        ..Config::default()
    });
    let game = api
        .create(&json!({"game": "qawale", "players": ["human", "ai:4:time=600"]}))
        .await;
    let mut snapshot = api.snapshot(&game.id).await;
    let mut dice = Dice(8);
    while snapshot["to_move"] == 1 {
        let notation = dice.legal(&snapshot);
        snapshot = api.play(&game, &snapshot, &notation).await.1;
    }
    // Within `wait_for`'s 20 s only if the server stopped the 600 s search.
    api.wait_for(&game.id, |s| s["to_move"] == 1 && s["thinking"].is_null())
        .await;
}
