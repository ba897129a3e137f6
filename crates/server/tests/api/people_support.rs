//! A signed-in person for the API tests: a client with its own cookie store that sends this
//! server's `Origin` on every request, as the page does; or a bot sending its API token.

use std::sync::Arc;

use reqwest::cookie::{CookieStore, Jar};
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, COOKIE, ORIGIN};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::support::{read, Api, Socket};

/// One browser's worth of cookies, speaking for one person.
pub struct Person {
    pub name: String,
    pub client: reqwest::Client,
    jar: Arc<Jar>,
    headers: HeaderMap,
    base: String,
}

impl Person {
    /// A client with a cookie store of its own and the page's `Origin` (no account yet).
    pub fn browser(api: &Api) -> Person {
        Person::with_headers(api, page_origin(api))
    }

    /// A bot's client: its API token on every request, no cookies, no `Origin`.
    pub fn bot(api: &Api, name: &str, token: &str) -> Person {
        let mut headers = HeaderMap::new();
        headers.insert(
            AUTHORIZATION,
            HeaderValue::from_str(&format!("Bearer {token}")).unwrap(),
        );
        let mut person = Person::with_headers(api, headers);
        person.name = name.to_string();
        person
    }

    fn with_headers(api: &Api, headers: HeaderMap) -> Person {
        let jar = Arc::new(Jar::default());
        Person {
            name: String::new(),
            client: reqwest::Client::builder()
                .cookie_provider(Arc::clone(&jar))
                .default_headers(headers.clone())
                .build()
                .unwrap(),
            jar,
            headers,
            base: api.url(""),
        }
    }

    /// Opens the lobby's WebSocket as this person's browser (cookie and `Origin`) or bot
    /// (token) would.
    pub async fn lobby(&self, api: &Api) -> Socket {
        let url = format!("ws://{}/api/lobby/ws", api.server.addr());
        let mut request = url.into_client_request().unwrap();
        for (name, value) in &self.headers {
            request.headers_mut().insert(name, value.clone());
        }
        let base: reqwest::Url = self.base.parse().unwrap();
        if let Some(cookies) = self.jar.cookies(&base) {
            request.headers_mut().insert(COOKIE, cookies);
        }
        let (socket, _) = connect_async(request)
            .await
            .expect("the lobby socket opens");
        Socket::wrap(socket)
    }

    /// Signs up `name` with a password derived from it (`NAME-password`); panics unless 201.
    pub async fn sign_up(api: &Api, name: &str) -> Person {
        let mut person = Person::browser(api);
        let answer = person
            .post(
                "/api/account/signup",
                &json!({"name": name, "password": password_of(name)}),
            )
            .await;
        assert_eq!(answer.0, StatusCode::CREATED, "{}", answer.1);
        person.name = name.to_string();
        person
    }

    /// Signs up a bot account and answers a client using its new API token.
    pub async fn bot_account(api: &Api, name: &str) -> Person {
        let owner = Person::browser(api);
        let body = json!({"name": name, "password": password_of(name), "bot": true});
        let (status, _) = owner.post("/api/account/signup", &body).await;
        assert_eq!(status, StatusCode::CREATED);
        let (status, token) = owner
            .post("/api/account/tokens", &json!({"label": "test"}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{token}");
        Person::bot(api, name, token["token"].as_str().unwrap())
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        read(
            self.client
                .get(format!("{}{path}", self.base))
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        let request = self
            .client
            .post(format!("{}{path}", self.base))
            .body(body.to_string());
        read(request.send().await.unwrap()).await
    }

    pub async fn delete(&self, path: &str) -> (StatusCode, Value) {
        read(
            self.client
                .delete(format!("{}{path}", self.base))
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// The account's name as the server sees this client (`None`: not signed in).
    pub async fn whoami(&self) -> Option<String> {
        let (status, body) = self.get("/api/account").await;
        assert_eq!(status, StatusCode::OK);
        body["account"]["name"].as_str().map(str::to_string)
    }
}

/// The password the tests give `name`.
pub fn password_of(name: &str) -> String {
    format!("{name}-password")
}

/// The `Origin` header of the server's own page.
pub fn page_origin(api: &Api) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let origin = format!("http://{}", api.server.addr());
    headers.insert(ORIGIN, HeaderValue::from_str(&origin).unwrap());
    headers
}
