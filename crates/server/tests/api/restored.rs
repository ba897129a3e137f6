//! What an in-process restart on the same database gives back besides the moves: a game
//! without people that was taken back stays paused, with the same seq, as live.

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::Api;

#[tokio::test]
async fn a_computer_game_taken_back_stays_paused_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    let body = json!({"game": "replica", "players": ["ai:1", "ai:1"], "speed_ms": 0});
    let game = api.create(&body).await;
    let playing = api
        .wait_for(&game.id, |s| s["seq"].as_u64() >= Some(4))
        .await;
    let undo = json!({"token": game.owner, "seq": playing["seq"], "scope": "decision"});
    let path = format!("/api/games/{}/undo", game.id);
    // The computers may have moved meanwhile: retry with the seq the refusal carries.
    let mut answer = api.post(&path, &undo).await;
    while answer.0 == StatusCode::CONFLICT {
        let retry =
            json!({"token": game.owner, "seq": answer.1["snapshot"]["seq"], "scope": "decision"});
        answer = api.post(&path, &retry).await;
    }
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    let told = answer.1;
    assert_eq!(
        told["paused"], true,
        "taking back pauses a game without people"
    );
    drop(api);

    let api = Api::with(config());
    let back = api.snapshot(&game.id).await;
    assert_eq!(back["paused"], true, "{back}");
    assert_eq!(back["seq"], told["seq"]);
    assert_eq!(back["position"], told["position"]);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        api.snapshot(&game.id).await["seq"],
        told["seq"],
        "its computers wait"
    );
}
