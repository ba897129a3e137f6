//! The WebSocket of a game: the snapshot on connect (and on a `sync`), then each change as a
//! delta (live/delta.rs), shared by every socket of the game; actions sent
//! as JSON messages with the socket's token. The game's chat travels here too (live/chat.rs):
//! its history follows the first snapshot, and a seat's socket skips the spectators' lines. A bad message gets an error frame and the socket
//! stays open; only frames past the hard limit (a protocol error) close it.
//!
//! What a socket may hold is bounded: sockets are capped per client and in all; the server
//! pings every socket and closes one whose client sent nothing (not even a pong) for the
//! socket timeout, or that did not take its frames within that time (a client that stopped
//! reading). Such a client cannot make the server queue frames for it: a change writes only
//! what its socket takes at once (api/ws_outlet.rs), the rest waits in the game's short log
//! (live/fan_out.rs), and a client that fell further behind gets one snapshot instead of the
//! frames it missed.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use axum::body::Bytes;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde_json::json;
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

use super::guard::Client;
use super::person::Sender;
use super::ws_outlet::{snapshot_frame, text, SocketOutlet};
use crate::error::{parse_body, ApiError};
use crate::hub::Hub;
use crate::live::{self, ChatPace, Command, LiveGame, Outlet, Speaker, TableCommand};
use crate::net::at_most_a_year;
use crate::net::caps::Refused;
use crate::protocol::{ClientMessage, Control};

/// Messages past twice the configured limit (`Config::frame_limit`) close the socket:
/// tungstenite stops reading them. Smaller ones over the limit get an error frame, so a
/// client that overshoots a little hears why. A socket holds what it has read of a message
/// until the message ends, and bytes that trickle in keep it open: at 1 MiB, as this bound
/// was, the 10,000 sockets a server admits could have held 10 GiB.
fn hard_limit(frame_limit: usize) -> usize {
    frame_limit.saturating_mul(2)
}

/// The read buffer each socket allocates up front. Clients send small actions (a move is
/// under 100 bytes); a bigger message is still read, in several reads. tungstenite's
/// default, 128 KiB, made an idle game with two sockets cost about 300 KiB of server memory
/// (and each lobby socket 170 KiB); and tungstenite zeroes the buffer's free part before every
/// read it tries, which happened each time a change woke the socket's task: with 4 KiB,
/// that `memset` was 1.9 % of the server's CPU under the load test.
const READ_BUFFER: usize = 1024;

/// Frames are gathered up to this size before a write (a move's events and snapshot fit).
/// Written-out space is kept, so a smaller buffer keeps every socket smaller; tungstenite's
/// default is 128 KiB.
const WRITE_BUFFER: usize = 16 * 1024;

/// The most a socket's write buffer may hold: the send waits for the client once the buffer
/// passes `WRITE_BUFFER`, so only a single frame bigger than this (none is) would meet it.
const MAX_WRITE_BUFFER: usize = 4 * 1024 * 1024;

/// The buffers and limits of every socket the server opens (games and the lobby): messages
/// and frames up to `max_message` bytes are read.
pub(super) fn sized(upgrade: WebSocketUpgrade, max_message: usize) -> WebSocketUpgrade {
    upgrade
        .max_message_size(max_message)
        .max_frame_size(max_message)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
}

/// How long the close frame may take to leave before the socket is dropped without it.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Extension(client): Extension<Client>,
    Extension(sender): Extension<Sender>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let mut token = query.get("token").cloned();
    // A finished game kept on disk only is watched, whoever asks: its copy takes no actions.
    let held = hub.store.get(&id);
    let archived = held.is_none();
    let game = if let Some(game) = held {
        game
    } else {
        token = None;
        hub.read_game(&id)?
    };
    let upgrade = upgrade.map_err(|r| {
        ApiError::new(
            r.status(),
            format!("{}: expected a WebSocket upgrade request", r.body_text()),
        )
    })?;
    if let Some(token) = &token {
        game.lock().require_member(token)?;
    }
    let slot = hub.sockets.admit(client.address).map_err(refused)?;
    Ok(sized(upgrade, hard_limit(hub.config.frame_limit))
        .on_upgrade(move |socket| async move {
            // The socket's place is held until its session ends.
            let _slot = slot;
            let chat = Chat {
                account: sender.person.map(|person| person.account.name),
                archived,
                pace: ChatPace::default(),
            };
            session(socket, game, hub, token, client, chat).await;
        })
        .into_response())
}

pub(super) fn refused(refused: Refused) -> ApiError {
    match refused {
        Refused::Client(open) => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("this client has {open} WebSockets open, its limit: expected one closed before another opens"),
        ),
        Refused::Total(open) => ApiError::unavailable(format!(
            "the server holds {open} WebSockets, its limit: expected a retry later"
        )),
    }
}

/// Why a session ended.
enum End {
    /// The client closed, or the socket failed.
    Gone,
    /// The game was deleted, or the server is stopping.
    Over,
    /// No pong nor message within the socket timeout.
    Silent,
    /// A write waited past the socket timeout: the client does not read.
    Stalled,
}

/// Replies that are not broadcasts (errors, hints, pongs), sent by the socket's own tasks.
type Replies = mpsc::UnboundedSender<String>;

/// What a socket's chat needs: who writes (a spectator's account), whether its game is a
/// copy read from disk, and its pace of lines. (Whether it is a seat's socket, which reads
/// the players' channel only, its outlet knows.)
#[derive(Debug)]
struct Chat {
    account: Option<String>,
    archived: bool,
    pace: ChatPace,
}

async fn session(
    socket: WebSocket,
    game: Arc<LiveGame>,
    hub: Arc<Hub>,
    token: Option<String>,
    client: Client,
    chat: Chat,
) {
    let seat_socket = token
        .as_deref()
        .is_some_and(|t| game.lock().seat_of(t).is_some());
    let outlet = SocketOutlet::new(socket, seat_socket);
    let joined: Weak<dyn Outlet> = Arc::downgrade(&outlet) as Weak<dyn Outlet>;
    let (first, history, place) = game.subscribe_with_chat(seat_socket, joined);
    outlet.start_at(place);
    let seat = token.as_deref().and_then(|t| game.seat_connected(t));
    let silence = at_most_a_year(hub.config.socket_timeout);
    let mut hello = vec![text(snapshot_frame(&first))];
    hello.extend(history.map(text));
    let end = match tokio::time::timeout(silence, outlet.send(hello, &game)).await {
        Ok(Ok(false)) => {
            let token = token.as_deref();
            exchange(&outlet, &game, &hub, token, client, chat).await
        }
        Ok(Ok(true)) => End::Over,
        Ok(Err(_)) => End::Gone,
        Err(_) => End::Stalled,
    };
    outlet.hold();
    if let Some(seat) = seat {
        game.seat_disconnected(seat, hub.config.grace_seconds);
    }
    close(&outlet, &end, silence).await;
}

/// Reads the client's messages and sends it replies and pings, and every change the
/// changes' own tasks did not write to it (live/fan_out.rs), until the socket ends; says why.
async fn exchange(
    outlet: &SocketOutlet,
    game: &Arc<LiveGame>,
    hub: &Arc<Hub>,
    token: Option<&str>,
    client: Client,
    mut chat: Chat,
) -> End {
    let mut closing = hub.closing();
    let (replies, mut outbox) = mpsc::unbounded_channel::<String>();
    let silence = at_most_a_year(hub.config.socket_timeout);
    let every = at_most_a_year(hub.config.ping_interval).max(Duration::from_millis(1));
    let mut ping = tokio::time::interval_at(Instant::now() + every, every);
    let mut heard = Instant::now();
    loop {
        let own = tokio::select! {
            incoming = outlet.read() => match incoming {
                Some(Ok(message)) => {
                    heard = Instant::now();
                    if let Err(error) = client_may_act(&message, hub, client) {
                        let _ = replies.send(error_frame(&error));
                    } else {
                        handle(message, game, hub, token, &replies, client, &mut chat).await;
                    }
                    continue;
                }
                _ => return End::Gone,
            },
            () = outlet.wake.notified() => Vec::new(),
            Some(reply) = outbox.recv() => vec![text(reply)],
            _ = ping.tick() => {
                if heard.elapsed() >= silence {
                    return End::Silent;
                }
                vec![Message::Ping(Bytes::new())]
            }
            _ = closing.changed() => return End::Over,
        };
        match tokio::time::timeout_at(heard + silence, outlet.send(own, game)).await {
            Ok(Ok(false)) => {}
            Ok(Ok(true)) => return End::Over,
            Ok(Err(_)) => return End::Gone,
            Err(_) => return End::Stalled,
        }
    }
}

/// Says goodbye where the socket still takes frames; a stalled one is only dropped (its
/// close frame would wait behind the frames it did not take).
async fn close(outlet: &SocketOutlet, end: &End, silence: Duration) {
    let frame = match end {
        End::Stalled => return,
        End::Silent => Some(CloseFrame {
            code: close_code::POLICY,
            reason: Utf8Bytes::from(format!(
                "nothing heard for {} s: expected pongs to the server's pings",
                silence.as_secs_f64()
            )),
        }),
        End::Gone | End::Over => None,
    };
    outlet.close(Message::Close(frame), CLOSE_WAIT).await;
}

fn error_frame(error: &ApiError) -> String {
    error.to_json(Some("error"))
}

/// Every message the client sends (not the library's pings) takes an action from its bucket.
fn client_may_act(message: &Message, hub: &Hub, client: Client) -> Result<(), ApiError> {
    match message {
        Message::Text(_) | Message::Binary(_) => hub.limits.act(client.charged),
        _ => Ok(()),
    }
}

/// One message from the client; answers go to `replies`, changes to every socket.
async fn handle(
    message: Message,
    game: &Arc<LiveGame>,
    hub: &Arc<Hub>,
    token: Option<&str>,
    replies: &Replies,
    client: Client,
    chat: &mut Chat,
) {
    let text = match message {
        Message::Text(text) => text,
        Message::Binary(_) => {
            let error = ApiError::bad_request("binary frame: expected JSON text frames");
            let _ = replies.send(error_frame(&error));
            return;
        }
        // Pings are answered by the library; pongs and closes need nothing here.
        _ => return,
    };
    if text.len() > hub.config.frame_limit {
        let error = ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "message of {} bytes: expected at most {} bytes",
                text.len(),
                hub.config.frame_limit
            ),
        );
        let _ = replies.send(error_frame(&error));
        return;
    }
    let result = match parse_body::<ClientMessage>(text.as_bytes()) {
        Ok(message) => dispatch(message, game, hub, token, replies, client, chat).await,
        Err(error) => Err(error),
    };
    if let Err(error) = result {
        let _ = replies.send(error_frame(&error));
    }
}

async fn dispatch(
    message: ClientMessage,
    game: &Arc<LiveGame>,
    hub: &Arc<Hub>,
    token: Option<&str>,
    replies: &Replies,
    client: Client,
    chat: &mut Chat,
) -> Result<(), ApiError> {
    let command = match message {
        ClientMessage::Ping {} => {
            let _ = replies.send(json!({"type": "pong"}).to_string());
            return Ok(());
        }
        ClientMessage::Sync {} => {
            let _ = replies.send(snapshot_frame(&game.snapshot()));
            return Ok(());
        }
        ClientMessage::Hint {} => {
            let token = require_token(token)?.to_string();
            spawn_hint(
                Arc::clone(game),
                Arc::clone(hub),
                token,
                replies.clone(),
                client,
            );
            return Ok(());
        }
        ClientMessage::Chat { text, channel } => {
            chat.pace.ready()?;
            let speaker = Speaker {
                token,
                account: chat.account.as_deref(),
                archived: chat.archived,
            };
            game.chat(hub, speaker, channel.as_deref(), &text).await?;
            chat.pace.spend();
            return Ok(());
        }
        ClientMessage::Offer { kind } => {
            return game.offer(hub, require_token(token)?, &kind).await;
        }
        ClientMessage::Answer { accept } => {
            let mut answer = game.answer(hub, require_token(token)?, accept).await?;
            answer["type"] = json!("answer");
            let _ = replies.send(answer.to_string());
            return Ok(());
        }
        ClientMessage::Move { notation, seq } => Command::Move { notation, seq },
        ClientMessage::Undo { seq, scope } => Command::Table(TableCommand::Undo { seq, scope }),
        ClientMessage::Redo { seq, scope } => Command::Table(TableCommand::Redo { seq, scope }),
        ClientMessage::Resign {} => Command::Table(TableCommand::Resign),
        ClientMessage::Control {
            paused,
            step,
            speed_ms,
        } => Command::Table(TableCommand::Control(Control {
            paused,
            step,
            speed_ms,
        })),
    };
    game.act_quietly(hub, require_token(token)?, command).await
}

/// Searches a hint in a task of its own, so that the socket goes on meanwhile; the hint or
/// the error goes to `replies`.
fn spawn_hint(game: Arc<LiveGame>, hub: Arc<Hub>, token: String, replies: Replies, client: Client) {
    tokio::spawn(async move {
        let frame = match live::hint(&game, &hub, &token, client.charged).await {
            Ok(mut found) => {
                found["type"] = json!("hint");
                found.to_string()
            }
            Err(error) => error_frame(&error),
        };
        let _ = replies.send(frame);
    });
}

fn require_token(token: Option<&str>) -> Result<&str, ApiError> {
    token.ok_or_else(|| {
        ApiError::forbidden(
            "this socket watches only: expected a token in its address (/ws?token=...) to act",
        )
    })
}
