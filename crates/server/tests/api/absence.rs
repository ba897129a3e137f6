//! Away and the grace period: a seat whose last socket closes is `away` in every snapshot;
//! after the grace period the person who stayed may claim the win or hand the seat to a
//! computer player, and not before.

use std::time::Duration;

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

use crate::support::{assert_error, Api};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A Replica game between two people, each with a socket open: id, tokens and sockets.
async fn two_people(api: &Api) -> (String, [String; 2], [Socket; 2]) {
    let (_, created) = api
        .post("/api/games", &json!({"game": "replica", "invite": [2]}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let first = created["seats"][0]["token"].as_str().unwrap().to_string();
    let claim = json!({"seat": 2, "invite": created["invites"][0]["invite"]});
    let (_, claimed) = api.post(&format!("/api/games/{id}/claim"), &claim).await;
    let second = claimed["token"].as_str().unwrap().to_string();
    let (mine, _) = connect_async(api.ws_url(&id, Some(&first))).await.unwrap();
    let (theirs, _) = connect_async(api.ws_url(&id, Some(&second))).await.unwrap();
    (id, [first, second], [mine, theirs])
}

async fn absent(api: &Api, id: &str, token: &str, then: &str) -> (StatusCode, Value) {
    let body = json!({"token": token, "seat": 2, "then": then, "player": "ai:1"});
    api.post(&format!("/api/games/{id}/absent"), &body).await
}

fn with_grace(seconds: f64) -> Api {
    Api::with(Config {
        grace_seconds: seconds,
        ..Config::default()
    })
}

#[tokio::test]
async fn the_win_is_claimed_only_after_the_grace_period() {
    // Three seconds, so that the claim made at once comes well within it on a busy machine.
    let api = with_grace(3.0);
    let (id, [first, _], [_mine, theirs]) = two_people(&api).await;
    let here = api.wait_for(&id, |s| s["seats"][1]["away"] == false).await;
    assert_eq!(here["seats"][0]["away"], false);
    assert!(here["seats"][1].get("claim_from_ms").is_none(), "{here}");
    let early = absent(&api, &id, &first, "win").await;
    assert_error(&early, StatusCode::CONFLICT, "not away");

    let dropped_ms = unix_ms();
    drop(theirs);
    let away = api.wait_for(&id, |s| s["seats"][1]["away"] == true).await;
    // The page counts down to this moment: the drop plus the grace period of 3 s.
    let claim_from = away["seats"][1]["claim_from_ms"]
        .as_u64()
        .expect("claim_from_ms");
    assert!(
        (dropped_ms + 3000..dropped_ms + 8000).contains(&claim_from),
        "dropped at {dropped_ms}, claimable from {claim_from}"
    );
    let waiting = absent(&api, &id, &first, "win").await;
    assert_error(&waiting, StatusCode::CONFLICT, "grace period");
    let left = claim_from.saturating_sub(unix_ms());
    tokio::time::sleep(Duration::from_millis(left + 100)).await;
    let (status, over) = absent(&api, &id, &first, "win").await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["outcome"]["winner"], 1, "{over}");
}

#[tokio::test]
async fn an_absent_seat_handed_to_a_computer_plays_by_itself() {
    let api = with_grace(0.0);
    let (id, [first, second], [_mine, theirs]) = two_people(&api).await;
    let snapshot = api.snapshot(&id).await;
    let body = json!({"token": first, "move": "b4-c5", "seq": snapshot["seq"]});
    api.post(&format!("/api/games/{id}/moves"), &body).await;
    drop(theirs);
    api.wait_for(&id, |s| s["seats"][1]["away"] == true).await;
    let refused = absent(&api, &id, &second, "win").await;
    assert_eq!(
        refused.0,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not one's own seat: {}",
        refused.1
    );
    let (status, handed) = absent(&api, &id, &first, "computer").await;
    assert_eq!(status, StatusCode::OK, "{handed}");
    assert_eq!(handed["players"][1], "ai:1");
    let moved = api.wait_for(&id, |s| s["to_move"] == 1).await;
    assert_eq!(
        moved["moves"].as_array().unwrap().len(),
        2,
        "the computer replied: {moved}"
    );
    let old = json!({"token": second, "move": "x", "seq": moved["seq"]});
    let gone = api.post(&format!("/api/games/{id}/moves"), &old).await;
    assert_eq!(
        gone.0,
        StatusCode::FORBIDDEN,
        "the absent person's token no longer plays"
    );
}

fn unix_ms() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    u64::try_from(now.expect("after 1970").as_millis()).expect("in range")
}

#[tokio::test]
async fn a_seat_claimed_and_never_opened_is_away_from_the_claim_on() {
    let api = with_grace(0.5);
    let (_, created) = api
        .post("/api/games", &json!({"game": "replica", "invite": [2]}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let first = created["seats"][0]["token"].as_str().unwrap().to_string();
    let (_mine, _) = connect_async(api.ws_url(&id, Some(&first))).await.unwrap();
    let claim = json!({"seat": 2, "invite": created["invites"][0]["invite"]});
    let (status, claimed) = api.post(&format!("/api/games/{id}/claim"), &claim).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    let away = api.wait_for(&id, |s| s["seats"][0]["away"] == false).await;
    assert_eq!(away["seats"][1]["away"], true, "{away}");
    let claim_from = away["seats"][1]["claim_from_ms"]
        .as_u64()
        .expect("claim_from_ms");
    // A little past the moment shown: the wall clock and the server's timer round apart.
    while unix_ms() <= claim_from + 100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, over) = absent(&api, &id, &first, "win").await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["outcome"]["winner"], 1, "{over}");
}
