//! What the creator's owner token may delete: a game nobody else has joined (its invitations
//! unclaimed, a game against the computer, a game whose seats are all the creator's), never
//! one another person joined, in progress or over.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, Api, Dice};

pub async fn delete(api: &Api, id: &str, token: &str) -> (StatusCode, Value) {
    let response = reqwest::Client::new()
        .delete(api.url(&format!("/api/games/{id}")))
        .body(json!({"token": token}).to_string())
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

/// A Replica game with seat 2 kept by invitation: the `201` body.
async fn with_invitation(api: &Api) -> Value {
    let (status, created) = api
        .post("/api/games", &json!({"game": "replica", "invite": [2]}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    created
}

#[tokio::test]
async fn the_owner_cannot_delete_a_game_another_person_joined_in_progress_or_over() {
    let api = Api::start();
    let created = with_invitation(&api).await;
    let id = created["id"].as_str().unwrap();
    let owner = created["owner"].as_str().unwrap();
    let claim = json!({"seat": 2, "invite": created["invites"][0]["invite"]});
    let (status, claimed) = api.post(&format!("/api/games/{id}/claim"), &claim).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");

    let refused = delete(&api, id, owner).await;
    assert_error(&refused, StatusCode::FORBIDDEN, "resign");
    assert_error(&refused, StatusCode::FORBIDDEN, "seat 2");
    let first = &created["seats"][0]["token"];
    let (status, _) = api
        .post(&format!("/api/games/{id}/resign"), &json!({"token": first}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let lost = delete(&api, id, owner).await;
    assert_error(&lost, StatusCode::FORBIDDEN, "nobody else");
    let kept = api.snapshot(id).await;
    assert_eq!(
        kept["outcome"]["winner"], 2,
        "the game stays as played: {kept}"
    );
}

#[tokio::test]
async fn the_owner_deletes_games_nobody_else_joined() {
    let api = Api::start();
    let unclaimed = with_invitation(&api).await;
    let id = unclaimed["id"].as_str().unwrap();
    let first = &unclaimed["seats"][0]["token"];
    let body = json!({"token": first, "move": "b4-c5", "seq": 0});
    let (status, _) = api.post(&format!("/api/games/{id}/moves"), &body).await;
    assert_eq!(status, StatusCode::OK);
    let (status, deleted) = delete(&api, id, unclaimed["owner"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{deleted}");
    assert_eq!(
        api.get(&format!("/api/games/{id}")).await.0,
        StatusCode::NOT_FOUND
    );

    for players in [json!(["human", "ai:1"]), json!(["human", "human"])] {
        let game = api
            .create(&json!({"game": "replica", "players": players}))
            .await;
        let snapshot = api.snapshot(&game.id).await;
        let (status, _) = api.play(&game, &snapshot, &Dice(3).legal(&snapshot)).await;
        assert_eq!(status, StatusCode::OK);
        let (status, deleted) = delete(&api, &game.id, &game.owner).await;
        assert_eq!(status, StatusCode::OK, "{players}: {deleted}");
    }
}
