//! Undo and redo (one decision, or a whole turn, also against the computer) and the controls
//! of games between computers (pause, step, speed).

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{Api, Created, Dice};

async fn history(api: &Api, game: &Created, route: &str, scope: &str, seq: &Value) -> Value {
    let body = json!({"token": game.owner, "seq": seq, "scope": scope});
    let (status, snapshot) = api
        .post(&format!("/api/games/{}/{route}", game.id), &body)
        .await;
    assert_eq!(status, StatusCode::OK, "{route} {scope}: {snapshot}");
    snapshot
}

/// Plays random decisions until `seat` is no longer to move.
async fn finish_turn(api: &Api, game: &Created, mut snapshot: Value, dice: &mut Dice) -> Value {
    let seat = snapshot["to_move"].clone();
    while snapshot["to_move"] == seat && snapshot["outcome"].is_null() {
        let notation = dice.legal(&snapshot);
        snapshot = api.play(game, &snapshot, &notation).await.1;
    }
    snapshot
}

#[tokio::test]
async fn undo_and_redo_a_decision_inside_a_turn_and_whole_turns() {
    let api = Api::start();
    let game = api.create(&json!({"game": "qawale"})).await;
    let start = api.snapshot(&game.id).await;
    let mut dice = Dice(1);
    let first = dice.legal(&start);
    let (_, mid) = api.play(&game, &start, &first).await;
    assert_eq!(mid["to_move"], 1, "a Qawale turn has several decisions");
    assert_eq!(mid["history"][0]["complete"], false);

    let undone = history(&api, &game, "undo", "decision", &mid["seq"]).await;
    assert_eq!(undone["position"], start["position"]);
    assert_eq!(
        (undone["can_undo"].clone(), undone["can_redo"].clone()),
        (json!(false), json!(true))
    );
    let redone = history(&api, &game, "redo", "decision", &undone["seq"]).await;
    assert_eq!(redone["position"], mid["position"]);

    let after_one = finish_turn(&api, &game, redone, &mut dice).await;
    let after_two = finish_turn(&api, &game, after_one.clone(), &mut dice).await;
    assert_eq!(after_two["moves"].as_array().unwrap().len(), 2);
    let back_one = history(&api, &game, "undo", "turn", &after_two["seq"]).await;
    assert_eq!(back_one["position"], after_one["position"]);
    let back_two = history(&api, &game, "undo", "turn", &back_one["seq"]).await;
    assert_eq!(back_two["position"], start["position"]);
    let forward = history(&api, &game, "redo", "turn", &back_two["seq"]).await;
    assert_eq!(forward["position"], after_one["position"]);
}

#[tokio::test]
async fn undo_against_the_computer_takes_back_its_reply_too() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "ai:1"]}))
        .await;
    let start = api.snapshot(&game.id).await;
    let notation = Dice(4).legal(&start);
    api.play(&game, &start, &notation).await;
    let replied = api
        .wait_for(&game.id, |s| {
            s["to_move"] == 1 && s["moves"].as_array().unwrap().len() == 2
        })
        .await;
    assert_eq!(
        replied["analysis"]["seat"], 2,
        "the computer's decision leaves its analysis"
    );
    let body = json!({"token": game.token(1), "seq": replied["seq"]});
    let (status, undone) = api
        .post(&format!("/api/games/{}/undo", game.id), &body)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(undone["position"], start["position"]);
    assert_eq!(undone["to_move"], 1);
    assert!(
        undone["thinking"].is_null(),
        "the person is to move: no search"
    );
    let redone = history(&api, &game, "redo", "turn", &undone["seq"]).await;
    assert_eq!(redone["position"], replied["position"]);
}

#[tokio::test]
async fn computers_pause_step_and_take_back_when_told() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "qawale", "players": ["ai:1", "ai:1"], "speed_ms": 10000}))
        .await;
    assert!(game.tokens.is_empty(), "no human seat, no seat token");
    let control = format!("/api/games/{}/control", game.id);
    let (status, paused) = api
        .post(
            &control,
            &json!({"token": game.owner, "paused": true, "speed_ms": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{paused}");
    assert_eq!(
        (paused["paused"].clone(), paused["thinking"].clone()),
        (json!(true), Value::Null)
    );
    api.post(&control, &json!({"token": game.owner, "step": true}))
        .await;
    let stepped = api
        .wait_for(&game.id, |s| {
            s["history"].as_array().unwrap().len() == 1 && s["thinking"].is_null()
        })
        .await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    let still = api.snapshot(&game.id).await;
    assert_eq!(
        still["position"], stepped["position"],
        "paused: one step only"
    );
    let undone = history(&api, &game, "undo", "decision", &still["seq"]).await;
    assert_eq!(undone["moves"], json!([]));
    assert_eq!(undone["paused"], true);
    api.post(&control, &json!({"token": game.owner, "paused": false}))
        .await;
    let done = api.wait_for(&game.id, |s| !s["outcome"].is_null()).await;
    assert!(done["outcome"]["summary"].is_string(), "{done}");
}

/// A knock-out in a game of three is kept in the snapshot (`seats[].out`: the turn that did it
/// and who played it), so a page opened later can say it; taking the turn back takes it away.
#[tokio::test]
async fn a_knock_out_names_its_turn_until_taken_back() {
    let api = Api::start();
    // Splut!'s §9.9: South's troll throws the rock on c4 north onto West's sorcerer on c7.
    let position = "size=9 seats=south,west,north tomove=south turn=6 used=1 lev=unused locked=-
south: Sd2 De2 Td4\nwest: Sc7 Db5 Tb4\nnorth: Sf8 De8 Td8\nrocks: c4 e1 e9 i5";
    let record = json!({"format": 1, "game": "splut", "options": {"players": 3},
        "position": position, "moves": []});
    let game = api
        .create(&json!({"record": record, "players": ["human", "human", "human"]}))
        .await;
    let start = api.snapshot(&game.id).await;
    assert!(
        start["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("out").is_none()),
        "{start}"
    );
    let throw = start["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|m| m.starts_with("Td4-c4*n"))
        .expect("the throw is legal")
        .to_string();
    let (status, after) = api.play(&game, &start, &throw).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(
        after["seats"][1]["out"],
        json!({"turn": 1, "by": 1}),
        "{after}"
    );
    assert!(
        after["seats"][2].get("out").is_none(),
        "North plays on: {after}"
    );
    assert_eq!(
        api.snapshot(&game.id).await["seats"][1]["out"],
        after["seats"][1]["out"]
    );
    let back = history(&api, &game, "undo", "turn", &after["seq"]).await;
    assert!(back["seats"][1].get("out").is_none(), "taken back: {back}");
}
