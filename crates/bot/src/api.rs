//! The server's HTTP routes a bot uses, each sent with `Authorization: Bearer TOKEN`: who the
//! token signs in, the account's seats (games to resume), answering challenges, posting and
//! withdrawing seeks, and a game's start position. A failure is either the server being out
//! of reach (retried by the caller) or its answer refusing the request, with the server's
//! own one-line error.

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION};
use reqwest::Method;
use serde_json::{json, Value};

use super::settings::{SeekSpec, Settings};

/// How long one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

/// A failed request.
#[derive(Debug)]
pub enum ApiError {
    /// No answer: the server is down or out of reach (worth retrying).
    Unreachable(String),
    /// The server answered with an error status and its message.
    Refused {
        /// The HTTP status.
        status: u16,
        /// The server's `error`, or the body's start.
        message: String,
    },
}

impl ApiError {
    /// Whether the server could not be reached, or answered that it cannot serve now (a
    /// proxy's 502–504, a server shutting down): worth retrying.
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Unreachable(_) => true,
            ApiError::Refused { status, .. } => matches!(status, 429 | 502..=504),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Unreachable(why) => f.write_str(why),
            ApiError::Refused { status, message } => write!(f, "{status}: {message}"),
        }
    }
}

/// The signed-in account.
#[derive(Clone, Debug)]
pub struct Account {
    /// Its name.
    pub name: String,
    /// Whether it is a bot account.
    pub bot: bool,
}

/// A seat of a game the bot plays, with its seat token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRef {
    /// The game's id.
    pub game: String,
    /// The seat, from 1.
    pub seat: usize,
    /// The seat's token.
    pub token: String,
}

impl SeatRef {
    /// Reads `{"game","seat","token"}` (an accepted challenge, a `started` event).
    pub fn from_json(value: &Value) -> Option<SeatRef> {
        Some(SeatRef {
            game: safe_id(value["game"].as_str()?)?.to_string(),
            seat: usize::try_from(value["seat"].as_u64()?).ok()?,
            token: value["token"].as_str()?.to_string(),
        })
    }
}

/// `id` if it is safe in a URL path (the server's ids are hex), `None` otherwise.
pub fn safe_id(id: &str) -> Option<&str> {
    let safe = !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    safe.then_some(id)
}

/// The server, reached with the bot's token.
#[derive(Debug)]
pub struct Api {
    base: String,
    http: reqwest::Client,
}

impl Api {
    /// A client of `settings.server` sending `settings.token`.
    pub fn new(settings: &Settings) -> anyhow::Result<Api> {
        let mut headers = HeaderMap::new();
        let mut bearer = HeaderValue::from_str(&format!("Bearer {}", settings.token))
            .map_err(|_| anyhow::anyhow!("bad --token: expected printable characters"))?;
        bearer.set_sensitive(true);
        headers.insert(AUTHORIZATION, bearer);
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            .build()?;
        Ok(Api {
            base: settings.server.clone(),
            http,
        })
    }

    /// `http://HOST:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The WebSocket address of `path`.
    pub fn ws_url(&self, path: &str) -> String {
        format!("ws{}{path}", &self.base[4..])
    }

    /// Sends a request; the answer's JSON on a success status.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, ApiError> {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| unreachable(&e))?;
        let status = response.status();
        let text = response.text().await.map_err(|e| unreachable(&e))?;
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(value);
        }
        let message = value["error"].as_str().map_or_else(
            || text.chars().take(200).collect::<String>(),
            str::to_string,
        );
        Err(ApiError::Refused {
            status: status.as_u16(),
            message,
        })
    }

    /// `GET /api/account/games` (a refused token is a 401 here) and `GET /api/account`: the
    /// account, and its seats of games still in progress.
    pub async fn sign_in(&self) -> Result<(Account, Vec<SeatRef>), ApiError> {
        let games = self.held_games().await?;
        let answer = self.call(Method::GET, "/api/account", None).await?;
        let account = &answer["account"];
        let Some(name) = account["name"].as_str() else {
            return Err(ApiError::Refused {
                status: 401,
                message: "the server signs nobody in with this token".to_string(),
            });
        };
        let account = Account {
            name: name.to_string(),
            bot: account["bot"].as_bool().unwrap_or(false),
        };
        Ok((account, games))
    }

    /// `GET /api/account/games`: the account's seats whose game is still in progress.
    pub async fn held_games(&self) -> Result<Vec<SeatRef>, ApiError> {
        let answer = self.call(Method::GET, "/api/account/games", None).await?;
        Ok(answer["games"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|g| g["summary"]["outcome"].is_null())
            .filter_map(|g| {
                SeatRef::from_json(
                    &json!({"game": g["id"], "seat": g["seat"], "token": g["token"]}),
                )
            })
            .collect())
    }

    /// `GET /api/challenges`: the incoming challenges.
    pub async fn incoming_challenges(&self) -> Result<Vec<Value>, ApiError> {
        let answer = self.call(Method::GET, "/api/challenges", None).await?;
        Ok(answer["incoming"].as_array().cloned().unwrap_or_default())
    }

    /// `POST /api/challenges/{id}/accept`: the bot's seat of the new game.
    pub async fn accept_challenge(&self, id: &str) -> Result<SeatRef, ApiError> {
        let answer = self
            .call(
                Method::POST,
                &format!("/api/challenges/{id}/accept"),
                Some(json!({})),
            )
            .await?;
        SeatRef::from_json(&answer).ok_or_else(|| ApiError::Refused {
            status: 201,
            message: format!("expected {{\"game\",\"seat\",\"token\"}}, got {answer}"),
        })
    }

    /// `POST /api/challenges/{id}/decline`.
    pub async fn decline_challenge(&self, id: &str) -> Result<(), ApiError> {
        self.call(
            Method::POST,
            &format!("/api/challenges/{id}/decline"),
            Some(json!({})),
        )
        .await
        .map(drop)
    }

    /// `POST /api/seeks`: the new seek's id.
    pub async fn post_seek(&self, seek: &SeekSpec) -> Result<String, ApiError> {
        let answer = self
            .call(Method::POST, "/api/seeks", Some(seek.body()))
            .await?;
        answer["seek"]["id"]
            .as_str()
            .and_then(safe_id)
            .map(str::to_string)
            .ok_or_else(|| ApiError::Refused {
                status: 201,
                message: format!("expected {{\"seek\":{{\"id\",...}}}}, got {answer}"),
            })
    }

    /// `DELETE /api/seeks/{id}`.
    pub async fn delete_seek(&self, id: &str) -> Result<(), ApiError> {
        self.call(Method::DELETE, &format!("/api/seeks/{id}"), None)
            .await
            .map(drop)
    }

    /// `GET /api/games/{id}/view?ply=0`: the game's start position string.
    pub async fn start_position(&self, game: &str) -> Result<String, ApiError> {
        let answer = self
            .call(Method::GET, &format!("/api/games/{game}/view?ply=0"), None)
            .await?;
        answer["position"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| ApiError::Refused {
                status: 200,
                message: "no position in the view".to_string(),
            })
    }
}

/// A request that got no answer, said shortly: its deepest cause (`Connection refused`),
/// reqwest's own message naming only the URL.
fn unreachable(error: &reqwest::Error) -> ApiError {
    let mut cause: &dyn std::error::Error = error;
    while let Some(source) = cause.source() {
        cause = source;
    }
    let what = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "cannot connect"
    } else {
        "the connection failed"
    };
    ApiError::Unreachable(format!("{what}: {cause}"))
}

/// An error and its causes on one line (reqwest's own message names only the URL).
pub fn one_line(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        source = cause.source();
    }
    line
}
