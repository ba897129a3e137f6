//! Who sent a request: the account behind its session cookie (a browser) or its
//! `Authorization: Bearer` token (a bot, a script), resolved once by the guard for the
//! per-person limits and read by routes through the [`Person`] extractor.
//!
//! CSRF: a cookie is sent by the browser whoever made the page, so a change authorised by
//! the cookie is accepted only from this server's own page: its `Origin` must name this
//! server (an origin merely allowed with `--allow-origin` is not enough, and a missing
//! `Origin` is refused too; browsers send it on every POST). Tokens are not sent by browsers
//! on their own and need no such check. `SameSite=Lax` on the cookie is a second line.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use crate::error::ApiError;
use crate::hub::Hub;
use crate::people::Account;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "ludus_session";

/// How a request proved who sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The session cookie, with the session's secret.
    Session(String),
    /// An API token.
    Token,
}

/// The signed-in sender of a request.
#[derive(Clone, Debug)]
pub struct Person {
    /// The account.
    pub account: Account,
    /// How it was proved.
    pub proof: Proof,
}

/// What the guard learnt of the sender, kept in the request's extensions.
#[derive(Clone, Debug, Default)]
pub struct Sender {
    /// The signed-in sender, if any.
    pub person: Option<Person>,
    /// A change authorised by a cookie but not sent from this server's page: refused by
    /// routes that need the person.
    pub cross_site: bool,
    /// An `Authorization: Bearer` token that is no valid token: the request is refused (a
    /// script must learn its token is wrong, not be served as nobody).
    pub bad_token: bool,
}

impl Sender {
    /// Reads the cookie or the bearer token of a request and looks its account up. A bad or
    /// ended secret is as no secret: the request goes on as anyone's.
    pub async fn of(hub: &Hub, method: &Method, headers: &HeaderMap) -> Sender {
        if let Some(token) = bearer(headers) {
            let person = hub
                .people
                .token_account(token)
                .ok()
                .flatten()
                .map(|account| Person {
                    account,
                    proof: Proof::Token,
                });
            return Sender {
                bad_token: person.is_none(),
                person,
                cross_site: false,
            };
        }
        let jar = CookieJar::from_headers(headers);
        let Some(secret) = jar.get(SESSION_COOKIE).map(|c| c.value().to_string()) else {
            return Sender::default();
        };
        let person = hub
            .people
            .session(&secret)
            .await
            .ok()
            .flatten()
            .map(|account| Person {
                account,
                proof: Proof::Session(secret),
            });
        let changes = matches!(
            *method,
            Method::POST | Method::DELETE | Method::PUT | Method::PATCH
        );
        let cross_site = person.is_some() && changes && !from_own_page(headers);
        Sender {
            person: person.filter(|_| !cross_site),
            cross_site,
            bad_token: false,
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(str::trim)
}

/// Whether the request's `Origin` names this server (its authority equals `Host`).
pub fn from_own_page(headers: &HeaderMap) -> bool {
    let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let authority = origin.and_then(|o| {
        o.strip_prefix("http://")
            .or_else(|| o.strip_prefix("https://"))
    });
    authority.is_some() && authority == host
}

impl FromRequestParts<Arc<Hub>> for Person {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &Arc<Hub>) -> Result<Person, ApiError> {
        let sender = parts
            .extensions
            .get::<Sender>()
            .cloned()
            .unwrap_or_default();
        if sender.cross_site {
            return Err(ApiError::forbidden(
                "a change signed in by cookie must come from this server's page: expected its Origin header, or an API token (Authorization: Bearer)",
            ));
        }
        sender.person.ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "not signed in: expected a session (POST /api/account/signin) or an API token (Authorization: Bearer)",
            )
        })
    }
}

impl axum::extract::OptionalFromRequestParts<Arc<Hub>> for Person {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        hub: &Arc<Hub>,
    ) -> Result<Option<Person>, ApiError> {
        match <Person as FromRequestParts<Arc<Hub>>>::from_request_parts(parts, hub).await {
            Ok(person) => Ok(Some(person)),
            Err(error) if error.status == StatusCode::UNAUTHORIZED => Ok(None),
            Err(error) => Err(error),
        }
    }
}

/// The session cookie holding `secret`: `HttpOnly` (no script reads it), `SameSite=Lax`,
/// `Secure` when the server is reached over https, for the whole site, for a month.
pub fn session_cookie(secret: String, secure: bool) -> Cookie<'static> {
    Cookie::build((SESSION_COOKIE, secret))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(time_month())
        .build()
}

/// The cookie that makes the browser forget the session.
pub fn ended_cookie(secure: bool) -> Cookie<'static> {
    let mut cookie = session_cookie(String::new(), secure);
    cookie.make_removal();
    cookie
}

fn time_month() -> cookie::time::Duration {
    cookie::time::Duration::days(30)
}
