//! Pairing over real HTTP and WebSockets: a seek seen live and accepted starts one game on
//! both players' lobby sockets (also when two accept at once); a rated game played to its
//! end changes both ratings, shown in the snapshot, the profiles and the leaderboard; quick
//! pairing; a challenge declined; a rematch with the seats swapped; one account's token
//! cannot act on another's offers; rated games refuse takebacks.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::people_support::Person;
use super::support::{assert_error, next_of, Api, Dice, Socket};

/// Plays random legal moves for both seats (their tokens in seat order) until the end.
async fn play_out(api: &Api, id: &str, tokens: &[String], seed: u64) -> Value {
    let mut dice = Dice(seed);
    loop {
        let snapshot = api.snapshot(id).await;
        let Some(seat) = snapshot["to_move"].as_u64() else {
            return snapshot;
        };
        let token = &tokens[usize::try_from(seat).unwrap() - 1];
        let body = json!({"token": token, "move": dice.legal(&snapshot), "seq": snapshot["seq"]});
        let (status, answer) = api.post(&format!("/api/games/{id}/moves"), &body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
}

/// The `started` frame a lobby socket gets: (game, seat, token).
pub(super) async fn started(socket: &mut Socket) -> (String, u64, String) {
    let frame = next_of(socket, "started").await;
    (
        frame["game"].as_str().unwrap().to_string(),
        frame["seat"].as_u64().unwrap(),
        frame["token"].as_str().unwrap().to_string(),
    )
}

/// The two players' tokens in seat order, from their `started` frames.
pub(super) fn in_seat_order(a: &(String, u64, String), b: &(String, u64, String)) -> Vec<String> {
    assert_eq!(a.0, b.0, "one game");
    assert_ne!(a.1, b.1, "two seats");
    if a.1 == 1 {
        vec![a.2.clone(), b.2.clone()]
    } else {
        vec![b.2.clone(), a.2.clone()]
    }
}

#[tokio::test]
async fn a_seek_seen_live_and_accepted_starts_the_game_on_both_sockets() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let mut ana_lobby = ana.lobby(&api).await;
    let mut bob_lobby = bob.lobby(&api).await;
    assert_eq!(next_of(&mut bob_lobby, "seeks").await["seeks"], json!([]));
    let seek = json!({"game": "qawale", "rated": true, "clock": {"initial_ms": 300_000, "increment_ms": 3000}});
    let (status, posted) = ana.post("/api/seeks", &seek).await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let seen = next_of(&mut bob_lobby, "seek").await;
    assert_eq!(
        seen["seek"]["by"],
        json!({"name": "Ana", "bot": false, "rating": "1500?"})
    );
    assert_eq!(seen["seek"]["class"], "fast");
    let id = seen["seek"]["id"].as_str().unwrap();
    let (status, answer) = bob
        .post(&format!("/api/seeks/{id}/accept"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let for_ana = started(&mut ana_lobby).await;
    let for_bob = started(&mut bob_lobby).await;
    assert_eq!(answer["game"], for_bob.0.as_str());
    assert_eq!(answer["token"], for_bob.2.as_str());
    in_seat_order(&for_ana, &for_bob);
    assert_eq!(api.get("/api/seeks").await.1["seeks"], json!([]));
    let snapshot = api.snapshot(&for_ana.0).await;
    assert_eq!(snapshot["rated"], true);
    let names: Vec<&str> = (0..2)
        .map(|i| snapshot["seats"][i]["account"]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Ana") && names.contains(&"Bob"),
        "{names:?}"
    );
    assert_eq!(snapshot["seats"][0]["account"]["rating"], "1500?");
    // Ana finds the game among her own from any browser.
    let (_, mine) = ana.get("/api/account/games").await;
    assert_eq!(mine["games"][0]["id"], for_ana.0.as_str());
}

#[tokio::test]
async fn two_accepting_the_last_seat_at_once_make_one_game() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let cid = Person::sign_up(&api, "Cid").await;
    for round in 0..5 {
        let (_, posted) = ana.post("/api/seeks", &json!({"game": "replica"})).await;
        let path = format!(
            "/api/seeks/{}/accept",
            posted["seek"]["id"].as_str().unwrap()
        );
        let empty = json!({});
        let (b, c) = tokio::join!(bob.post(&path, &empty), cid.post(&path, &empty));
        let mut statuses = [b.0, c.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::CREATED, StatusCode::CONFLICT],
            "round {round}: {b:?} {c:?}"
        );
    }
    let (_, seeks) = api.get("/api/seeks").await;
    assert_eq!(seeks["seeks"], json!([]));
}

#[tokio::test]
async fn a_rated_game_to_its_end_changes_both_ratings_everywhere() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let mut ana_lobby = ana.lobby(&api).await;
    let mut bob_lobby = bob.lobby(&api).await;
    let (status, sent) = ana
        .post(
            "/api/challenges",
            &json!({"to": "bob", "game": "qawale", "rated": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    let incoming = next_of(&mut bob_lobby, "challenge").await;
    assert_eq!(incoming["challenge"]["from"]["name"], "Ana");
    let id = incoming["challenge"]["id"].as_str().unwrap();
    let (status, _) = bob
        .post(&format!("/api/challenges/{id}/accept"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (a, b) = (started(&mut ana_lobby).await, started(&mut bob_lobby).await);
    let tokens = in_seat_order(&a, &b);
    let end = play_out(&api, &a.0, &tokens, 7).await;
    assert_eq!(end["rated"], true);
    let winner = end["outcome"]["winner"].as_u64();
    for seat in 0..2 {
        let change = &end["seats"][seat]["rating_change"];
        let (before, after) = (
            change["before"].as_f64().unwrap(),
            change["after"].as_f64().unwrap(),
        );
        assert!((before - 1500.0).abs() < 1e-9, "{change}");
        match winner {
            Some(w) if w == seat as u64 + 1 => assert!(after > before, "{change}"),
            Some(_) => assert!(after < before, "{change}"),
            None => assert!((after - before).abs() < 1e-6, "{change}"),
        }
    }
    // The profile has the same rating, the game in its history and the result counted.
    let name = end["seats"][0]["account"]["name"].as_str().unwrap();
    let (status, profile) = api.get(&format!("/api/players/{name}")).await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    let line = &profile["ratings"][0];
    assert_eq!(line["game"], "qawale");
    assert_eq!(line["class"], "correspondence", "no clock");
    assert_eq!(line["rating"], end["seats"][0]["rating_change"]["after"]);
    assert_eq!(line["provisional"], true);
    assert_eq!(line["history"][0]["game_id"], a.0.as_str());
    let counted = ["wins", "draws", "losses"]
        .iter()
        .map(|k| line[k].as_i64().unwrap())
        .sum::<i64>();
    assert_eq!(counted, 1);
    assert_eq!(profile["recent"][0]["id"], a.0.as_str());
    // One game leaves both provisional: the leaderboard lists settled ratings only.
    let (status, board) = api
        .get("/api/leaderboard?game=qawale&class=correspondence")
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["players"], json!([]));
}

#[tokio::test]
async fn quick_pairing_pairs_the_second_player_with_the_first() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let mut ana_lobby = ana.lobby(&api).await;
    let (_, pools) = api.get("/api/pools").await;
    let pool = pools["pools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["game"] == "yoxii")
        .unwrap();
    let path = format!("/api/pools/{}/join", pool["id"].as_str().unwrap());
    let (status, waiting) = ana.post(&path, &json!({})).await;
    assert_eq!(
        (status, waiting["waiting"].clone()),
        (StatusCode::OK, json!(true))
    );
    let (_, pools) = api.get("/api/pools").await;
    assert!(pools["pools"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["waiting"] == 1));
    let (status, paired) = bob.post(&path, &json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{paired}");
    let for_ana = started(&mut ana_lobby).await;
    assert_eq!(paired["game"], for_ana.0.as_str());
    let snapshot = api.snapshot(&for_ana.0).await;
    assert_eq!(snapshot["rated"], true);
    assert!(snapshot["clock"].is_object());
}

#[tokio::test]
async fn a_declined_challenge_tells_the_challenger() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let mut ana_lobby = ana.lobby(&api).await;
    let (_, sent) = ana
        .post("/api/challenges", &json!({"to": "Bob", "game": "replica"}))
        .await;
    let id = sent["challenge"]["id"].as_str().unwrap();
    let (_, listed) = bob.get("/api/challenges").await;
    assert_eq!(listed["incoming"][0]["id"], id);
    let (status, _) = bob
        .post(&format!("/api/challenges/{id}/decline"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let told = next_of(&mut ana_lobby, "challenge_declined").await;
    assert_eq!(
        (told["id"].as_str(), told["by"].as_str()),
        (Some(id), Some("Bob"))
    );
    let late = bob
        .post(&format!("/api/challenges/{id}/accept"), &json!({}))
        .await;
    assert_error(&late, StatusCode::CONFLICT, "no open challenge");
    let nobody = ana
        .post("/api/challenges", &json!({"to": "Zed", "game": "replica"}))
        .await;
    assert_error(&nobody, StatusCode::NOT_FOUND, "no player 'Zed'");
}

#[tokio::test]
async fn a_rematch_swaps_the_seats_and_starts_when_both_ask() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let mut ana_lobby = ana.lobby(&api).await;
    let mut bob_lobby = bob.lobby(&api).await;
    let (_, sent) = ana
        .post("/api/challenges", &json!({"to": "Bob", "game": "qawale"}))
        .await;
    let id = sent["challenge"]["id"].as_str().unwrap();
    bob.post(&format!("/api/challenges/{id}/accept"), &json!({}))
        .await;
    let (a, b) = (started(&mut ana_lobby).await, started(&mut bob_lobby).await);
    let tokens = in_seat_order(&a, &b);
    let early = ana
        .post(&format!("/api/games/{}/rematch", a.0), &json!({}))
        .await;
    assert_error(&early, StatusCode::UNPROCESSABLE_ENTITY, "not over");
    let first = play_out(&api, &a.0, &tokens, 3).await;
    let (status, offer) = ana
        .post(&format!("/api/games/{}/rematch", a.0), &json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{offer}");
    assert_eq!(offer["challenge"]["rematch_of"], a.0.as_str());
    let heard = next_of(&mut bob_lobby, "challenge").await;
    assert_eq!(heard["challenge"]["rematch_of"], a.0.as_str());
    // Bob asks too: that is an answer, and the game starts.
    let (status, again) = bob
        .post(&format!("/api/games/{}/rematch", a.0), &json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    let second = api.snapshot(again["game"].as_str().unwrap()).await;
    for seat in 0..2 {
        assert_eq!(
            second["seats"][seat]["account"]["name"],
            first["seats"][1 - seat]["account"]["name"],
            "seats swapped"
        );
    }
    let stranger = Person::sign_up(&api, "Cid").await;
    let refused = stranger
        .post(&format!("/api/games/{}/rematch", a.0), &json!({}))
        .await;
    assert_error(&refused, StatusCode::FORBIDDEN, "did not play");
}

#[tokio::test]
async fn one_account_cannot_answer_or_withdraw_another_accounts_offers() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let robo = Person::bot_account(&api, "Robo").await;
    let (_, seek) = ana.post("/api/seeks", &json!({"game": "yoxii"})).await;
    let seek_id = seek["seek"]["id"].as_str().unwrap();
    let withdraw = robo.delete(&format!("/api/seeks/{seek_id}")).await;
    assert_error(&withdraw, StatusCode::FORBIDDEN, "not your seek");
    let (_, sent) = ana
        .post("/api/challenges", &json!({"to": "Bob", "game": "replica"}))
        .await;
    let challenge = sent["challenge"]["id"].as_str().unwrap();
    let taken = robo
        .post(&format!("/api/challenges/{challenge}/accept"), &json!({}))
        .await;
    assert_error(
        &taken,
        StatusCode::FORBIDDEN,
        "not a challenge you may answer",
    );
    let canceled = bob.delete(&format!("/api/challenges/{challenge}")).await;
    assert_error(
        &canceled,
        StatusCode::FORBIDDEN,
        "not a challenge you may answer",
    );
    // The bot sees only its own (none), and nobody signed in may seek.
    let (_, mine) = robo.get("/api/challenges").await;
    assert_eq!(mine, json!({"incoming": [], "outgoing": []}));
    let anonymous = api.post("/api/seeks", &json!({"game": "yoxii"})).await;
    assert_error(&anonymous, StatusCode::UNAUTHORIZED, "not signed in");
    // The bot plays the seek it may take: its token is its proof, no Origin needed.
    let (status, _) = robo
        .post(&format!("/api/seeks/{seek_id}/accept"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn seeks_are_checked_and_bounded_per_person() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let unknown = ana.post("/api/seeks", &json!({"game": "chess"})).await;
    assert_error(&unknown, StatusCode::UNPROCESSABLE_ENTITY, "chess");
    let range = ana
        .post(
            "/api/seeks",
            &json!({"game": "qawale", "range": [1800, 1200]}),
        )
        .await;
    assert_error(&range, StatusCode::UNPROCESSABLE_ENTITY, "lower first");
    for _ in 0..3 {
        assert_eq!(
            ana.post("/api/seeks", &json!({"game": "qawale"})).await.0,
            StatusCode::CREATED
        );
    }
    let fourth = ana.post("/api/seeks", &json!({"game": "qawale"})).await;
    assert_error(&fourth, StatusCode::TOO_MANY_REQUESTS, "open seeks");
    let narrow = Person::sign_up(&api, "Bob").await;
    let (_, high) = narrow
        .post(
            "/api/seeks",
            &json!({"game": "qawale", "range": [1700, 2000]}),
        )
        .await;
    let id = high["seek"]["id"].as_str().unwrap();
    let outside = ana
        .post(&format!("/api/seeks/{id}/accept"), &json!({}))
        .await;
    assert_error(&outside, StatusCode::FORBIDDEN, "outside this seek's range");
}

#[tokio::test]
async fn a_rated_game_takes_no_takebacks() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let mut ana_lobby = ana.lobby(&api).await;
    let (_, seek) = bob
        .post("/api/seeks", &json!({"game": "replica", "rated": true}))
        .await;
    let id = seek["seek"]["id"].as_str().unwrap();
    let (_, answer) = ana
        .post(&format!("/api/seeks/{id}/accept"), &json!({}))
        .await;
    let for_ana = started(&mut ana_lobby).await;
    assert_eq!(answer["token"], for_ana.2.as_str());
    let game = for_ana.0;
    let offer = api
        .post(
            &format!("/api/games/{game}/offer"),
            &json!({"token": for_ana.2, "kind": "takeback"}),
        )
        .await;
    assert_error(
        &offer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no takebacks in a rated game",
    );
    let hint = api
        .post(
            &format!("/api/games/{game}/hint"),
            &json!({"token": for_ana.2}),
        )
        .await;
    assert_error(&hint, StatusCode::UNPROCESSABLE_ENTITY, "no hint");
}

#[tokio::test]
async fn a_seek_for_three_starts_when_its_seats_are_full_and_rates_every_pair() {
    let api = Api::start();
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let cid = Person::sign_up(&api, "Cid").await;
    let mut lobbies = vec![
        ana.lobby(&api).await,
        bob.lobby(&api).await,
        cid.lobby(&api).await,
    ];
    let seek = json!({"game": "splut", "options": {"players": 3, "max_turns": 40}, "rated": true});
    let (_, posted) = ana.post("/api/seeks", &seek).await;
    assert_eq!(posted["seek"]["seats"], 3);
    let path = format!(
        "/api/seeks/{}/accept",
        posted["seek"]["id"].as_str().unwrap()
    );
    let (status, joined) = bob.post(&path, &json!({})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{joined}");
    assert_eq!(joined["seek"]["joined"], json!(["Bob"]));
    let (status, _) = cid.post(&path, &json!({})).await;
    assert_eq!(status, StatusCode::CREATED);
    let mut seats = Vec::new();
    for lobby in &mut lobbies {
        seats.push(started(lobby).await);
    }
    seats.sort_by_key(|s| s.1);
    let tokens: Vec<String> = seats.iter().map(|s| s.2.clone()).collect();
    let end = play_out(&api, &seats[0].0, &tokens, 11).await;
    let winner = end["outcome"]["winner"].as_u64();
    for seat in 0..3 {
        let change = &end["seats"][seat]["rating_change"];
        let moved = change["after"].as_f64().unwrap() - change["before"].as_f64().unwrap();
        match winner {
            Some(w) if w == seat as u64 + 1 => assert!(moved > 0.0, "{change}"),
            Some(_) => assert!(moved < 0.0, "{change}"),
            // A draw among equals changes no rating, only the deviations.
            None => assert!(moved.abs() < 1e-6, "{change}"),
        }
    }
}

#[tokio::test]
async fn a_person_at_their_limit_of_games_starts_none_by_pairing() {
    let api = Api::with(ludus_server::Config {
        games_per_client: 1,
        ..ludus_server::Config::default()
    });
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    let (_, sent) = bob
        .post("/api/challenges", &json!({"to": "Ana", "game": "replica"}))
        .await;
    let first = sent["challenge"]["id"].as_str().unwrap();
    let (status, _) = ana
        .post(&format!("/api/challenges/{first}/accept"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, sent) = bob
        .post("/api/challenges", &json!({"to": "Ana", "game": "yoxii"}))
        .await;
    let second = sent["challenge"]["id"].as_str().unwrap();
    let refused = ana
        .post(&format!("/api/challenges/{second}/accept"), &json!({}))
        .await;
    assert_error(&refused, StatusCode::TOO_MANY_REQUESTS, "games in progress");
    // The challenge waits for a later answer.
    let (_, listed) = ana.get("/api/challenges").await;
    assert_eq!(listed["incoming"][0]["id"], second);
}
