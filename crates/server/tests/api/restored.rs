//! What an in-process restart on the same database gives back besides the moves: a game
//! without people that was taken back stays paused, with the same seq, as live; and presence:
//! every person's seat is away from the restart on, so the grace period runs again.

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{connect, Api, Socket};

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

/// A Replica game with seat 2 given by invitation and claimed; seat 1's socket stays open,
/// seat 2's opens and closes when `seat_two_came`. Answers the id and seat 1's token.
async fn claimed_game(api: &Api, seat_two_came: bool) -> (String, String, Socket) {
    let (_, created) = api
        .post("/api/games", &json!({"game": "replica", "invite": [2]}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let first = created["seats"][0]["token"].as_str().unwrap().to_string();
    let claim = json!({"seat": 2, "invite": created["invites"][0]["invite"]});
    let (status, claimed) = api.post(&format!("/api/games/{id}/claim"), &claim).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    let mine = connect(api, &id, Some(&first)).await;
    if seat_two_came {
        let theirs = connect(api, &id, claimed["token"].as_str()).await;
        api.wait_for(&id, |s| s["seats"][1]["away"] == false).await;
        drop(theirs);
    }
    (id, first, mine)
}

/// After a restart on the same database the grace period runs from the restart: seat 1
/// comes back, seat 2 does not, and seat 1 claims the win once the grace has passed.
async fn claim_after_restart(seat_two_came: bool) {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        grace_seconds: 0.5,
        ..Config::default()
    };
    let api = Api::with(config());
    let (id, first, mine) = claimed_game(&api, seat_two_came).await;
    drop(mine);
    drop(api);

    let api = Api::with(config());
    let _back = connect(&api, &id, Some(&first)).await;
    let snapshot = api.wait_for(&id, |s| s["seats"][0]["away"] == false).await;
    assert_eq!(snapshot["seats"][1]["away"], true, "{snapshot}");
    let claim_from = snapshot["seats"][1]["claim_from_ms"]
        .as_u64()
        .unwrap_or_else(|| panic!("a countdown for seat 2: {snapshot}"));
    // A little past the moment shown: the wall clock and the server's timer round apart.
    while unix_ms() <= claim_from + 100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let body = json!({"token": first, "seat": 2, "then": "win"});
    let (status, over) = api.post(&format!("/api/games/{id}/absent"), &body).await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["outcome"]["winner"], 1, "{over}");
}

#[tokio::test]
async fn after_a_restart_a_player_who_never_comes_back_can_be_claimed_against() {
    claim_after_restart(true).await;
}

#[tokio::test]
async fn after_a_restart_a_claimed_seat_never_opened_can_be_claimed_against() {
    claim_after_restart(false).await;
}

fn unix_ms() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    u64::try_from(now.expect("after 1970").as_millis()).expect("in range")
}
