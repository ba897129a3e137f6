//! Searches shared fairly between clients (distinct loopback addresses): one client's deep
//! searches and hints do not delay another's computer replies or hints, a client's waiting
//! hints are capped, specs over the memory cap are refused, and a hint cancelled while it
//! waits never runs.

use std::net::{IpAddr, Ipv4Addr};

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{assert_error, Api, Dice};

/// A client that connects from 127.0.0.`n`.
fn client_from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .build()
        .unwrap()
}

async fn post(
    client: &reqwest::Client,
    api: &Api,
    path: &str,
    body: &Value,
) -> (StatusCode, Value) {
    let response = client.post(api.url(path)).json(body).send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn create(client: &reqwest::Client, api: &Api, body: &Value) -> Value {
    let (status, created) = post(client, api, "/api/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    created
}

/// Decisions played so far in `games`.
async fn played(api: &Api, games: &[String]) -> usize {
    let mut total = 0;
    for id in games {
        total += api.snapshot(id).await["moves"].as_array().unwrap().len();
    }
    total
}

/// Client A keeps the only search slot busy with three games between deep searchers. Each
/// search takes a second: the test counts those that end while B waits for an answer, and a
/// busy machine may stretch B's few requests to several tenths of a second.
async fn flood(api: &Api, a: &reqwest::Client) -> Vec<String> {
    let mut games = Vec::new();
    for _ in 0..3 {
        let body = json!({"game": "replica", "speed_ms": 0,
                          "players": ["ai:4:time=1", "ai:4:time=1"]});
        games.push(
            create(a, api, &body).await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    games
}

#[tokio::test]
async fn another_clients_replies_and_hints_do_not_wait_behind_a_flood_of_searches() {
    let api = Api::with(Config {
        search_threads: 1,
        ..Config::default()
    });
    let (a, b) = (client_from(2), client_from(3));
    let flooded = flood(&api, &a).await;
    let mine = create(
        &b,
        &api,
        &json!({"game": "replica", "players": ["human", "ai:1"]}),
    )
    .await;
    let id = mine["id"].as_str().unwrap();
    let token = mine["seats"][0]["token"].as_str().unwrap();
    let mut dice = Dice(5);
    for _ in 0..3 {
        let snapshot = api.snapshot(id).await;
        let body = json!({"token": token, "move": dice.legal(&snapshot), "seq": snapshot["seq"]});
        let before = played(&api, &flooded).await;
        let (status, moved) = post(&b, &api, &format!("/api/games/{id}/moves"), &body).await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        api.wait_for(id, |s| s["to_move"] == 1 && s["thinking"].is_null())
            .await;
        let during = played(&api, &flooded).await - before;
        // A always has a search running and two waiting: a reply queued behind them would
        // see at least two of them end first.
        assert!(
            during <= 1,
            "{during} of A's searches ended before B's level-1 reply"
        );
    }
    // A hint searches deeply and needs the slot: B, who used almost nothing, is served as soon
    // as the running search ends, before A's waiting ones. Behind them it would see the running
    // search and both waiting ones end (3); one more than the running search may end when it
    // ends between the count and the request, and the slot goes on to A's next.
    let before = played(&api, &flooded).await;
    let (status, hint) = post(
        &b,
        &api,
        &format!("/api/games/{id}/hint"),
        &json!({"token": token}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let during = played(&api, &flooded).await - before;
    assert!(
        during <= 2,
        "{during} of A's searches ended before B's hint"
    );
    assert!(
        played(&api, &flooded).await > 0,
        "A's games were searching all along"
    );
}

#[tokio::test]
async fn a_spec_over_the_memory_cap_is_refused_naming_the_cap() {
    let api = Api::with(Config {
        max_hash_mb: 8,
        search_threads: 2,
        ..Config::default()
    });
    let over = json!({"game": "replica", "players": ["human", "ai:4:hash=1024"]});
    let answer = api.post("/api/games", &over).await;
    assert_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected hash at most 8",
    );
    let tree = json!({"game": "replica", "players": ["human", "ai:mcts:tree=67108864"]});
    let answer = api.post("/api/games", &tree).await;
    assert_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected tree at most 131072",
    );
    let threads = json!({"game": "replica", "players": ["human", "ai:5:threads=64"]});
    let answer = api.post("/api/games", &threads).await;
    assert_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected threads at most 2",
    );
    api.create(&json!({"game": "replica", "players": ["human", "ai:4:hash=8"]}))
        .await;
}

#[tokio::test]
async fn over_its_queue_cap_a_clients_hint_is_refused_and_another_clients_is_served() {
    let api = std::sync::Arc::new(Api::with(Config {
        search_threads: 1,
        // Long enough that the six hints have all arrived while the first still searches.
        hint_seconds: 2.0,
        max_queued_hints: 4,
        ..Config::default()
    }));
    let (a, b) = (client_from(2), client_from(3));
    let (answers, mut answered) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..3 {
        // A game on one screen: hints allowed, two at once per game.
        let game = create(
            &a,
            &api,
            &json!({"game": "replica", "players": ["human", "human"]}),
        )
        .await;
        let path = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
        let body = json!({"token": game["seats"][0]["token"]});
        for _ in 0..2 {
            let (api, a, answers, path, body) = (
                api.clone(),
                a.clone(),
                answers.clone(),
                path.clone(),
                body.clone(),
            );
            tokio::spawn(async move {
                let _ = answers.send(post(&a, &api, &path, &body).await);
            });
        }
    }
    // One hint searches, four wait: the sixth is refused at once.
    let refused = answered.recv().await.unwrap();
    assert_error(
        &refused,
        StatusCode::TOO_MANY_REQUESTS,
        "expected at most 4 at once",
    );
    let game = create(
        &b,
        &api,
        &json!({"game": "replica", "players": ["human", "human"]}),
    )
    .await;
    let path = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
    let (status, hint) = post(
        &b,
        &api,
        &path,
        &json!({"token": game["seats"][0]["token"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    for _ in 0..5 {
        let (status, hint) = answered.recv().await.unwrap();
        assert_eq!(status, StatusCode::OK, "{hint}");
    }
}

#[tokio::test]
async fn a_hint_cancelled_while_it_waits_never_runs() {
    let api = Api::with(Config {
        search_threads: 1,
        ..Config::default()
    });
    // The computer's long search holds the only slot, well past the hint's arrival.
    let busy = api
        .create(&json!({"game": "replica", "players": ["human", "ai:4:time=8"]}))
        .await;
    let snapshot = api.snapshot(&busy.id).await;
    let notation = Dice(3).legal(&snapshot);
    assert_eq!(
        api.play(&busy, &snapshot, &notation).await.0,
        StatusCode::OK
    );
    let board = api
        .create(&json!({"game": "replica", "players": ["human", "human"]}))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let waiting = tokio::spawn({
        let (url, token) = (
            api.url(&format!("/api/games/{}/hint", board.id)),
            board.token(1).to_string(),
        );
        async move {
            let response = reqwest::Client::new()
                .post(url)
                .json(&json!({"token": token}))
                .send()
                .await
                .unwrap();
            (response.status(), response.json::<Value>().await.unwrap())
        }
    });
    // The hint waits for the slot by then (no answer tells when it starts waiting: a busy
    // machine gets a request to the server within a second).
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(!waiting.is_finished(), "the hint waits for the slot");
    let resign = json!({"token": board.token(1)});
    let (status, _) = api
        .post(&format!("/api/games/{}/resign", board.id), &resign)
        .await;
    assert_eq!(status, StatusCode::OK);
    let answer = waiting.await.unwrap();
    assert_error(
        &answer,
        StatusCode::CONFLICT,
        "the game changed while the hint waited",
    );
}
