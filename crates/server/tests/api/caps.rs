//! Caps that never fill for good: many addresses at their per-client cap leave room for a new
//! client; a full server answers 503 and keeps serving its games; abandoned games end (against
//! the computer and between people, and the end survives a restart); a restart loads only the
//! games in progress while finished ones stay readable; lists come in pages; private games are
//! in no list.

use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, connect, next_of, Api, Created, Dice};

/// A client whose requests come from `127.0.0.N`: the server sees another client.
fn client_from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .build()
        .unwrap()
}

/// `POST /api/games` with `body` from `127.0.0.N`.
async fn create_from(api: &Api, n: u8, body: &Value) -> (StatusCode, Value) {
    let response = client_from(n)
        .post(api.url("/api/games"))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Polls game `id` until it is over (by itself: a sweep or a computer).
async fn wait_for_outcome(api: &Api, id: &str) -> Value {
    api.wait_for(id, |s| !s["outcome"].is_null()).await["outcome"].clone()
}

/// Two people on this machine: both tokens known.
const PEOPLE: &str = r#"{"game": "replica", "players": ["human", "human"]}"#;

#[tokio::test]
async fn two_hundred_addresses_at_their_cap_leave_room_for_a_new_client() {
    let api = Api::with(Config {
        games_per_client: 3,
        max_games_in_progress: 700,
        ..Config::default()
    });
    let body = json!({"game": "replica"});
    let clients = (10..=209).map(|n| {
        let (api, body) = (&api, &body);
        async move {
            let mut statuses = Vec::new();
            for _ in 0..4 {
                statuses.push(create_from(api, n, body).await.0);
            }
            statuses
        }
    });
    for statuses in join_all(clients).await {
        assert_eq!(
            statuses,
            [
                StatusCode::CREATED,
                StatusCode::CREATED,
                StatusCode::CREATED,
                StatusCode::TOO_MANY_REQUESTS
            ]
        );
    }
    let (status, created) = create_from(&api, 250, &serde_json::from_str(PEOPLE).unwrap()).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let game = Created {
        id: created["id"].as_str().unwrap().to_string(),
        owner: created["owner"].as_str().unwrap().to_string(),
        tokens: (1..=2)
            .map(|seat| {
                (
                    seat,
                    created["seats"][seat as usize - 1]["token"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                )
            })
            .collect(),
    };
    let mut dice = Dice(7);
    let mut snapshot = api.snapshot(&game.id).await;
    for _ in 0..6 {
        let notation = dice.legal(&snapshot);
        let (status, next) = api.play(&game, &snapshot, &notation).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        snapshot = next;
    }
    assert_eq!(snapshot["seq"], 6, "the new client played: {snapshot}");
}

#[tokio::test]
async fn a_full_server_answers_503_keeps_serving_and_empties_as_games_are_abandoned() {
    let api = Api::with(Config {
        games_per_client: 3,
        max_games_in_progress: 6,
        abandon_after_seconds: 2.0,
        ..Config::default()
    });
    let body = json!({"game": "replica"});
    let mut held = Vec::new();
    let mut full = None;
    for n in 20..60 {
        let answer = create_from(&api, n, &body).await;
        if answer.0 == StatusCode::CREATED {
            held.push(answer.1["id"].as_str().unwrap().to_string());
        } else {
            full = Some(answer);
            break;
        }
    }
    let full = full.expect("the total cap is reached");
    assert_error(
        &full,
        StatusCode::SERVICE_UNAVAILABLE,
        "games in progress, its limit",
    );
    for id in &held {
        assert_eq!(api.get(&format!("/api/games/{id}")).await.0, StatusCode::OK);
    }
    let start = Instant::now();
    let again = loop {
        let answer = create_from(&api, 100, &body).await;
        if answer.0 != StatusCode::SERVICE_UNAVAILABLE {
            break answer;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "never emptied");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(again.0, StatusCode::CREATED, "{}", again.1);
    let outcome = wait_for_outcome(&api, &held[0]).await;
    assert_eq!(outcome["winner"], 2, "seat 1 was to move: {outcome}");
}

#[tokio::test]
async fn abandoned_games_end_as_on_time_and_stay_ended_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = |abandon_after_seconds| Config {
        db: Some(dir.path().join("games.sqlite3")),
        abandon_after_seconds,
        ..Config::default()
    };
    // Three seconds: the games below are set up (a move played, a socket opened) well
    // within it, even on a busy machine.
    let api = Api::with(config(3.0));
    let computer = api
        .create(&json!({"game": "replica", "players": ["ai:1", "human"]}))
        .await;
    api.wait_for(&computer.id, |s| s["to_move"] == 2).await;
    let people = api.create(&serde_json::from_str(PEOPLE).unwrap()).await;
    let first = api.snapshot(&people.id).await;
    let moved = api.play(&people, &first, &Dice(3).legal(&first)).await;
    assert_eq!(moved.0, StatusCode::OK, "{}", moved.1);
    assert_eq!(moved.1["to_move"], 2);
    let watched = api.create(&serde_json::from_str(PEOPLE).unwrap()).await;
    let mut socket = connect(&api, &watched.id, Some(watched.token(1))).await;
    next_of(&mut socket, "snapshot").await;

    let against_computer = wait_for_outcome(&api, &computer.id).await;
    assert_eq!(against_computer["winner"], 1, "{against_computer}");
    let between_people = wait_for_outcome(&api, &people.id).await;
    assert_eq!(
        between_people["winner"], 1,
        "seat 2 was to move and away: {between_people}"
    );
    assert!(
        api.snapshot(&watched.id).await["outcome"].is_null(),
        "a game with a person connected is not abandoned"
    );
    drop(socket);
    drop(api);

    let api = Api::with(config(0.0));
    assert_eq!(wait_for_outcome(&api, &people.id).await, between_people);
    assert_eq!(wait_for_outcome(&api, &computer.id).await, against_computer);
}

#[tokio::test]
async fn a_restart_loads_only_games_in_progress_and_finished_ones_stay_readable() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    let over = api.create(&json!({"game": "qawale"})).await;
    let (status, _) = api
        .post(
            &format!("/api/games/{}/resign", over.id),
            &json!({"token": over.token(1)}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let playing = api.create(&json!({"game": "qawale"})).await;
    let before = api.snapshot(&over.id).await;
    drop(api);

    let api = Api::with(config());
    let (_, list) = api.get("/api/games").await;
    let listed: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [playing.id.as_str()],
        "only the game in progress is held"
    );
    let after = api.snapshot(&over.id).await;
    assert_eq!(after["outcome"], before["outcome"]);
    assert_eq!(after["position"], before["position"]);
    let (status, _, record) = api
        .get_text(&format!("/api/games/{}/record", over.id))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(record.contains("\"result\""), "{record}");
    let resign = api
        .post(
            &format!("/api/games/{}/resign", over.id),
            &json!({"token": over.token(2)}),
        )
        .await;
    assert_error(&resign, StatusCode::CONFLICT, "kept on disk only");
    let mut socket = connect(&api, &over.id, Some(over.token(1))).await;
    let frame = next_of(&mut socket, "snapshot").await;
    assert_eq!(
        frame["snapshot"]["outcome"], before["outcome"],
        "its page still opens"
    );
    let (status, _) = crate::owner::delete(&api, &over.id, &over.owner).await;
    assert_eq!(status, StatusCode::OK, "its owner still deletes it");
    assert_eq!(
        api.get(&format!("/api/games/{}", over.id)).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn finished_games_pushed_out_of_memory_are_read_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::with(Config {
        db: Some(dir.path().join("games.sqlite3")),
        max_games: 2,
        ..Config::default()
    });
    let mut finished = Vec::new();
    for _ in 0..3 {
        let game = api.create(&json!({"game": "qawale"})).await;
        let resign = json!({"token": game.token(2)});
        let (status, _) = api
            .post(&format!("/api/games/{}/resign", game.id), &resign)
            .await;
        assert_eq!(status, StatusCode::OK);
        finished.push(game.id);
    }
    let (_, list) = api.get("/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 2, "{list}");
    for id in &finished {
        let snapshot = api.snapshot(id).await;
        assert_eq!(snapshot["outcome"]["winner"], 1, "{snapshot}");
    }
}

#[tokio::test]
async fn the_list_pages_through_every_game_once_and_bad_pages_are_refused() {
    let api = Api::start();
    let mut created = HashSet::new();
    for _ in 0..5 {
        created.insert(api.create(&json!({"game": "qawale"})).await.id);
    }
    let mut seen = Vec::new();
    let mut path = "/api/games?limit=2".to_string();
    loop {
        let (status, page) = api.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let games = page["games"].as_array().unwrap();
        assert!(games.len() <= 2, "{page}");
        seen.extend(games.iter().map(|g| g["id"].as_str().unwrap().to_string()));
        match page["next"].as_str() {
            Some(next) => path = format!("/api/games?limit=2&before={next}"),
            None => break,
        }
    }
    assert_eq!(seen.len(), 5, "no repeats: {seen:?}");
    assert_eq!(seen.iter().cloned().collect::<HashSet<_>>(), created);
    assert_eq!(seen[0], api.get("/api/games").await.1["games"][0]["id"]);

    for bad in [
        "limit=0",
        "limit=201",
        "limit=two",
        "before=nonsense",
        "before=1.a%2Fb",
    ] {
        let answer = api.get(&format!("/api/games?{bad}")).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "expected");
    }
    let (status, lobby) = api.get("/api/lobby?group=in_progress&limit=3").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(lobby["in_progress"].as_array().unwrap().len(), 3, "{lobby}");
    let next = lobby["next"]["in_progress"].as_str().unwrap();
    let (_, rest) = api
        .get(&format!(
            "/api/lobby?group=in_progress&limit=3&before={next}"
        ))
        .await;
    assert_eq!(rest["in_progress"].as_array().unwrap().len(), 2, "{rest}");
    assert!(rest["next"]["in_progress"].is_null());
    for bad in ["limit=500", "group=all", &format!("before={next}")] {
        let answer = api.get(&format!("/api/lobby?{bad}")).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "expected");
    }
}

#[tokio::test]
async fn a_private_game_is_in_no_list() {
    let api = Api::start();
    let private = api
        .create(&json!({"game": "qawale", "private": true}))
        .await;
    let public = api.create(&json!({"game": "qawale"})).await;
    let (_, list) = api.get("/api/games").await;
    let (_, lobby) = api.get("/api/lobby").await;
    let text = format!("{list} {lobby}");
    assert!(text.contains(&public.id), "{text}");
    assert!(!text.contains(&private.id), "{text}");
    assert_eq!(
        api.snapshot(&private.id).await["seq"],
        0,
        "its link still leads to it"
    );
}

#[tokio::test]
async fn a_client_may_create_only_so_many_games_a_day() {
    let api = Api::with(Config {
        games_per_client: 0,
        games_per_client_per_day: 3,
        ..Config::default()
    });
    for _ in 0..3 {
        let game = api.create(&json!({"game": "qawale"})).await;
        let resign = json!({"token": game.token(1)});
        api.post(&format!("/api/games/{}/resign", game.id), &resign)
            .await;
    }
    let over = api.post("/api/games", &json!({"game": "qawale"})).await;
    assert_error(&over, StatusCode::TOO_MANY_REQUESTS, "in the last day");
    let elsewhere = create_from(&api, 4, &json!({"game": "qawale"})).await;
    assert_eq!(elsewhere.0, StatusCode::CREATED, "another client creates");
}
