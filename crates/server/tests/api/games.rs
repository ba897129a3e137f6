//! Whole games of every game through the API, records that replay with the rules, games
//! created from records, older positions, hints, resignation, the meta document, the page's
//! files, and the cap on games held.

use ludus_engine::GameRecord;
use ludus_games::{load_record, new_game, record_from_text, test_setups, GAMES};
use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, Api, Created, Dice};

/// Plays random legal moves until the game ends; checks `seq`, `legal` and `pointing` on the
/// way and returns the final snapshot.
async fn play_out(api: &Api, game: &Created, seed: u64) -> Value {
    let mut dice = Dice(seed);
    let mut snapshot = api.snapshot(&game.id).await;
    for _ in 0..5000 {
        if !snapshot["outcome"].is_null() {
            assert_eq!(snapshot["legal"], json!([]));
            return snapshot;
        }
        let legal = snapshot["legal"].as_array().unwrap();
        assert_eq!(legal.len(), snapshot["pointing"].as_array().unwrap().len());
        let notation = dice.legal(&snapshot);
        let seq = snapshot["seq"].as_u64().unwrap();
        let (status, next) = api.play(game, &snapshot, &notation).await;
        assert_eq!(status, StatusCode::OK, "{notation}: {next}");
        assert_eq!(next["seq"].as_u64().unwrap(), seq + 1);
        snapshot = next;
    }
    panic!("the game did not end: {snapshot}");
}

/// The record downloaded in both formats replays with the rules to the snapshot's position.
async fn assert_record_replays(api: &Api, id: &str, snapshot: &Value) {
    let (status, json_record) = api.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, StatusCode::OK);
    let record = GameRecord::from_json(&json_record.to_string()).unwrap();
    let replayed = load_record(&record).unwrap();
    assert_eq!(replayed.position(), snapshot["position"].as_str().unwrap());
    assert_eq!(replayed.outcome().is_some(), !snapshot["outcome"].is_null());
    let (status, _, text) = api
        .get_text(&format!("/api/games/{id}/record?format=text"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let from_text = load_record(&record_from_text(&text).unwrap()).unwrap();
    assert_eq!(from_text.position(), replayed.position());
}

#[tokio::test]
async fn whole_games_of_every_game_end_and_their_records_replay() {
    let api = Api::start();
    for (seed, (info, pairs)) in test_setups().enumerate() {
        let game = info.id;
        let options: serde_json::Map<String, Value> = pairs
            .iter()
            .map(|pair| pair.split_once('=').expect("a key=value test option"))
            .map(|(key, value)| (key.to_string(), json!(value)))
            .collect();
        let created = api
            .create(&json!({"game": game, "options": options, "seed": 3}))
            .await;
        let list: Vec<String> = pairs.iter().map(ToString::to_string).collect();
        let seats = new_game(game, &list, None, 3).unwrap().seat_count();
        assert_eq!(
            created.tokens.len(),
            seats,
            "{game}: a token per human seat"
        );
        let end = play_out(&api, &created, seed as u64 + 11).await;
        let outcome = &end["outcome"];
        assert!(
            outcome["reason"].as_str().is_some_and(|r| !r.is_empty()),
            "{outcome}"
        );
        assert!(outcome["summary"].as_str().is_some(), "{outcome}");
        assert_record_replays(&api, &created.id, &end).await;
        let (status, _) = api
            .play(&created, &json!({"to_move": 1, "seq": end["seq"]}), "a1")
            .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{game}: moves after the end"
        );
    }
}

#[tokio::test]
async fn a_game_created_from_a_record_continues_where_it_stopped() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "yoxii", "names": ["Ana", "Bo"]}))
        .await;
    let mut dice = Dice(5);
    let mut snapshot = api.snapshot(&game.id).await;
    for _ in 0..6 {
        let notation = dice.legal(&snapshot);
        snapshot = api.play(&game, &snapshot, &notation).await.1;
    }
    let (_, record) = api.get(&format!("/api/games/{}/record", game.id)).await;
    let (_, _, text) = api
        .get_text(&format!("/api/games/{}/record?format=text", game.id))
        .await;
    for source in [
        record.clone(),
        Value::String(record.to_string()),
        Value::String(text),
    ] {
        let copy = api.create(&json!({"record": source})).await;
        let loaded = api.snapshot(&copy.id).await;
        assert_eq!(loaded["moves"], snapshot["moves"]);
        assert_eq!(loaded["position"], snapshot["position"]);
        assert_eq!(loaded["names"], json!(["Ana", "Bo"]));
        assert_eq!(copy.tokens.len(), 2);
    }
    let bad = api
        .post(
            "/api/games",
            &json!({"record": {"format": 1, "game": "yoxii", "options": {}, "moves": ["zz"]}}),
        )
        .await;
    assert_error(&bad, StatusCode::UNPROCESSABLE_ENTITY, "bad record");
}

#[tokio::test]
async fn an_earlier_position_is_shown_by_its_ply() {
    let api = Api::start();
    let game = api.create(&json!({"game": "replica"})).await;
    let start = api.snapshot(&game.id).await;
    let mut snapshot = start.clone();
    let mut dice = Dice(9);
    for _ in 0..3 {
        let notation = dice.legal(&snapshot);
        snapshot = api.play(&game, &snapshot, &notation).await.1;
    }
    assert_eq!(snapshot["history"][2]["ply"], 3);
    let (status, earlier) = api.get(&format!("/api/games/{}/view?ply=0", game.id)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(earlier["position"], start["position"]);
    assert_eq!(earlier["view"]["cells"], start["view"]["cells"]);
    let (_, latest) = api.get(&format!("/api/games/{}/view?ply=3", game.id)).await;
    assert_eq!(latest["view"], snapshot["view"]);
    let out_of_range = api.get(&format!("/api/games/{}/view?ply=4", game.id)).await;
    assert_error(&out_of_range, StatusCode::BAD_REQUEST, "0..=3");
}

#[tokio::test]
async fn hints_resignation_and_the_list_of_games() {
    let api = Api::start();
    let game = api
        .create(&json!({"game": "replica", "players": ["human", "human"], "names": ["Ana"]}))
        .await;
    let snapshot = api.snapshot(&game.id).await;
    let (status, hint) = api
        .post(
            &format!("/api/games/{}/hint", game.id),
            &json!({"token": game.token(1)}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert!(
        snapshot["legal"]
            .as_array()
            .unwrap()
            .contains(&hint["move"]),
        "{hint}"
    );
    assert!(!hint["cells"].as_array().unwrap().is_empty());
    let (status, resigned) = api
        .post(
            &format!("/api/games/{}/resign", game.id),
            &json!({"token": game.token(1)}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(resigned["outcome"]["winner"], 2);
    assert_eq!(resigned["legal"], json!([]));
    let (_, list) = api.get("/api/games").await;
    let entry = &list["games"][0];
    assert_eq!(entry["id"], game.id.as_str());
    assert_eq!(entry["names"][0], "Ana");
    assert_eq!(entry["outcome"]["winner"], 2);
}

#[tokio::test]
async fn meta_lists_every_game_option_and_level() {
    let api = Api::start();
    let (status, meta) = api.get("/api/meta").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = meta["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, GAMES.iter().map(|info| info.id).collect::<Vec<_>>());
    let splut = meta["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "splut")
        .unwrap();
    assert_eq!(splut["seats"], json!({"min": 2, "max": 4}));
    let players = splut["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["key"] == "players")
        .unwrap();
    assert_eq!(players["values"]["kind"], "range");
    assert_eq!(meta["levels"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn the_page_is_served_with_its_content_types() {
    let api = Api::start();
    for path in ["/", "/g/abc123"] {
        let (status, mime, body) = api.get_text(path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(mime.starts_with("text/html"), "{path}: {mime}");
        assert!(body.contains("<html") || body.contains("<!DOCTYPE") || body.contains("<!doctype"));
    }
    let (status, mime, _) = api.get_text("/style.css").await;
    assert_eq!(
        (status, mime.starts_with("text/css")),
        (StatusCode::OK, true),
        "{mime}"
    );
    // Browsers ask for the icon at this path whatever the page says.
    let (status, mime, _) = api.get_text("/favicon.ico").await;
    assert_eq!((status, mime.as_str()), (StatusCode::OK, "image/x-icon"));
    assert_error(
        &api.get("/no-such-file.js").await,
        StatusCode::NOT_FOUND,
        "no file",
    );
}

#[tokio::test]
async fn when_full_the_game_finished_longest_ago_makes_room() {
    let api = Api::with(Config {
        max_games: 2,
        ..Config::default()
    });
    let first = api.create(&json!({"game": "qawale"})).await;
    let _second = api.create(&json!({"game": "qawale"})).await;
    let full = api.post("/api/games", &json!({"game": "qawale"})).await;
    assert_error(&full, StatusCode::SERVICE_UNAVAILABLE, "in progress");
    api.post(
        &format!("/api/games/{}/resign", first.id),
        &json!({"token": first.token(1)}),
    )
    .await;
    api.create(&json!({"game": "qawale"})).await;
    assert_error(
        &api.get(&format!("/api/games/{}", first.id)).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
}
