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

use crate::error::ApiError;
use crate::hub::Hub;

/// The client's IP address, when the server knows it (every request served by `Server`).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub Option<IpAddr>);

/// Notes the client's address, refuses foreign origins, and takes an action from the
/// client's bucket for requests that change something.
pub async fn guard(State(hub): State<Arc<Hub>>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let client = if hub.config.trust_proxy {
        forwarded_for(request.headers()).or(peer)
    } else {
        peer
    };
    request.extensions_mut().insert(Client(client));
    if let Err(error) = check_origin(request.headers(), &hub.config.allowed_origins) {
        return error.into_response();
    }
    let acts = matches!(*request.method(), Method::POST | Method::DELETE);
    if acts && request.uri().path().starts_with("/api/") {
        if let Err(error) = hub.limits.act(client) {
            return error.into_response();
        }
    }
    next.run(request).await
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
pub fn cors(allowed: &[String]) -> Option<CorsLayer> {
    let origins: Vec<HeaderValue> = allowed
        .iter()
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
