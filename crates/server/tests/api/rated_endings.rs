//! Every way a rated game can end rates it: a move that ends it (`pairing.rs`), resignation
//! over HTTP and over a socket, an agreed draw, a flag on time, an absent seat claimed
//! against, and abandonment. Each ending's task rates the game after its commit; a path that
//! did not would leave the game unrated for good, as nothing after the end rates it.

use std::time::Duration;

use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::pairing::{in_seat_order, started};
use super::people_support::Person;
use super::support::{connect, next_of, send, Api};

/// Ana and Bob, signed up, with their lobby sockets open (where their games start).
struct Pair {
    ana: Person,
    bob: Person,
    lobbies: [super::support::Socket; 2],
}

impl Pair {
    async fn sign_up(api: &Api) -> Pair {
        let ana = Person::sign_up(api, "Ana").await;
        let bob = Person::sign_up(api, "Bob").await;
        let lobbies = [ana.lobby(api).await, bob.lobby(api).await];
        Pair { ana, bob, lobbies }
    }

    /// A rated game of Ana's challenge accepted by Bob, with `clock` if given: its id and
    /// the seats' tokens in seat order.
    async fn rated_game(&mut self, clock: Option<Value>) -> (String, Vec<String>) {
        let mut terms = json!({"to": "bob", "game": "qawale", "rated": true});
        if let Some(clock) = clock {
            terms["clock"] = clock;
        }
        let (status, sent) = self.ana.post("/api/challenges", &terms).await;
        assert_eq!(status, StatusCode::CREATED, "{sent}");
        let id = sent["challenge"]["id"].as_str().unwrap();
        let (status, accepted) = self
            .bob
            .post(&format!("/api/challenges/{id}/accept"), &json!({}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{accepted}");
        let [ana_lobby, bob_lobby] = &mut self.lobbies;
        let (a, b) = (started(ana_lobby).await, started(bob_lobby).await);
        let tokens = in_seat_order(&a, &b);
        (a.0, tokens)
    }
}

/// Whether both seats of `snapshot` show their rating's change.
fn rated(snapshot: &Value) -> bool {
    (0..2).all(|seat| snapshot["seats"][seat]["rating_change"].is_object())
}

/// The game `id` once it is rated, checking it ended as `reason` says.
async fn rated_after(api: &Api, id: &str, reason: &str) -> Value {
    let end = api.wait_for(id, rated).await;
    let said = end["outcome"]["reason"].as_str().unwrap_or_default();
    assert!(said.contains(reason), "{reason}: {end}");
    end
}

#[tokio::test]
async fn a_rated_game_is_rated_however_it_ends() {
    let api = Api::with(Config {
        grace_seconds: 0.2,
        ..Config::default()
    });
    let mut pair = Pair::sign_up(&api).await;

    // Resigned over HTTP: the answer already carries the ratings.
    let (id, tokens) = pair.rated_game(None).await;
    let body = json!({"token": tokens[0]});
    let (status, answer) = api.post(&format!("/api/games/{id}/resign"), &body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(rated(&answer), "resigned over HTTP: {answer}");

    // Resigned over the seat's socket.
    let (id, tokens) = pair.rated_game(None).await;
    let mut socket = connect(&api, &id, Some(&tokens[1])).await;
    next_of(&mut socket, "snapshot").await;
    send(&mut socket, &json!({"type": "resign"})).await;
    rated_after(&api, &id, "resigned").await;
    drop(socket);

    // A draw offered and accepted.
    let (id, tokens) = pair.rated_game(None).await;
    let offer = json!({"token": tokens[0], "kind": "draw"});
    let (status, offered) = api.post(&format!("/api/games/{id}/offer"), &offer).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    let accept = json!({"token": tokens[1], "accept": true});
    let (status, answer) = api.post(&format!("/api/games/{id}/answer"), &accept).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let drawn = api.wait_for(&id, rated).await;
    assert!(
        drawn["outcome"].is_object() && drawn["outcome"]["winner"].is_null(),
        "{drawn}"
    );

    // Seat 1's clock runs out before anyone moves.
    let clock = json!({"initial_ms": 200, "increment_ms": 0});
    let (id, _) = pair.rated_game(Some(clock)).await;
    rated_after(&api, &id, "ran out of time").await;

    // Seat 2 leaves; after the grace period seat 1 claims the win.
    let (id, tokens) = pair.rated_game(None).await;
    let mut socket = connect(&api, &id, Some(&tokens[1])).await;
    next_of(&mut socket, "snapshot").await;
    drop(socket);
    api.wait_for(&id, |s| s["seats"][1]["away"] == true).await;
    let claim = json!({"token": tokens[0], "seat": 2, "then": "win"});
    let claimed = loop {
        let (status, answer) = api.post(&format!("/api/games/{id}/absent"), &claim).await;
        if status == StatusCode::OK {
            break answer;
        }
        // 409 while the grace period runs.
        assert_eq!(status, StatusCode::CONFLICT, "{answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(claimed["outcome"]["winner"], 1, "{claimed}");
    assert!(rated(&claimed), "an absent seat claimed against: {claimed}");
}

#[tokio::test]
async fn an_abandoned_rated_game_is_rated() {
    let api = Api::with(Config {
        abandon_after_seconds: 1.0,
        ..Config::default()
    });
    let mut pair = Pair::sign_up(&api).await;
    // Nobody opens the game: the seat to move is flagged once it is a second untouched.
    let (id, _) = pair.rated_game(None).await;
    let end = rated_after(&api, &id, "ran out of time").await;
    assert_eq!(end["outcome"]["winner"], 2, "{end}");
}
