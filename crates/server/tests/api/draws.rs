//! Draw offers between people: accepted and declined, offered by either seat, over HTTP and
//! the WebSocket; with three seats in Splut! every other seat still in play must accept.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, connect, next_of, send, Api, Created, Dice};

async fn act(api: &Api, id: &str, route: &str, body: &Value) -> (StatusCode, Value) {
    api.post(&format!("/api/games/{id}/{route}"), body).await
}

/// `token`'s seat offers a draw; the server's answer, whatever it is.
async fn try_offer_draw(api: &Api, id: &str, token: &str) -> (StatusCode, Value) {
    act(api, id, "offer", &json!({"token": token, "kind": "draw"})).await
}

/// `token`'s seat offers a draw, which the server must take.
async fn offer_draw(api: &Api, id: &str, token: &str) -> Value {
    let (status, offered) = try_offer_draw(api, id, token).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    offered
}

/// `token`'s seat answers the waiting offer; the server's answer, whatever it is.
async fn try_answer(api: &Api, id: &str, token: &str, accept: bool) -> (StatusCode, Value) {
    act(
        api,
        id,
        "answer",
        &json!({"token": token, "accept": accept}),
    )
    .await
}

/// `token`'s seat answers the waiting offer, which the server must take.
async fn answer(api: &Api, id: &str, token: &str, accept: bool) -> Value {
    let (status, answered) = try_answer(api, id, token, accept).await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    answered
}

/// A Replica game between two people after one move each.
async fn two_people(api: &Api) -> Created {
    let game = api.create(&json!({"game": "replica"})).await;
    let mut dice = Dice(5);
    for _ in 0..2 {
        let snapshot = api.snapshot(&game.id).await;
        let (status, after) = api.play(&game, &snapshot, &dice.legal(&snapshot)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
    }
    game
}

#[tokio::test]
async fn an_accepted_draw_ends_the_game_drawn_by_agreement_from_either_seat() {
    let api = Api::start();
    for (offering, answering) in [(1, 2), (2, 1)] {
        let game = two_people(&api).await;
        let before = api.snapshot(&game.id).await;
        let asked = offer_draw(&api, &game.id, game.token(offering)).await;
        assert_eq!(
            asked["offer"],
            json!({"kind": "draw", "from": offering, "accepted": [], "waiting": [answering]})
        );
        assert_eq!(asked["seq"], before["seq"], "an offer does not change seq");
        let own = try_answer(&api, &game.id, game.token(offering), true).await;
        assert_error(&own, StatusCode::FORBIDDEN, "other side");

        let answered = answer(&api, &game.id, game.token(answering), true).await;
        assert_eq!(answered, json!({"accepted": true}));
        let after = api.snapshot(&game.id).await;
        assert_eq!(after["outcome"]["winner"], Value::Null, "{after}");
        assert_eq!(after["outcome"]["reason"], "draw by agreement");
        assert!(after["outcome"]["summary"]
            .as_str()
            .unwrap()
            .contains("draw"));
        assert_eq!(after["seq"], before["seq"].as_u64().unwrap() + 1);
        assert_eq!(after["offer"], Value::Null);
        assert_eq!(after["legal"], json!([]));
        let refused = api.play(&game, &before, &Dice(1).legal(&before)).await;
        assert_ne!(refused.0, StatusCode::OK, "no move after the draw");
        let (_, record) = api.get(&format!("/api/games/{}/record", game.id)).await;
        assert_eq!(record["moves"][2], "draw agreed", "{record}");
        assert_eq!(
            record["result"],
            json!({"winner": null, "reason": "draw by agreement"})
        );
    }
}

#[tokio::test]
async fn a_declined_draw_changes_nothing_from_either_seat() {
    let api = Api::start();
    let game = two_people(&api).await;
    for (offering, answering) in [(1, 2), (2, 1)] {
        let before = api.snapshot(&game.id).await;
        offer_draw(&api, &game.id, game.token(offering)).await;
        assert_eq!(
            answer(&api, &game.id, game.token(answering), false).await,
            json!({"accepted": false})
        );
        let after = api.snapshot(&game.id).await;
        assert_eq!(after["offer"], Value::Null);
        assert_eq!(after["outcome"], Value::Null);
        assert_eq!(
            (&after["seq"], &after["moves"]),
            (&before["seq"], &before["moves"])
        );
    }
    let late = try_answer(&api, &game.id, game.token(1), true).await;
    assert_error(&late, StatusCode::UNPROCESSABLE_ENTITY, "no request");
}

#[tokio::test]
async fn a_move_clears_a_waiting_draw_offer() {
    let api = Api::start();
    let game = two_people(&api).await;
    let asked = offer_draw(&api, &game.id, game.token(2)).await;
    let (status, moved) = api.play(&game, &asked, &Dice(3).legal(&asked)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(moved["offer"], Value::Null);
}

#[tokio::test]
async fn with_three_seats_every_other_seat_must_accept() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "splut", "options": {"players": 3}}))
        .await;
    offer_draw(&api, &game.id, game.token(1)).await;
    let partly = answer(&api, &game.id, game.token(2), true).await;
    assert_eq!(partly, json!({"accepted": true, "waiting": [3]}));
    let snapshot = api.snapshot(&game.id).await;
    assert_eq!(
        snapshot["offer"],
        json!({"kind": "draw", "from": 1, "accepted": [2], "waiting": [3]})
    );
    assert_eq!(
        snapshot["outcome"],
        Value::Null,
        "not yet: seat 3 has not answered"
    );
    let twice = try_answer(&api, &game.id, game.token(2), true).await;
    assert_error(&twice, StatusCode::UNPROCESSABLE_ENTITY, "already answered");
    assert_eq!(
        answer(&api, &game.id, game.token(3), true).await,
        json!({"accepted": true})
    );
    let over = api.snapshot(&game.id).await;
    assert_eq!(over["outcome"]["reason"], "draw by agreement", "{over}");
}

#[tokio::test]
async fn against_a_computer_no_draw_is_offered() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "ai:1"]}))
        .await;
    let refused = try_offer_draw(&api, &game.id, game.token(1)).await;
    assert_error(&refused, StatusCode::UNPROCESSABLE_ENTITY, "computer");
}

#[tokio::test]
async fn offers_and_answers_travel_over_the_websocket() {
    let api = Api::start();
    let game = two_people(&api).await;
    let mut first = connect(&api, &game.id, Some(game.token(1))).await;
    let mut second = connect(&api, &game.id, Some(game.token(2))).await;
    next_of(&mut first, "snapshot").await;
    next_of(&mut second, "snapshot").await;
    send(&mut first, &json!({"type": "offer", "kind": "draw"})).await;
    let shown = next_of(&mut second, "snapshot").await;
    assert_eq!(shown["snapshot"]["offer"]["kind"], "draw", "{shown}");
    send(&mut second, &json!({"type": "answer", "accept": true})).await;
    let answered = next_of(&mut second, "answer").await;
    assert_eq!(answered, json!({"type": "answer", "accepted": true}));
    let over = loop {
        let frame = next_of(&mut first, "snapshot").await;
        if !frame["snapshot"]["outcome"].is_null() {
            break frame;
        }
    };
    assert_eq!(over["snapshot"]["outcome"]["reason"], "draw by agreement");

    let spectator = &mut connect(&api, &game.id, None).await;
    send(spectator, &json!({"type": "offer", "kind": "takeback"})).await;
    let refused = next_of(spectator, "error").await;
    assert!(
        refused["error"].as_str().unwrap().contains("watches only"),
        "{refused}"
    );
}
