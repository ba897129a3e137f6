//! The routes: the JSON API under `/api`, the WebSocket per game, and the page's files.

mod accounts;
mod actions;
mod games;
mod guard;
mod headers;
mod hosts;
mod large_bodies;
mod links;
mod lobby_ws;
mod page;
mod pairing;
mod person;
mod plain_errors;
mod players;
mod ws;
mod ws_outlet;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, MethodRouter};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;

use crate::assets;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::meta;
use crate::Config;

pub use guard::AccessError;
pub use hosts::{check_access, check_host, check_origin};

/// `/api/games`: the list, and creation, whose body may carry a record (bounded per request
/// and, while read, over all requests).
fn games_route(config: &Config) -> MethodRouter<Arc<Hub>> {
    let records = Arc::new(large_bodies::LargeBodies::new(
        config.records_in_flight,
        config.body_limit,
        config.record_limit,
    ));
    get(games::list)
        .post(games::create)
        .layer(DefaultBodyLimit::max(config.record_limit))
        .layer(axum::middleware::from_fn_with_state(
            records,
            large_bodies::admit,
        ))
}

/// The whole application, for a server listening on `local`.
pub fn router(hub: Arc<Hub>, local: Option<SocketAddr>) -> Router {
    let hosts = Arc::new(hosts::Hosts::new(local, &hub.config.allowed_hosts));
    let body_limit = hub.config.body_limit;
    let games = Router::new()
        .route("/api/games", games_route(&hub.config))
        .route(
            "/api/games/{id}",
            get(games::snapshot).delete(games::delete),
        )
        .route("/api/games/{id}/moves", post(actions::moves))
        .route("/api/games/{id}/undo", post(actions::undo))
        .route("/api/games/{id}/redo", post(actions::redo))
        .route("/api/games/{id}/resign", post(actions::resign))
        .route("/api/games/{id}/hint", post(actions::hint))
        .route("/api/games/{id}/control", post(actions::control))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/view", get(games::view))
        .route("/api/games/{id}/work", get(games::work))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/games/{id}/claim", post(games::claim))
        .route("/api/lobby", get(games::lobby))
        .route("/api/games/{id}/offer", post(actions::offer))
        .route("/api/games/{id}/answer", post(actions::answer))
        .route("/api/games/{id}/absent", post(actions::absent))
        .route("/api/meta", get(meta_route))
        .route("/healthz", get(healthz))
        .merge(people_routes());
    let mut app = games
        .merge(page_routes())
        .fallback(assets::fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::map_response(plain_errors::as_json));
    if let Some(cors) = guard::cors(&hub.config.allowed_origins) {
        app = app.layer(cors);
    }
    let app = app
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&hub),
            guard::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(hosts, hosts::check))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the server failed on this request; it keeps serving others",
            )
            .into_response()
        }));
    let trust_proxy = hub.config.trust_proxy;
    headers::secure(app, trust_proxy).with_state(hub)
}

/// The routes of accounts, ratings and pairing.
/// The paths that serve the page (it routes on the path itself).
fn page_routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/", get(assets::index))
        .route("/g/{id}", get(assets::index))
        .route("/lobby", get(assets::index))
        .route("/leaderboard", get(assets::index))
        .route("/account", get(assets::index))
        .route("/@/{name}", get(assets::index))
}

fn people_routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/account", get(accounts::whoami))
        .route("/api/account/signup", post(accounts::sign_up))
        .route("/api/account/signin", post(accounts::sign_in))
        .route("/api/account/signout", post(accounts::sign_out))
        .route("/api/account/password", post(accounts::password))
        .route("/api/account/about", post(accounts::about))
        .route("/api/account/tokens", post(accounts::new_token))
        .route("/api/account/games", get(accounts::games))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/leaderboard", get(players::leaderboard))
        .route(
            "/api/seeks",
            get(pairing::list_seeks).post(pairing::post_seek),
        )
        .route("/api/seeks/{id}", delete(pairing::cancel_seek))
        .route("/api/seeks/{id}/accept", post(pairing::accept_seek))
        .route("/api/pools", get(pairing::list_pools))
        .route("/api/pools/{id}/join", post(pairing::join_pool))
        .route("/api/pools/{id}/leave", post(pairing::leave_pool))
        .route(
            "/api/challenges",
            get(pairing::list_challenges).post(pairing::challenge),
        )
        .route("/api/challenges/{id}", delete(pairing::cancel_challenge))
        .route(
            "/api/challenges/{id}/accept",
            post(pairing::accept_challenge),
        )
        .route(
            "/api/challenges/{id}/decline",
            post(pairing::decline_challenge),
        )
        .route("/api/games/{id}/rematch", post(pairing::rematch))
        .route("/api/lobby/ws", get(lobby_ws::upgrade))
}

/// `GET /healthz`: 200 when the store and the accounts' database answer, else 503 naming
/// what failed (for a container's health check or a load balancer).
async fn healthz(axum::extract::State(hub): axum::extract::State<Arc<Hub>>) -> Response {
    let checked = hub
        .store
        .healthy()
        .map_err(|e| e.0)
        .and_then(|()| hub.people.healthy().map_err(|e| format!("accounts: {e}")));
    match checked {
        Ok(()) => json_response(StatusCode::OK, r#"{"ok":true}"#.to_string()),
        Err(problem) => {
            tracing::error!("health check failed: {problem}");
            ApiError::unavailable(format!("unhealthy: {problem}")).into_response()
        }
    }
}

async fn meta_route() -> Response {
    json_response(StatusCode::OK, meta::meta().to_string())
}

async fn method_not_allowed(request: axum::extract::Request) -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} is not allowed on {}: expected the method docs/API.md gives for it",
            request.method(),
            request.uri().path()
        ),
    )
    .into_response()
}

/// A JSON text answer.
pub fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}
