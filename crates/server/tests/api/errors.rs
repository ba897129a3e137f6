//! Every error status, each a JSON `{"error": one line}`; refused actions carry the snapshot.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{assert_error, Api};

#[tokio::test]
async fn refused_moves_say_why_and_carry_the_snapshot() {
    let api = Api::start();
    let game = api.create(&json!({"game": "replica"})).await;
    let snapshot = api.snapshot(&game.id).await;
    let legal = snapshot["legal"][0].as_str().unwrap().to_string();
    let moves = format!("/api/games/{}/moves", game.id);

    let wrong_token = api
        .post(&moves, &json!({"token": "nope", "move": legal, "seq": 0}))
        .await;
    assert_error(&wrong_token, StatusCode::FORBIDDEN, "holds no seat");
    let not_to_move = api
        .post(
            &moves,
            &json!({"token": game.token(2), "move": legal, "seq": 0}),
        )
        .await;
    assert_error(&not_to_move, StatusCode::FORBIDDEN, "not your turn");
    let illegal = api
        .post(
            &moves,
            &json!({"token": game.token(1), "move": "h8-a1", "seq": 0}),
        )
        .await;
    assert_error(&illegal, StatusCode::UNPROCESSABLE_ENTITY, "h8-a1");
    assert_eq!(
        illegal.1["snapshot"]["seq"], 0,
        "the snapshot comes with the error"
    );
    let unreadable = api
        .post(
            &moves,
            &json!({"token": game.token(1), "move": "<script>", "seq": 0}),
        )
        .await;
    assert_error(&unreadable, StatusCode::UNPROCESSABLE_ENTITY, "expected");

    let (status, _) = api.play(&game, &snapshot, &legal).await;
    assert_eq!(status, StatusCode::OK);
    let stale = api
        .post(
            &moves,
            &json!({"token": game.token(2), "move": "a1", "seq": 0}),
        )
        .await;
    assert_error(&stale, StatusCode::CONFLICT, "stale seq 0");
    assert_eq!(stale.1["snapshot"]["seq"], 1);
}

#[tokio::test]
async fn malformed_bodies_unknown_fields_and_oversize_bodies_are_refused() {
    // Bodies only a little over the limits, so the client has sent them whole (they fit the
    // socket buffers) before the server answers 413 and closes the connection.
    let api = Api::with(ludus_server::Config {
        record_limit: 96 * 1024,
        ..ludus_server::Config::default()
    });
    let game = api.create(&json!({"game": "qawale"})).await;
    let moves = format!("/api/games/{}/moves", game.id);
    assert_error(
        &api.post_raw(&moves, "{not json").await,
        StatusCode::BAD_REQUEST,
        "expected a JSON object like",
    );
    assert_error(
        &api.post_raw(&moves, "").await,
        StatusCode::BAD_REQUEST,
        "bad JSON",
    );
    let extra = json!({"token": game.token(1), "move": "a1", "seq": 0, "colour": "red"});
    assert_error(
        &api.post(&moves, &extra).await,
        StatusCode::BAD_REQUEST,
        "unknown field `colour`",
    );
    let missing = json!({"token": game.token(1), "move": "a1"});
    assert_error(
        &api.post(&moves, &missing).await,
        StatusCode::BAD_REQUEST,
        "missing field `seq`",
    );
    let huge = json!({"token": "x".repeat(70 * 1024), "move": "a1", "seq": 0});
    assert_error(
        &api.post(&moves, &huge).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too large",
    );
    let huge_record = json!({"record": "x".repeat(110 * 1024)});
    assert_error(
        &api.post("/api/games", &huge_record).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too large",
    );
    // The server keeps serving after all of that, on a new connection: the server closes one
    // whose body it refused unread, and the client's pool may not have noticed yet.
    let fresh = reqwest::get(api.url(&format!("/api/games/{}", game.id)))
        .await
        .unwrap();
    let snapshot: serde_json::Value = fresh.json().await.unwrap();
    assert_eq!(snapshot["seq"], 0);
}

#[tokio::test]
async fn bad_games_options_players_and_names_are_refused() {
    let api = Api::start();
    let api = &api;
    let create = |body: serde_json::Value| async move { api.post("/api/games", &body).await };
    assert_error(
        &create(json!({"game": "chess"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected one of",
    );
    assert_error(&create(json!({})).await, StatusCode::BAD_REQUEST, "no game");
    assert_error(
        &create(json!({"game": "qawale", "options": {"both_lines": "maybe"}})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "both_lines",
    );
    assert_error(
        &create(json!({"game": "qawale", "options": {"colour": "red"}})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "colour",
    );
    assert_error(
        &create(json!({"game": "qawale", "options": {"both_lines": [1]}})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected a string, a number or a boolean",
    );
    assert_error(
        &create(json!({"game": "splut", "players": ["human", "ai:1", "ai:1"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "3 players for 2 seats",
    );
    assert_error(
        &create(json!({"game": "qawale", "players": ["human", "ai:9"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "player 2",
    );
    assert_error(
        &create(json!({"game": "qawale", "names": ["x".repeat(41)]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at most 40",
    );
    assert_error(
        &create(json!({"game": "qawale", "names": ["a\u{7}b"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "control character",
    );
    let four = api.create(&json!({"game": "splut", "options": {"players": 3}, "players": ["human", "ai:1", "human"]})).await;
    assert_eq!(
        four.tokens.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        [1, 3]
    );
}

#[tokio::test]
async fn unknown_games_routes_methods_and_owner_actions() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "ai:1"]}))
        .await;
    assert_error(
        &api.get("/api/games/nothere").await,
        StatusCode::NOT_FOUND,
        "no game 'nothere'",
    );
    assert_error(
        &api.get("/api/nothing").await,
        StatusCode::NOT_FOUND,
        "no route",
    );
    assert_error(
        &api.post("/api/meta", &json!({})).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "not allowed",
    );
    let control = format!("/api/games/{}/control", game.id);
    assert_error(
        &api.post(&control, &json!({"token": game.token(1), "paused": true}))
            .await,
        StatusCode::FORBIDDEN,
        "owner",
    );
    assert_error(
        &api.post(&control, &json!({"token": game.owner, "speed_ms": 999_999}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "0..=10000",
    );
    assert_error(
        &api.get(&format!("/api/games/{}/record?format=xml", game.id))
            .await,
        StatusCode::BAD_REQUEST,
        "expected json or text",
    );
    assert_error(
        &api.get("/api/games/%FF%FE").await,
        StatusCode::BAD_REQUEST,
        "invalid",
    );
    assert_error(
        &api.get(&format!("/api/games/{}/ws", game.id)).await,
        StatusCode::BAD_REQUEST,
        "expected a WebSocket upgrade",
    );
    let undo = format!("/api/games/{}/undo", game.id);
    assert_error(
        &api.post(&undo, &json!({"token": game.token(1), "seq": 0}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "nothing to undo",
    );
}

#[tokio::test]
async fn odd_inputs_on_every_route_get_a_json_error_and_the_server_serves_on() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "splut", "options": {"players": 3}}))
        .await;
    let token = game.token(1).to_string();
    let bodies = [
        "null".to_string(),
        "[]".to_string(),
        "17".to_string(),
        "\"text\"".to_string(),
        "{\"token\":null}".to_string(),
        json!({"token": token, "move": "\u{0}\u{202e}", "seq": 0}).to_string(),
        json!({"token": token, "move": "Sd1-d2", "seq": -1}).to_string(),
        json!({"token": token, "move": "Sd1-d2", "seq": 1e99}).to_string(),
        json!({"token": token, "seq": 0, "scope": "galaxy"}).to_string(),
        json!({"token": token, "paused": "yes"}).to_string(),
        json!({"game": "splut", "options": {"players": 99}}).to_string(),
        json!({"game": "splut", "record": "splut 1\nsize 999"}).to_string(),
        json!({"record": 42}).to_string(),
        "{\"token\":\"\u{1F600}\"".to_string(),
    ];
    let routes = ["moves", "undo", "redo", "resign", "hint", "control"]
        .map(|action| format!("/api/games/{}/{action}", game.id));
    for route in routes.iter().map(String::as_str).chain(["/api/games"]) {
        for body in &bodies {
            let (status, answer) = api.post_raw(route, body.clone()).await;
            assert!(
                status.is_client_error(),
                "{route} {body}: {status} {answer}"
            );
            let message = answer["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{answer}"));
            assert!(!message.is_empty() && !message.contains('\n'), "{message}");
        }
    }
    assert_eq!(api.snapshot(&game.id).await["seq"], 0);
}
