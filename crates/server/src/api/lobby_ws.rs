//! `GET /api/lobby/ws`: the lobby, live. Everyone hears the open seeks (the whole list
//! first, then each one added or gone); a signed-in account also hears its own news: a game
//! of theirs began (with the seat's token, so the page opens it at once), a challenge came,
//! was declined or withdrawn. The socket only listens: what a client sends is read for
//! liveness and otherwise ignored; it is pinged like the game sockets and closed when silent.
//!
//! A browser's session cookie is honoured only from this server's own page (a page merely
//! allowed with `--allow-origin` hears the public lobby only): its personal frames carry
//! seat tokens.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde_json::json;
use tokio::sync::broadcast;
use tokio::time::{Duration, Instant};

use super::guard::Client;
use super::person::{from_own_page, Person, Proof};
use super::ws::{refused, sized};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::net::at_most_a_year;

/// The largest message read from a lobby socket (it expects none but pongs).
const MAX_MESSAGE: usize = 4 * 1024;

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    person: Option<Person>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|r| {
        ApiError::new(
            r.status(),
            format!("{}: expected a WebSocket upgrade request", r.body_text()),
        )
    })?;
    let account = person
        .filter(|p| p.proof == Proof::Token || from_own_page(&headers))
        .map(|p| p.account.id);
    let slot = hub.sockets.admit(client.address).map_err(refused)?;
    // Subscribed before the handshake's answer leaves: nothing sent after the client sees
    // the socket open is missed.
    let lobby = hub.pairing.events.lobby();
    let personal = account.map(|id| hub.pairing.events.account(id));
    Ok(sized(upgrade, MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            listen(socket, hub, lobby, personal).await;
        })
        .into_response())
}

async fn listen(
    mut socket: WebSocket,
    hub: Arc<Hub>,
    mut lobby: broadcast::Receiver<Arc<str>>,
    mut personal: Option<broadcast::Receiver<Arc<str>>>,
) {
    let mut closing = hub.closing();
    let silence = at_most_a_year(hub.config.socket_timeout);
    let every = at_most_a_year(hub.config.ping_interval).max(Duration::from_millis(1));
    let mut ping = tokio::time::interval_at(Instant::now() + every, every);
    let mut heard = Instant::now();
    let mut frame = Some(seeks_frame(&hub));
    loop {
        if let Some(text) = frame.take() {
            let sent =
                tokio::time::timeout_at(heard + silence, socket.send(Message::Text(text.into())));
            if !matches!(sent.await, Ok(Ok(()))) {
                return;
            }
        }
        frame = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => { heard = Instant::now(); None }
            },
            update = lobby.recv() => match update {
                Ok(text) => Some(text.to_string()),
                Err(broadcast::error::RecvError::Lagged(_)) => Some(seeks_frame(&hub)),
                Err(broadcast::error::RecvError::Closed) => return,
            },
            Some(update) = next_personal(personal.as_mut()) => Some(update),
            _ = ping.tick() => {
                if heard.elapsed() >= silence {
                    return;
                }
                if socket.send(Message::Ping(axum::body::Bytes::new())).await.is_err() {
                    return;
                }
                None
            }
            _ = closing.changed() => return,
        };
    }
}

/// The next personal frame; never resolves for a socket without an account. A lagged
/// receiver skips what it lost (each frame is news, not state; the lists are on GET).
async fn next_personal(receiver: Option<&mut broadcast::Receiver<Arc<str>>>) -> Option<String> {
    let Some(receiver) = receiver else {
        return std::future::pending().await;
    };
    loop {
        match receiver.recv().await {
            Ok(text) => return Some(text.to_string()),
            Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return std::future::pending().await,
        }
    }
}

fn seeks_frame(hub: &Hub) -> String {
    json!({"type": "seeks", "seeks": hub.pairing.seeks().list()}).to_string()
}
