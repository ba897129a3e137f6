//! What every request passes before its route: the client's address (for the per-client
//! limits), the action limit on requests that change something, and the origin check.
//!
//! The client's address is the TCP peer's, or with `trust_proxy` the one a reverse proxy
//! appended to `X-Forwarded-For` (the header is ignored otherwise: any client could write it).
//!
//! A request carrying an `Origin` header is served only if that origin is the server's own
//! (its host and port equal the `Host` header: the page itself, whose POSTs and WebSocket
//! carry `Origin`) or one allowed with `--allow-origin`; any other gets a 403. That includes
//! the WebSocket upgrade: browsers do not apply CORS to WebSockets, so this check is the
//! defence against cross-site WebSocket hijacking. Allowed origins also get CORS headers
//! (tower-http's `CorsLayer`, preflight included). Clients without `Origin` (curl, bots) pass.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::person::Sender;
use crate::client::ClientId;
use crate::error::ApiError;
use crate::hub::Hub;

/// Who sent a request, for the limits.
#[derive(Clone, Copy, Debug)]
pub struct Client {
    /// The client's IP address, when the server knows it (every request served by
    /// `Server`): connections and sockets are counted per address.
    pub address: Option<IpAddr>,
    /// Who actions, games and searches are counted against: the signed-in person, else the
    /// address.
    pub charged: Option<ClientId>,
}

/// Notes the client's address, refuses foreign origins, and takes an action from the
/// client's bucket for requests that change something.
pub async fn guard(State(hub): State<Arc<Hub>>, mut request: Request, next: Next) -> Response {
    let client = client_address(&request, hub.config.trust_proxy);
    let sender = Sender::of(&hub, request.method(), request.headers()).await;
    if sender.bad_token {
        return ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "the API token is not valid (revoked, or its account closed): expected a token from POST /api/account/tokens",
        )
        .into_response();
    }
    let charged = match &sender.person {
        Some(person) => Some(ClientId::Person(person.account.id)),
        None => client.map(ClientId::Address),
    };
    request.extensions_mut().insert(Client {
        address: client,
        charged,
    });
    request.extensions_mut().insert(sender);
    if let Err(error) = check_origin(request.headers(), &hub.config.allowed_origins) {
        return error.into_response();
    }
    let acts = matches!(*request.method(), Method::POST | Method::DELETE);
    if acts && request.uri().path().starts_with("/api/") {
        if let Err(error) = hub.limits.act(charged) {
            return error.into_response();
        }
    }
    next.run(request).await
}

/// The client's address: the TCP peer's, or with `trust_proxy` the one the reverse proxy
/// forwarded (falling back to the peer's when the header is missing or unreadable). The
/// per-client limits and the request log both use it.
pub(super) fn client_address(request: &Request, trust_proxy: bool) -> Option<IpAddr> {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    if trust_proxy {
        forwarded_for(request.headers()).or(peer)
    } else {
        peer
    }
}

/// The address the reverse proxy appended to `X-Forwarded-For`: the last entry of the last
/// such header. Entries before it were written by the client and prove nothing.
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let entry = last.to_str().ok()?.rsplit(',').next()?.trim();
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

/// Passes a request without `Origin`, from the server's own origin, or from an allowed one.
fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let same = authority.is_some_and(|a| Some(a) == host);
    if same || allowed.iter().any(|a| a == origin) {
        return Ok(());
    }
    Err(ApiError::forbidden(format!(
        "cross-origin request from '{origin}' refused: expected the page of this server, or a server started with --allow-origin {origin}"
    )))
}

/// CORS headers for the allowed origins (`None` when none is allowed: same origin only).
/// Only full origins get there ([`valid_origin`], checked when the server binds); any other
/// is left out here too, since tower-http's list panics on a wildcard.
pub fn cors(allowed: &[String]) -> Option<CorsLayer> {
    let origins: Vec<HeaderValue> = allowed
        .iter()
        .filter(|o| valid_origin(o).is_ok())
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    if origins.is_empty() {
        return None;
    }
    Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([Method::GET, Method::POST, Method::DELETE])
            .allow_headers([header::CONTENT_TYPE]),
    )
}

/// A configured origin or host that is not one: what is wrong and what was expected.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum AccessError {
    /// An `--allow-origin` value a browser never sends (the value, cut to 80 characters).
    #[error(
        "bad origin '{origin}': {why}; expected scheme://host[:port] with http or https, as \
         https://example.org or http://localhost:8080"
    )]
    Origin {
        /// The value as given, at most 80 characters.
        origin: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// An `--allow-host` value that is not a host name or address.
    #[error(
        "bad host '{0}': expected a host name or an IP address without scheme, port or \
         wildcard, as games.example.org"
    )]
    Host(String),
}

/// Checks that `origin` is one a browser sends: `http` or `https`, `://`, a lower-case host
/// name or address, an optional port; no path, query, user or wildcard.
///
/// # Errors
/// [`AccessError::Origin`], saying what is wrong with it.
pub fn valid_origin(origin: &str) -> Result<(), AccessError> {
    let bad = |why: &'static str| {
        Err(AccessError::Origin {
            origin: origin.chars().take(80).collect(),
            why,
        })
    };
    let Some((scheme, authority)) = origin.split_once("://") else {
        return bad("no scheme");
    };
    if scheme != "http" && scheme != "https" {
        return bad("the scheme is not http or https");
    }
    if authority.contains(['/', '?', '#']) {
        return bad("an origin has no path");
    }
    if authority.contains(['*', '@']) || authority.is_empty() {
        return bad("a wildcard, user or empty host is not an origin");
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(':') && !port.contains(']') => (host, Some(port)),
        _ => (authority, None),
    };
    if port.is_some_and(|p| !p.parse::<u16>().is_ok_and(|p| p > 0)) {
        return bad("the port is not a number from 1 to 65535");
    }
    let ipv6 = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .is_some_and(|h| h.parse::<std::net::Ipv6Addr>().is_ok());
    let name = host.bytes().any(|b| b.is_ascii_alphanumeric())
        && host.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        });
    if !(ipv6 || name) {
        return bad("the host is not a lower-case name or address");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::valid_origin;

    #[test]
    fn origins_are_a_scheme_and_a_host_with_an_optional_port() {
        for good in [
            "https://example.org",
            "http://localhost:8080",
            "http://127.0.0.1:3000",
            "http://[::1]:8080",
            "https://my-games.example.org",
        ] {
            assert_eq!(valid_origin(good), Ok(()), "{good}");
        }
        for bad in [
            "*",
            "null",
            "https://*.example.org",
            "https://example.org/",
            "https://example.org/path",
            "ftp://example.org",
            "example.org",
            "https://Example.org",
            "https://example.org:0",
            "https://example.org:99999",
            "https://user@example.org",
            "https://",
            "https://a..org",
        ] {
            let error = valid_origin(bad).unwrap_err().to_string();
            assert!(error.starts_with("bad origin"), "{bad}: {error}");
        }
    }
}
