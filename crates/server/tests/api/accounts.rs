//! Accounts over real HTTP: sign up, in and out; the session cookie's flags; sessions that
//! survive a restart and end on sign-out; CSRF (a cookie's change only from the page's own
//! origin); sign-in throttling that never tells whether a name exists; passwords absent from
//! answers and from the database; seats that follow the account to another browser; limits
//! per person rather than per address.

use ludus_server::Config;
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use reqwest::StatusCode;
use serde_json::json;

use super::people_support::{password_of, Person};
use super::support::{assert_error, Api};

#[tokio::test]
async fn signing_up_signs_in_with_a_cookie_only_the_server_can_read() {
    let api = Api::start();
    let person = Person::browser(&api);
    let body = json!({"name": "Ana", "password": "correct horse battery"});
    let response = person
        .client
        .post(api.url("/api/account/signup"))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_string();
    assert!(cookie.starts_with("ludus_session="), "{cookie}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(cookie.contains(flag), "{flag} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    let text = response.text().await.unwrap();
    assert!(!text.contains("correct horse"), "{text}");
    assert_eq!(person.whoami().await.as_deref(), Some("Ana"));
    // The name is taken whatever its case.
    let again = Person::browser(&api);
    let taken = again
        .post(
            "/api/account/signup",
            &json!({"name": "ana", "password": "12345678"}),
        )
        .await;
    assert_error(&taken, StatusCode::CONFLICT, "taken");
}

#[tokio::test]
async fn behind_https_the_cookie_is_secure() {
    let api = Api::with(Config {
        public_url: Some("https://games.example.org".into()),
        ..Config::default()
    });
    let person = Person::browser(&api);
    let body = json!({"name": "Ana", "password": "correct horse battery"});
    let response = person
        .client
        .post(api.url("/api/account/signup"))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    assert!(cookie.contains("Secure"), "{cookie}");
}

#[tokio::test]
async fn bad_names_and_passwords_are_refused_saying_what_was_expected() {
    let api = Api::start();
    let person = Person::browser(&api);
    let short = person
        .post(
            "/api/account/signup",
            &json!({"name": "Ana", "password": "short"}),
        )
        .await;
    assert_error(&short, StatusCode::UNPROCESSABLE_ENTITY, "8 to 128");
    let markup = person
        .post(
            "/api/account/signup",
            &json!({"name": "<script>", "password": "long enough"}),
        )
        .await;
    assert_error(&markup, StatusCode::UNPROCESSABLE_ENTITY, "letters, digits");
    // A mistyped body never echoes a value: here the password lands in a boolean field.
    let mistyped = person
        .post(
            "/api/account/signup",
            &json!({"name": "Ana", "password": "x", "bot": "hunter2-secret"}),
        )
        .await;
    assert_error(&mistyped, StatusCode::BAD_REQUEST, "expected a JSON object");
    assert!(
        !mistyped.1.to_string().contains("hunter2"),
        "{}",
        mistyped.1
    );
}

#[tokio::test]
async fn signing_out_ends_the_session_on_the_server() {
    let api = Api::start();
    let person = Person::sign_up(&api, "Ana").await;
    let (status, _) = person.post("/api/account/signout", &json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(person.whoami().await, None);
    // A cookie kept by whoever copied it is worth nothing after its sign-out.
    let secret = session_secret(&api, "Ana").await;
    assert_eq!(with_cookie(&api, &secret).await, Some("Ana".to_string()));
    let signed_out = reqwest::Client::new()
        .post(api.url("/api/account/signout"))
        .header(COOKIE, format!("ludus_session={secret}"))
        .header(ORIGIN, format!("http://{}", api.server.addr()))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(signed_out.status(), StatusCode::OK);
    let cleared = signed_out.headers()[SET_COOKIE].to_str().unwrap();
    assert!(cleared.starts_with("ludus_session=;"), "{cleared}");
    assert_eq!(with_cookie(&api, &secret).await, None);
}

#[tokio::test]
async fn a_session_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = || Config {
        db: Some(dir.path().join("games.sqlite3")),
        ..Config::default()
    };
    let api = Api::with(config());
    Person::sign_up(&api, "Ana").await;
    let secret = session_secret(&api, "Ana").await;
    drop(api);
    let api = Api::with(config());
    assert_eq!(with_cookie(&api, &secret).await, Some("Ana".to_string()));
    // And the password is nowhere in the database's files.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let needle = password_of("Ana");
        assert!(
            !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
            "the password is stored in plain text"
        );
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "the session's secret is stored as it is"
        );
    }
}

#[tokio::test]
async fn a_cookie_changes_nothing_from_another_origin_or_without_one() {
    let api = Api::with(Config {
        allowed_origins: vec!["https://friend.example.org".into()],
        ..Config::default()
    });
    Person::sign_up(&api, "Ana").await;
    let secret = session_secret(&api, "Ana").await;
    let about = json!({"about": "hello"}).to_string();
    let post = |origin: Option<&str>| {
        let mut request = reqwest::Client::new()
            .post(api.url("/api/account/about"))
            .header(COOKIE, format!("ludus_session={secret}"))
            .body(about.clone());
        if let Some(origin) = origin {
            request = request.header(ORIGIN, origin);
        }
        request.send()
    };
    let foreign = post(Some("https://evil.example.com")).await.unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    let allowed = post(Some("https://friend.example.org")).await.unwrap();
    assert_eq!(
        allowed.status(),
        StatusCode::FORBIDDEN,
        "an allowed origin may use the API, not the cookie"
    );
    let none = post(None).await.unwrap();
    assert_eq!(none.status(), StatusCode::FORBIDDEN);
    let own = format!("http://{}", api.server.addr());
    let page = post(Some(&own)).await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
}

#[tokio::test]
async fn sign_in_failures_are_throttled_alike_for_known_and_unknown_names() {
    let api = Api::start();
    Person::sign_up(&api, "Ana").await;
    let guesser = Person::browser(&api);
    let wrong = |name: &str| json!({"name": name, "password": "not the password"});
    let first_known = guesser.post("/api/account/signin", &wrong("Ana")).await;
    let first_unknown = guesser.post("/api/account/signin", &wrong("Nobody")).await;
    assert_error(
        &first_known,
        StatusCode::UNAUTHORIZED,
        "wrong name or password",
    );
    assert_eq!(
        first_known, first_unknown,
        "the answer tells nothing of the name"
    );
    for _ in 0..4 {
        guesser.post("/api/account/signin", &wrong("Ana")).await;
        guesser.post("/api/account/signin", &wrong("Nobody")).await;
    }
    let right = json!({"name": "Ana", "password": password_of("Ana")});
    let locked = guesser.post("/api/account/signin", &right).await;
    assert_error(&locked, StatusCode::TOO_MANY_REQUESTS, "try again in");
    let unknown = guesser.post("/api/account/signin", &wrong("Nobody")).await;
    assert_error(&unknown, StatusCode::TOO_MANY_REQUESTS, "try again in");
    // The same words (the seconds to wait may tick between the two answers).
    let words = |body: &serde_json::Value| {
        let text = body["error"].as_str().unwrap_or_default().to_string();
        text.replace(|c: char| c.is_ascii_digit(), "")
    };
    assert_eq!(
        words(&locked.1),
        words(&unknown.1),
        "a locked name reads like any other"
    );
}

#[tokio::test]
async fn a_new_password_signs_in_and_ends_the_other_sessions() {
    let api = Api::start();
    let first = Person::sign_up(&api, "Ana").await;
    let second = Person::browser(&api);
    let signed = second
        .post(
            "/api/account/signin",
            &json!({"name": "ana", "password": password_of("Ana")}),
        )
        .await;
    assert_eq!(signed.0, StatusCode::OK, "{}", signed.1);
    assert_eq!(
        signed.1["account"]["name"], "Ana",
        "the name as it was typed at sign-up"
    );
    let wrong = first
        .post(
            "/api/account/password",
            &json!({"current": "nope nope", "new": "a new password"}),
        )
        .await;
    assert_error(&wrong, StatusCode::FORBIDDEN, "current password");
    let changed = first
        .post(
            "/api/account/password",
            &json!({"current": password_of("Ana"), "new": "a new password"}),
        )
        .await;
    assert_eq!(changed.0, StatusCode::OK, "{}", changed.1);
    assert_eq!(first.whoami().await.as_deref(), Some("Ana"));
    assert_eq!(
        second.whoami().await,
        None,
        "the other browser is signed out"
    );
    let old = Person::browser(&api)
        .post(
            "/api/account/signin",
            &json!({"name": "Ana", "password": password_of("Ana")}),
        )
        .await;
    assert_eq!(old.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_signed_in_player_continues_a_game_from_another_browser() {
    let api = Api::start();
    let home = Person::sign_up(&api, "Ana").await;
    let created = home
        .post(
            "/api/games",
            &json!({"game": "replica", "players": ["human", "ai:1"]}),
        )
        .await;
    assert_eq!(created.0, StatusCode::CREATED, "{}", created.1);
    let id = created.1["id"].as_str().unwrap().to_string();
    let token = created.1["seats"][0]["token"].as_str().unwrap().to_string();
    let elsewhere = Person::browser(&api);
    let signed = elsewhere
        .post(
            "/api/account/signin",
            &json!({"name": "Ana", "password": password_of("Ana")}),
        )
        .await;
    assert_eq!(signed.0, StatusCode::OK);
    let (status, mine) = elsewhere.get("/api/account/games").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mine["games"][0]["id"], id.as_str());
    assert_eq!(mine["games"][0]["seat"], 1);
    assert_eq!(mine["games"][0]["token"], token.as_str());
    let snapshot = api.snapshot(&id).await;
    let legal = snapshot["legal"][0].as_str().unwrap();
    let moved = elsewhere
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"token": mine["games"][0]["token"], "move": legal, "seq": snapshot["seq"]}),
        )
        .await;
    assert_eq!(moved.0, StatusCode::OK, "{}", moved.1);
    // Somebody else's account lists none of it.
    let other = Person::sign_up(&api, "Bob").await;
    let (_, theirs) = other.get("/api/account/games").await;
    assert_eq!(theirs["games"], json!([]));
}

#[tokio::test]
async fn limits_count_per_person_not_per_address() {
    let api = Api::with(Config {
        games_per_client: 1,
        ..Config::default()
    });
    let body = json!({"game": "replica", "players": ["human", "human"]});
    let ana = Person::sign_up(&api, "Ana").await;
    let bob = Person::sign_up(&api, "Bob").await;
    // Both on 127.0.0.1: per address the second game would be refused.
    assert_eq!(ana.post("/api/games", &body).await.0, StatusCode::CREATED);
    assert_eq!(bob.post("/api/games", &body).await.0, StatusCode::CREATED);
    let again = ana.post("/api/games", &body).await;
    assert_eq!(again.0, StatusCode::TOO_MANY_REQUESTS, "{}", again.1);
    // Nobody signed in on that address still has its own budget.
    assert_eq!(api.post("/api/games", &body).await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn only_bot_accounts_get_api_tokens_and_a_token_speaks_for_its_bot() {
    let api = Api::start();
    let person = Person::sign_up(&api, "Ana").await;
    let refused = person
        .post("/api/account/tokens", &json!({"label": "x"}))
        .await;
    assert_error(&refused, StatusCode::FORBIDDEN, "bot accounts");
    let bot = Person::bot_account(&api, "Robo").await;
    let (_, me) = bot.get("/api/account").await;
    assert_eq!(me["account"], json!({"name": "Robo", "bot": true}));
    // A token needs no Origin: browsers never send it by themselves.
    let about = bot
        .post("/api/account/about", &json!({"about": "an engine"}))
        .await;
    assert_eq!(about.0, StatusCode::OK, "{}", about.1);
}

/// The session secret of a fresh sign-in as `name`, read from the `Set-Cookie` answer.
async fn session_secret(api: &Api, name: &str) -> String {
    let response = reqwest::Client::new()
        .post(api.url("/api/account/signin"))
        .body(json!({"name": name, "password": password_of(name)}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    let value = cookie.strip_prefix("ludus_session=").unwrap();
    value.split(';').next().unwrap().to_string()
}

/// Who the server says a bare request with this sign-in cookie secret comes from.
async fn with_cookie(api: &Api, secret: &str) -> Option<String> {
    let response = reqwest::Client::new()
        .get(api.url("/api/account"))
        .header(COOKIE, format!("ludus_session={secret}"))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = response.json().await.unwrap();
    body["account"]["name"].as_str().map(str::to_string)
}

#[tokio::test]
async fn a_wrong_token_is_refused_not_served_as_nobody() {
    let api = Api::start();
    let forged = Person::bot(&api, "Robo", "ludus_0123456789abcdef0123456789abcdef");
    let answer = forged.get("/api/account").await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "token is not valid");
    let url = format!("ws://{}/api/lobby/ws", api.server.addr());
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
            .unwrap();
    request.headers_mut().insert(
        "authorization",
        "Bearer ludus_0123456789abcdef0123456789abcdef"
            .parse()
            .unwrap(),
    );
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(
        refused.is_err(),
        "the lobby socket opens for a forged token"
    );
    // A refused name or password uses none of the address's sign-ups.
    let person = Person::browser(&api);
    for _ in 0..10 {
        let bad = person
            .post(
                "/api/account/signup",
                &json!({"name": "<b>", "password": "long enough"}),
            )
            .await;
        assert_eq!(bad.0, StatusCode::UNPROCESSABLE_ENTITY);
    }
    Person::sign_up(&api, "Ana").await;
}
