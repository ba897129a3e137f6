//! `/api/account`: sign up, sign in, sign out, change the password, the profile's text, a
//! bot's API tokens, and the account's games with their seat tokens (how a person continues
//! a game from another browser). Bodies that carry a password are parsed without echoing
//! any value in an error, and no password reaches a log.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum_extra::extract::cookie::CookieJar;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::guard::Client;
use super::json_response;
use super::person::{ended_cookie, session_cookie, Person, Proof};
use crate::error::{ApiError, Body};
use crate::hub::Hub;
use crate::people::sessions::digest;

/// `POST /api/account/signup` and `/signin`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
    /// A bot account (sign-up only): it plays through the API with tokens.
    #[serde(default)]
    bot: bool,
}

/// `POST /api/account/password`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    current: String,
    new: String,
}

/// `POST /api/account/about`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct About {
    about: String,
}

/// `POST /api/account/tokens`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenLabel {
    #[serde(default)]
    label: String,
}

/// Reads a JSON body whose values may be secret: an error names where and what kind of
/// problem, never a value.
fn secret_body<T: DeserializeOwned>(bytes: &[u8], example: &str) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => "a missing, unknown or mistyped field",
            serde_json::error::Category::Eof => "it ends too soon",
            _ => "it is not JSON",
        };
        ApiError::bad_request(format!(
            "bad JSON body ({what}, line {} column {}): expected a JSON object like {example}",
            e.line(),
            e.column()
        ))
    })
}

/// Seats read from the database for `GET /api/account/games`, and at most answered.
const HELD_READ: usize = 500;
const HELD_SHOWN: usize = 100;

const CREDENTIALS: &str = r#"{"name":"ana","password":"<8 to 128 characters>"}"#;

/// The client's key for sign-up and sign-in limits.
fn client_key(client: Client) -> String {
    client
        .address
        .map_or_else(|| "unknown".to_string(), |c| c.to_string())
}

pub async fn sign_up(
    State(hub): State<Arc<Hub>>,
    Extension(client): Extension<Client>,
    jar: CookieJar,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: Credentials = secret_body(&bytes, CREDENTIALS)?;
    // A refused name or password costs no hash, so it uses none of the address's sign-ups.
    crate::people::check_name(&request.name)?;
    crate::people::check_password(&request.password)?;
    hub.people
        .throttle
        .sign_up(&client_key(client))
        .map_err(|wait| too_many("new accounts from this address", wait))?;
    let account = hub
        .people
        .sign_up(&request.name, &request.password, request.bot)
        .await?;
    let secret = hub.people.new_session(&account).await?;
    let jar = jar.add(session_cookie(secret, hub.people.secure_cookies));
    let body = json!({ "account": account });
    Ok((jar, json_response(StatusCode::CREATED, body.to_string())).into_response())
}

pub async fn sign_in(
    State(hub): State<Arc<Hub>>,
    Extension(client): Extension<Client>,
    jar: CookieJar,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: Credentials = secret_body(&bytes, CREDENTIALS)?;
    let people = &hub.people;
    people
        .throttle
        .sign_in(&request.name, &client_key(client))
        .map_err(|wait| too_many("sign-in attempts for this name or from this address", wait))?;
    let account = match people.sign_in(&request.name, &request.password).await {
        Ok(account) => account,
        Err(error) => {
            people.throttle.failed(&request.name);
            return Err(error);
        }
    };
    people.throttle.succeeded(&request.name);
    // A new session at every sign-in: a session id planted in the browser before is worth
    // nothing after it, and the old one ends.
    if let Some(old) = jar.get(super::person::SESSION_COOKIE) {
        let _ = people.end_session(old.value()).await;
    }
    let secret = people.new_session(&account).await?;
    let jar = jar.add(session_cookie(secret, people.secure_cookies));
    let body = json!({ "account": account });
    Ok((jar, json_response(StatusCode::OK, body.to_string())).into_response())
}

pub async fn sign_out(
    State(hub): State<Arc<Hub>>,
    person: Person,
    jar: CookieJar,
    Body(_): Body<crate::protocol::Nothing>,
) -> Result<Response, ApiError> {
    if let Proof::Session(secret) = &person.proof {
        hub.people.end_session(secret).await?;
    }
    let jar = jar.add(ended_cookie(hub.people.secure_cookies));
    Ok((
        jar,
        json_response(StatusCode::OK, json!({"signed_out": true}).to_string()),
    )
        .into_response())
}

pub async fn password(
    State(hub): State<Arc<Hub>>,
    person: Person,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: NewPassword = secret_body(
        &bytes,
        r#"{"current":"<the password now>","new":"<8 to 128 characters>"}"#,
    )?;
    let keep = match &person.proof {
        Proof::Session(secret) => Some(digest(secret)),
        Proof::Token => None,
    };
    hub.people
        .change_password(
            &person.account,
            &request.current,
            &request.new,
            keep.as_deref(),
        )
        .await?;
    Ok(json_response(
        StatusCode::OK,
        json!({"changed": true}).to_string(),
    ))
}

pub async fn about(
    State(hub): State<Arc<Hub>>,
    person: Person,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: About = secret_body(&bytes, r#"{"about":"<at most 400 characters>"}"#)?;
    hub.people
        .set_about(person.account.id, &request.about)
        .await?;
    Ok(json_response(
        StatusCode::OK,
        json!({"about": request.about}).to_string(),
    ))
}

/// `GET /api/account`: who is signed in (`null` for nobody).
pub async fn whoami(person: Option<Person>) -> Response {
    let account = person.map(|p| p.account);
    json_response(StatusCode::OK, json!({ "account": account }).to_string())
}

/// `POST /api/account/tokens`: a new API token for a bot account, shown once.
pub async fn new_token(
    State(hub): State<Arc<Hub>>,
    person: Person,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: TokenLabel = secret_body(&bytes, r#"{"label":"my engine"}"#)?;
    if !person.account.bot {
        return Err(ApiError::forbidden(
            "API tokens are for bot accounts: expected an account signed up with \"bot\": true",
        ));
    }
    let label: String = request.label.chars().take(60).collect();
    let token = hub.people.new_token(&person.account, &label).await?;
    Ok(json_response(
        StatusCode::CREATED,
        json!({ "token": token, "label": label }).to_string(),
    ))
}

/// `GET /api/account/games`: the account's seats, newest first, each with its game's summary
/// and the seat's token (read from the game itself), so the page can continue it here.
pub async fn games(State(hub): State<Arc<Hub>>, person: Person) -> Result<Response, ApiError> {
    let held = hub.people.held_seats(person.account.id, HELD_READ)?;
    let mut games: Vec<(bool, Value)> = held
        .into_iter()
        .filter_map(|seat| {
            let game = hub.store.get(&seat.game_id)?;
            let token = game
                .lock()
                .seats
                .get(seat.seat.checked_sub(1)?)?
                .token
                .clone();
            let over = game.is_finished();
            let (_, summary) = game.summary();
            Some((
                over,
                json!({"id": seat.game_id, "seat": seat.seat, "token": token, "summary": summary}),
            ))
        })
        .collect();
    // Games in progress first (a bot resuming its games finds them all), newest first in each.
    games.sort_by_key(|(over, _)| *over);
    let games: Vec<Value> = games.into_iter().take(HELD_SHOWN).map(|(_, g)| g).collect();
    Ok(json_response(
        StatusCode::OK,
        json!({ "games": games }).to_string(),
    ))
}

fn too_many(what: &str, wait_s: u64) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many {what}: try again in {wait_s} s"),
    )
}
