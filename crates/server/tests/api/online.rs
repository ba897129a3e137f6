//! Play between browsers: invitation links that work once, spectators who only watch, the
//! lobby, and games that come back unchanged when a server restarts on the same database.

use futures_util::SinkExt;
use ludus_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::support::{assert_error, connect, next, next_of, Api, Dice};

/// A Replica game whose seat 2 is kept for a friend: the creator's seat-1 token, the id
/// and the invitation of seat 2.
async fn invited_game(api: &Api, private: bool) -> (String, String, String) {
    let body = json!({"game": "replica", "invite": [2], "private": private});
    let (status, created) = api.post("/api/games", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let seats = created["seats"].as_array().unwrap();
    assert_eq!(
        seats.len(),
        1,
        "only the creator's seat has a token: {created}"
    );
    let invites = created["invites"].as_array().unwrap();
    assert_eq!(invites.len(), 1, "{created}");
    let invite = invites[0]["invite"].as_str().unwrap().to_string();
    assert_eq!(invite.len(), 32, "128 random bits");
    assert_eq!(
        invites[0]["link"],
        format!("/g/{id}?seat=2&invite={invite}"),
        "the link to share"
    );
    (id, seats[0]["token"].as_str().unwrap().to_string(), invite)
}

async fn claim(api: &Api, id: &str, seat: u64, invite: &str) -> (StatusCode, Value) {
    let body = json!({"seat": seat, "invite": invite});
    api.post(&format!("/api/games/{id}/claim"), &body).await
}

async fn play(
    api: &Api,
    id: &str,
    token: &str,
    notation: &str,
    seq: &Value,
) -> (StatusCode, Value) {
    let body = json!({"token": token, "move": notation, "seq": seq});
    api.post(&format!("/api/games/{id}/moves"), &body).await
}

fn lobby_ids(lobby: &Value, group: &str) -> Vec<String> {
    lobby[group]
        .as_array()
        .unwrap_or_else(|| panic!("no {group} in {lobby}"))
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_invitation_claims_its_seat_once_and_the_lobby_follows_the_game() {
    let api = Api::start();
    let (id, first, invite) = invited_game(&api, false).await;
    let snapshot = api.snapshot(&id).await;
    assert_eq!(snapshot["seats"][1]["free"], true, "{snapshot}");
    let (_, lobby) = api.get("/api/lobby").await;
    assert!(lobby_ids(&lobby, "waiting").contains(&id), "{lobby}");
    assert_eq!(lobby["waiting"][0]["free_seats"], json!([2]));

    let wrong = claim(&api, &id, 2, "0123456789abcdef0123456789abcdef").await;
    assert_error(&wrong, StatusCode::FORBIDDEN, "no open invitation");
    let (status, claimed) = claim(&api, &id, 2, &invite).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    let second = claimed["token"].as_str().unwrap().to_string();
    assert_ne!(second, first);
    let again = claim(&api, &id, 2, &invite).await;
    assert_error(&again, StatusCode::FORBIDDEN, "already used");

    let snapshot = api.snapshot(&id).await;
    assert_eq!(snapshot["seats"][1]["free"], false);
    let (status, after) = play(&api, &id, &first, "b4-c5", &snapshot["seq"]).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let reply = Dice(3).legal(&after);
    let (status, _) = play(&api, &id, &second, &reply, &after["seq"]).await;
    assert_eq!(status, StatusCode::OK, "the claimed token plays seat 2");

    let (_, lobby) = api.get("/api/lobby").await;
    assert!(lobby_ids(&lobby, "in_progress").contains(&id), "{lobby}");
    assert!(!lobby_ids(&lobby, "waiting").contains(&id));
    let resign = json!({"token": second});
    api.post(&format!("/api/games/{id}/resign"), &resign).await;
    let (_, lobby) = api.get("/api/lobby").await;
    assert!(lobby_ids(&lobby, "finished").contains(&id), "{lobby}");
}

#[tokio::test]
async fn a_private_game_stays_out_of_the_lobby() {
    let api = Api::start();
    let (id, _, _) = invited_game(&api, true).await;
    let (_, lobby) = api.get("/api/lobby").await;
    for group in ["waiting", "in_progress", "finished"] {
        assert!(!lobby_ids(&lobby, group).contains(&id), "{lobby}");
    }
    assert_eq!(
        api.snapshot(&id).await["id"],
        id.as_str(),
        "the link still leads to it"
    );
}

#[tokio::test]
async fn a_spectator_watches_live_and_every_action_is_refused() {
    let api = Api::start();
    let (id, first, invite) = invited_game(&api, false).await;
    let mut watcher = connect(&api, &id, None).await;
    let snapshot = api.snapshot(&id).await;
    let (status, _) = play(&api, &id, &first, "b4-c5", &snapshot["seq"]).await;
    assert_eq!(status, StatusCode::OK);
    let seen = loop {
        let frame = next(&mut watcher).await;
        if frame["type"] == "snapshot" && frame["snapshot"]["seq"] == 1 {
            break frame["snapshot"].clone();
        }
    };
    assert_eq!(
        seen["moves"],
        json!(["b4-c5"]),
        "the watcher sees the history"
    );

    let reply = Dice(5).legal(&seen);
    let move_frame = json!({"type": "move", "move": reply, "seq": 1}).to_string();
    watcher.send(Message::text(move_frame)).await.unwrap();
    let refused = next_of(&mut watcher, "error").await;
    assert!(
        refused["error"].as_str().unwrap().contains("watches only"),
        "{refused}"
    );
    for token in ["", "not-a-token", invite.as_str(), first.as_str()] {
        let answer = play(&api, &id, token, &reply, &json!(1)).await;
        assert_eq!(
            answer.0,
            StatusCode::FORBIDDEN,
            "token {token:?}: {}",
            answer.1
        );
    }
    assert_eq!(api.snapshot(&id).await["seq"], 1, "nothing changed");
}

#[tokio::test]
async fn a_restarted_server_brings_back_every_game_its_seats_and_spent_invitations() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    let (id, first, invite) = invited_game(&api, false).await;
    let second = claim(&api, &id, 2, &invite).await.1["token"]
        .as_str()
        .unwrap()
        .to_string();
    let mut dice = Dice(11);
    let mut snapshot = api.snapshot(&id).await;
    for _ in 0..6 {
        let token = if snapshot["to_move"] == 1 {
            &first
        } else {
            &second
        };
        let notation = dice.legal(&snapshot);
        let (status, after) = play(&api, &id, token, &notation, &snapshot["seq"]).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        snapshot = after;
    }
    drop(api);

    let api = Api::with(config());
    let back = api.snapshot(&id).await;
    for field in ["seq", "position", "moves", "to_move"] {
        assert_eq!(back[field], snapshot[field], "{field} after the restart");
    }
    // Who plays each seat comes back; presence does not: nobody is connected after a restart.
    let players = |s: &serde_json::Value| {
        let mut seats = s["seats"].clone();
        for seat in seats.as_array_mut().unwrap() {
            let seat = seat.as_object_mut().unwrap();
            seat.remove("away");
            seat.remove("claim_from_ms");
        }
        seats
    };
    assert_eq!(
        players(&back),
        players(&snapshot),
        "seats after the restart"
    );
    assert_eq!(back["seats"][0]["away"], true, "{back}");
    assert_eq!(back["seats"][1]["away"], true, "{back}");
    let again = claim(&api, &id, 2, &invite).await;
    assert_error(&again, StatusCode::FORBIDDEN, "already used");
    let token = if back["to_move"] == 1 {
        &first
    } else {
        &second
    };
    let notation = dice.legal(&back);
    let (status, _) = play(&api, &id, token, &notation, &back["seq"]).await;
    assert_eq!(status, StatusCode::OK, "the seats' tokens still play");
}

#[tokio::test]
async fn the_lobby_page_and_its_script_are_served() {
    let api = Api::start();
    let (status, mime, _) = api.get_text("/lobby").await;
    assert_eq!(status, StatusCode::OK);
    assert!(mime.starts_with("text/html"), "{mime}");
    let (status, mime, script) = api.get_text("/online.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(mime.contains("javascript"), "{mime}");
    assert!(script.contains("export async function claimFromLink"));
}

#[tokio::test]
async fn invitation_urls_follow_the_public_url_else_the_host_and_trusted_proxy_headers() {
    let body = json!({"game": "replica", "players": ["human", "human"], "invite": [2]});
    let url_of = |created: &Value| created["invites"][0]["url"].as_str().unwrap().to_string();
    let link_of = |created: &Value| created["invites"][0]["link"].as_str().unwrap().to_string();
    let plain = Api::start();
    let (_, created) = plain.post("/api/games", &body).await;
    assert_eq!(
        url_of(&created),
        format!("http://{}{}", plain.server.addr(), link_of(&created))
    );
    // Without --trust-proxy a forwarded host is anyone's word: ignored.
    let created = create_forwarded(&plain, &body, "evil.example.com").await;
    assert!(url_of(&created).starts_with(&format!("http://{}/g/", plain.server.addr())));
    let behind = Api::with(ludus_server::Config {
        trust_proxy: true,
        ..ludus_server::Config::default()
    });
    let created = create_forwarded(&behind, &body, "games.example.org").await;
    assert_eq!(
        url_of(&created),
        format!("https://games.example.org{}", link_of(&created))
    );
    let public = Api::with(ludus_server::Config {
        public_url: Some("https://play.example.net".into()),
        ..ludus_server::Config::default()
    });
    let (_, created) = public.post("/api/games", &body).await;
    assert_eq!(
        url_of(&created),
        format!("https://play.example.net{}", link_of(&created))
    );
}

/// Creates the game `body` with a request that says a proxy forwarded it for `host` over https.
async fn create_forwarded(api: &Api, body: &Value, host: &str) -> Value {
    let response = reqwest::Client::new()
        .post(api.url("/api/games"))
        .header("x-forwarded-host", host)
        .header("x-forwarded-proto", "https")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    response.json().await.unwrap()
}

#[tokio::test]
async fn a_game_against_the_computer_with_nobody_there_is_marked_abandoned() {
    let api = Api::start();
    let left = api
        .create(&json!({"game": "replica", "players": ["human", "ai:1"]}))
        .await;
    let people = api
        .create(&json!({"game": "replica", "players": ["human", "human"]}))
        .await;
    let abandoned = |lobby: &Value, id: &str| {
        lobby["in_progress"]
            .as_array()
            .and_then(|games| games.iter().find(|g| g["id"] == id))
            .map(|g| g["abandoned"].clone())
    };
    let (_, lobby) = api.get("/api/lobby").await;
    assert_eq!(abandoned(&lobby, &left.id), Some(json!(true)), "{lobby}");
    assert_eq!(abandoned(&lobby, &people.id), Some(json!(false)), "{lobby}");
    // Its person's page opens a socket: the game is attended again.
    let mut socket = crate::support::connect(&api, &left.id, Some(left.token(1))).await;
    let _snapshot = crate::support::next(&mut socket).await;
    let (_, lobby) = api.get("/api/lobby").await;
    assert_eq!(abandoned(&lobby, &left.id), Some(json!(false)), "{lobby}");
}
