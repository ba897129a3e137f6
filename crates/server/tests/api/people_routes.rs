//! Every route of accounts and pairing against the same hostile inputs, with a real client:
//! no credentials (401), a valid session cookie from a foreign origin, from an origin only
//! allowed for the API, or with no origin at all (403: a cookie's change comes from this
//! server's page), a body that is not what the route reads (400, one line); and the caps a
//! single person meets: challenges sent, API tokens, sessions kept, lobby sockets.

use ludus_server::Config;
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::people_support::{password_of, Person};
use super::support::{assert_error, read, Api};

/// The routes a signed-in person may change something with, and a body each reads.
fn changing_routes(pool: &str) -> Vec<(Method, String, Value)> {
    let post = |path: &str, body: Value| (Method::POST, path.to_string(), body);
    vec![
        post("/api/account/signout", json!({})),
        post("/api/account/password", json!({"current": "x", "new": "y"})),
        post("/api/account/about", json!({"about": "hi"})),
        post("/api/account/tokens", json!({"label": "x"})),
        post("/api/seeks", json!({"game": pool})),
        (Method::DELETE, "/api/seeks/s0".to_string(), json!({})),
        post("/api/seeks/s0/accept", json!({})),
        post(&format!("/api/pools/{pool}-3+2/join"), json!({})),
        post(&format!("/api/pools/{pool}-3+2/leave"), json!({})),
        post("/api/challenges", json!({"to": "Bob", "game": pool})),
        (Method::DELETE, "/api/challenges/c0".to_string(), json!({})),
        post("/api/challenges/c0/accept", json!({})),
        post("/api/challenges/c0/decline", json!({})),
        post("/api/games/g0/rematch", json!({})),
    ]
}

/// A registry game with a pool.
async fn pool_game(api: &Api) -> String {
    let (_, pools) = api.get("/api/pools").await;
    pools["pools"][0]["game"].as_str().unwrap().to_string()
}

/// Sends a request with exactly these headers: a cookie and an origin, each optional.
async fn send(
    api: &Api,
    (method, path, body): &(Method, String, Value),
    cookie: Option<&str>,
    origin: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = reqwest::Client::new()
        .request(method.clone(), api.url(path))
        .body(body.to_string());
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    if let Some(origin) = origin {
        request = request.header(ORIGIN, origin);
    }
    read(request.send().await.unwrap()).await
}

/// A fresh session cookie (`ludus_session=…`) of `name`.
async fn cookie_of(api: &Api, name: &str) -> String {
    let response = reqwest::Client::new()
        .post(api.url("/api/account/signin"))
        .body(json!({"name": name, "password": password_of(name)}).to_string())
        .send()
        .await
        .unwrap();
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn every_changing_route_wants_a_person_from_this_servers_page() {
    let api = Api::with(Config {
        allowed_origins: vec!["https://friend.example.org".into()],
        ..Config::default()
    });
    Person::sign_up(&api, "Ana").await;
    let own = format!("http://{}", api.server.addr());
    let game = pool_game(&api).await;
    for route in changing_routes(&game) {
        let anonymous = send(&api, &route, None, Some(&own)).await;
        assert_error(&anonymous, StatusCode::UNAUTHORIZED, "not signed in");
        let cookie = cookie_of(&api, "Ana").await;
        let foreign = send(
            &api,
            &route,
            Some(&cookie),
            Some("https://evil.example.com"),
        )
        .await;
        assert_eq!(
            foreign.0,
            StatusCode::FORBIDDEN,
            "{} {}: {}",
            route.0,
            route.1,
            foreign.1
        );
        let allowed = send(
            &api,
            &route,
            Some(&cookie),
            Some("https://friend.example.org"),
        )
        .await;
        assert_error(&allowed, StatusCode::FORBIDDEN, "this server's page");
        let bare = send(&api, &route, Some(&cookie), None).await;
        assert_error(&bare, StatusCode::FORBIDDEN, "this server's page");
        // What the route reads, wrong: a field it does not know.
        let mut odd = route.clone();
        odd.2 = json!({"surprise": true});
        let refused = send(&api, &odd, Some(&cookie), Some(&own)).await;
        if route.0 == Method::POST {
            assert_error(&refused, StatusCode::BAD_REQUEST, "expected a JSON object");
        }
    }
}

#[tokio::test]
async fn reading_routes_answer_bad_queries_and_unknown_names_in_one_line() {
    let api = Api::start();
    let game = pool_game(&api).await;
    for (path, status, needle) in [
        (
            "/api/account/games".to_string(),
            StatusCode::UNAUTHORIZED,
            "not signed in",
        ),
        (
            "/api/challenges".to_string(),
            StatusCode::UNAUTHORIZED,
            "not signed in",
        ),
        (
            "/api/players/nobody".to_string(),
            StatusCode::NOT_FOUND,
            "no player",
        ),
        (
            "/api/leaderboard".to_string(),
            StatusCode::BAD_REQUEST,
            "expected ?game=",
        ),
        (
            "/api/leaderboard?game=chess".to_string(),
            StatusCode::NOT_FOUND,
            "no game 'chess'",
        ),
        (
            format!("/api/leaderboard?game={game}&class=blitz"),
            StatusCode::BAD_REQUEST,
            "expected fast, slow or correspondence",
        ),
        (
            format!("/api/leaderboard?game={game}&x=1"),
            StatusCode::BAD_REQUEST,
            "unknown query parameter",
        ),
    ] {
        assert_error(&api.get(&path).await, status, needle);
    }
    let joined = Person::sign_up(&api, "Ana").await;
    let missing = joined
        .post("/api/pools/no-such-pool/join", &json!({}))
        .await;
    assert_error(&missing, StatusCode::NOT_FOUND, "no pool");
}

#[tokio::test]
async fn one_person_meets_the_caps_of_challenges_tokens_sessions_and_lobby_sockets() {
    let api = Api::with(Config {
        websockets_per_client: 2,
        ..Config::default()
    });
    let game = pool_game(&api).await;
    let ana = Person::sign_up(&api, "Ana").await;
    Person::sign_up(&api, "Bob").await;
    for _ in 0..10 {
        let (status, _) = ana
            .post("/api/challenges", &json!({"to": "Bob", "game": game}))
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let eleventh = ana
        .post("/api/challenges", &json!({"to": "Bob", "game": game}))
        .await;
    assert_error(
        &eleventh,
        StatusCode::TOO_MANY_REQUESTS,
        "challenges waiting",
    );
    let robo = Person::bot_account(&api, "Robo").await;
    for _ in 0..9 {
        assert_eq!(
            robo.post("/api/account/tokens", &json!({})).await.0,
            StatusCode::CREATED
        );
    }
    let too_many = robo.post("/api/account/tokens", &json!({})).await;
    assert_error(
        &too_many,
        StatusCode::UNPROCESSABLE_ENTITY,
        "API tokens, the limit",
    );
    // Sessions: the 20 most recent are kept, the oldest go.
    let first = cookie_of(&api, "Ana").await;
    for _ in 0..20 {
        cookie_of(&api, "Ana").await;
    }
    let old = send(
        &api,
        &(Method::GET, "/api/account".into(), json!({})),
        Some(&first),
        None,
    )
    .await;
    assert_eq!(old.1["account"], Value::Null, "the oldest session ended");
    // Lobby sockets count with the client's other sockets.
    let _one = ana.lobby(&api).await;
    let _two = ana.lobby(&api).await;
    let url = format!("ws://{}/api/lobby/ws", api.server.addr());
    let third = tokio_tungstenite::connect_async(url).await;
    assert!(
        third.is_err(),
        "a third socket over the client's cap of two"
    );
}
