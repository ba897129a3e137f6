//! Between people (seats given by invitation): undo only through a takeback request the other
//! side accepts, both ways; a declined request changes nothing, both ways; within an
//! unfinished turn the mover still takes back their own steps.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, Api, Created, Dice};

/// A game of `game` with seat 2 given by invitation and claimed: id and both tokens.
pub async fn between_people(api: &Api, game: &str) -> (String, [String; 2]) {
    let (_, created) = api
        .post("/api/games", &json!({"game": game, "invite": [2]}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let first = created["seats"][0]["token"].as_str().unwrap().to_string();
    let invite = &created["invites"][0]["invite"];
    let (status, claimed) = api
        .post(
            &format!("/api/games/{id}/claim"),
            &json!({"seat": 2, "invite": invite}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    let second = claimed["token"].as_str().unwrap().to_string();
    (id, [first, second])
}

async fn post(api: &Api, id: &str, route: &str, body: &Value) -> (StatusCode, Value) {
    api.post(&format!("/api/games/{id}/{route}"), body).await
}

async fn play(api: &Api, id: &str, token: &str, notation: &str) -> Value {
    let seq = api.snapshot(id).await["seq"].clone();
    let body = json!({"token": token, "move": notation, "seq": seq});
    let (status, after) = post(api, id, "moves", &body).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    after
}

/// Seat 1 plays `b4-c5`, seat 2 a random reply: the game between people and the reply.
async fn two_turns(api: &Api) -> (String, [String; 2], String) {
    let (id, [first, second]) = between_people(api, "replica").await;
    let after = play(api, &id, &first, "b4-c5").await;
    let reply = Dice(2).legal(&after);
    play(api, &id, &second, &reply).await;
    (id, [first, second], reply)
}

async fn ask(api: &Api, id: &str, token: &str) -> (StatusCode, Value) {
    post(
        api,
        id,
        "offer",
        &json!({"token": token, "kind": "takeback"}),
    )
    .await
}

async fn answer(api: &Api, id: &str, token: &str, accept: bool) -> Value {
    let (status, answered) = post(
        api,
        id,
        "answer",
        &json!({"token": token, "accept": accept}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    answered
}

#[tokio::test]
async fn undo_is_refused_and_a_declined_takeback_changes_nothing() {
    let api = Api::start();
    let (id, [first, second], reply) = two_turns(&api).await;
    let seq = api.snapshot(&id).await["seq"].clone();
    let refused = post(&api, &id, "undo", &json!({"token": first, "seq": seq})).await;
    assert_error(&refused, StatusCode::FORBIDDEN, "takeback");
    assert_eq!(
        ask(&api, &id, "x").await.0,
        StatusCode::FORBIDDEN,
        "a spectator asks nothing"
    );

    let (status, asked) = ask(&api, &id, &first).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(
        asked["offer"],
        json!({"kind": "takeback", "from": 1, "waiting": [2]})
    );
    let own = post(
        &api,
        &id,
        "answer",
        &json!({"token": first, "accept": true}),
    )
    .await;
    assert_error(&own, StatusCode::FORBIDDEN, "other side");
    assert_eq!(answer(&api, &id, &second, false).await["accepted"], false);
    let snapshot = api.snapshot(&id).await;
    assert_eq!(snapshot["offer"], Value::Null);
    assert_eq!(
        snapshot["moves"],
        json!(["b4-c5", reply]),
        "nothing taken back"
    );
}

#[tokio::test]
async fn a_takeback_declined_by_the_first_seat_changes_nothing() {
    let api = Api::start();
    let (id, [first, second], reply) = two_turns(&api).await;
    let (status, asked) = ask(&api, &id, &second).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(
        asked["offer"],
        json!({"kind": "takeback", "from": 2, "waiting": [1]})
    );
    assert_eq!(
        answer(&api, &id, &first, false).await,
        json!({"accepted": false})
    );
    let snapshot = api.snapshot(&id).await;
    assert_eq!(snapshot["offer"], Value::Null);
    assert_eq!(
        snapshot["seq"], asked["seq"],
        "a declined request changes no seq"
    );
    assert_eq!(
        snapshot["moves"],
        json!(["b4-c5", reply]),
        "nothing taken back"
    );
}

#[tokio::test]
async fn an_accepted_takeback_goes_back_to_the_asking_seats_turn_both_ways() {
    let api = Api::start();
    let (id, [first, second], reply) = two_turns(&api).await;
    ask(&api, &id, &first).await;
    assert_eq!(answer(&api, &id, &second, true).await["accepted"], true);
    let snapshot = api.snapshot(&id).await;
    assert_eq!(
        snapshot["moves"],
        json!([]),
        "back to the start of seat 1's turn"
    );
    assert_eq!(snapshot["to_move"], 1);

    play(&api, &id, &first, "b4-c5").await;
    play(&api, &id, &second, &reply).await;
    ask(&api, &id, &second).await;
    assert_eq!(answer(&api, &id, &first, true).await["accepted"], true);
    let snapshot = api.snapshot(&id).await;
    assert_eq!(
        snapshot["moves"],
        json!(["b4-c5"]),
        "seat 2's turn taken back"
    );
    assert_eq!(snapshot["to_move"], 2);
}

#[tokio::test]
async fn within_an_unfinished_turn_the_mover_takes_back_their_own_steps() {
    let api = Api::start();
    let (id, [first, second]) = between_people(&api, "qawale").await;
    let snapshot = api.snapshot(&id).await;
    let stack = Dice(4).legal(&snapshot);
    let after = play(&api, &id, &first, &stack).await;
    assert_eq!(after["to_move"], 1, "the turn goes on: {after}");
    let theirs = json!({"token": second, "seq": after["seq"], "scope": "decision"});
    let refused = post(&api, &id, "undo", &theirs).await;
    assert_error(&refused, StatusCode::FORBIDDEN, "takeback");
    let mine = json!({"token": first, "seq": after["seq"], "scope": "decision"});
    let (status, back) = post(&api, &id, "undo", &mine).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["moves"], json!([]));
}

#[tokio::test]
async fn nothing_to_take_back_before_a_turn_and_no_answer_without_a_request() {
    let api = Api::start();
    let (id, [first, second]) = between_people(&api, "replica").await;
    let early = post(
        &api,
        &id,
        "offer",
        &json!({"token": first, "kind": "takeback"}),
    )
    .await;
    assert_error(
        &early,
        StatusCode::UNPROCESSABLE_ENTITY,
        "nothing to take back",
    );
    let peace = post(
        &api,
        &id,
        "offer",
        &json!({"token": first, "kind": "peace"}),
    )
    .await;
    assert_error(
        &peace,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected \"takeback\" or \"draw\"",
    );
    let none = post(
        &api,
        &id,
        "answer",
        &json!({"token": second, "accept": true}),
    )
    .await;
    assert_error(&none, StatusCode::UNPROCESSABLE_ENTITY, "no request");
}

/// Plays one whole turn of the seat to move with random legal decisions; answers the seat.
async fn whole_turn(api: &Api, game: &Created, dice: &mut Dice) -> u64 {
    let mut snapshot = api.snapshot(&game.id).await;
    let seat = snapshot["to_move"].as_u64().expect("a seat to move");
    while snapshot["to_move"].as_u64() == Some(seat) {
        let (status, after) = api.play(game, &snapshot, &dice.legal(&snapshot)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        snapshot = after;
    }
    seat
}

/// A Splut! game of `seats` people after one whole turn each (every token is the creator's).
async fn splut_round(api: &Api, seats: u64) -> (Created, Value) {
    let game = api
        .create(&json!({"game": "splut", "options": {"players": seats}}))
        .await;
    let mut dice = Dice(7);
    for expected in 1..=seats {
        assert_eq!(whole_turn(api, &game, &mut dice).await, expected);
    }
    let played = api.snapshot(&game.id).await;
    assert_eq!(played["to_move"], 1, "{played}");
    (game, played)
}

#[tokio::test]
async fn with_three_seats_a_takeback_needs_every_seat_whose_turn_it_undoes() {
    let api = Api::start();
    let (game, played) = splut_round(&api, 3).await;
    let id = &game.id;
    let (status, asked) = ask(&api, id, game.token(1)).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let partly = answer(&api, id, game.token(2), true).await;
    assert_eq!(partly, json!({"accepted": true, "waiting": [3]}));
    let pending = api.snapshot(id).await;
    assert_eq!(
        pending["offer"],
        json!({"kind": "takeback", "from": 1, "accepted": [2], "waiting": [3]})
    );
    assert_eq!(
        (&pending["moves"], &pending["seq"]),
        (&played["moves"], &played["seq"]),
        "one acceptance takes nothing back"
    );
    let twice = post(
        &api,
        id,
        "answer",
        &json!({"token": game.token(2), "accept": true}),
    )
    .await;
    assert_error(&twice, StatusCode::UNPROCESSABLE_ENTITY, "already answered");
    let done = answer(&api, id, game.token(3), true).await;
    assert_eq!(done["accepted"], true, "{done}");
    let back = api.snapshot(id).await;
    assert_eq!(
        back["moves"],
        json!([]),
        "back to the start of seat 1's turn"
    );
    assert_eq!(back["to_move"], 1);
}

#[tokio::test]
async fn with_four_seats_the_seats_whose_turns_are_undone_answer_and_one_may_decline() {
    let api = Api::start();
    let (game, played) = splut_round(&api, 4).await;
    let id = &game.id;
    let (status, _) = ask(&api, id, game.token(2)).await;
    assert_eq!(status, StatusCode::OK);
    let partly = answer(&api, id, game.token(4), true).await;
    assert_eq!(partly, json!({"accepted": true, "waiting": [3]}));
    let outsider = post(
        &api,
        id,
        "answer",
        &json!({"token": game.token(1), "accept": true}),
    )
    .await;
    assert_error(
        &outsider,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected an answer from seat 3",
    );
    assert_eq!(api.snapshot(id).await["moves"], played["moves"]);
    let done = answer(&api, id, game.token(3), true).await;
    assert_eq!(done["accepted"], true, "{done}");
    let back = api.snapshot(id).await;
    let moves = played["moves"].as_array().unwrap();
    assert_eq!(
        back["moves"],
        json!([moves[0]]),
        "seats 2 to 4's turns taken back"
    );
    assert_eq!(back["to_move"], 2);

    whole_turn(&api, &game, &mut Dice(9)).await;
    ask(&api, id, game.token(2)).await;
    assert_eq!(
        answer(&api, id, game.token(3), false).await,
        json!({"accepted": false})
    );
    let kept = api.snapshot(id).await;
    assert_eq!(kept["offer"], Value::Null, "one refusal ends the request");
    assert_eq!(kept["moves"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_takeback_never_brings_back_a_seat_that_left_the_game() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "splut", "options": {"players": 3}}))
        .await;
    let mut dice = Dice(7);
    whole_turn(&api, &game, &mut dice).await;
    whole_turn(&api, &game, &mut dice).await;
    let resign = json!({"token": game.token(3)});
    let (status, left) = post(&api, &game.id, "resign", &resign).await;
    assert_eq!(status, StatusCode::OK, "{left}");
    assert_eq!(left["outcome"], Value::Null, "two seats play on: {left}");
    let refused = ask(&api, &game.id, game.token(1)).await;
    assert_error(&refused, StatusCode::UNPROCESSABLE_ENTITY, "left the game");
    whole_turn(&api, &game, &mut dice).await;
    let (status, asked) = ask(&api, &game.id, game.token(1)).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a turn played since may be taken back: {asked}"
    );
}

#[tokio::test]
async fn a_takeback_nobody_could_answer_is_refused() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "ai:1"]}))
        .await;
    let start = api.snapshot(&game.id).await;
    let first = start["legal"][0].as_str().unwrap().to_string();
    let (status, _) = api.play(&game, &start, &first).await;
    assert_eq!(status, StatusCode::OK);
    api.wait_for(&game.id, |s| s["to_move"] == 1).await;
    let refused = ask(&api, &game.id, game.token(1)).await;
    assert_error(
        &refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no other person",
    );
    assert_eq!(api.snapshot(&game.id).await["offer"], Value::Null);
}
