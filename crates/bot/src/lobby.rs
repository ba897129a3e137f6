//! The lobby socket: `GET /api/lobby/ws` opened with the bot's token on the handshake, kept
//! open for as long as the bot runs. After each connection the bot resumes its games in
//! progress (`GET /api/account/games`) and answers the challenges that came while it was
//! away (`GET /api/challenges`); then it follows the lobby's frames: `challenge` (answered),
//! `started` (played), and the seek list for the seek keeper. A dropped or refused
//! connection is retried after the backoff, said on stderr; a refused token or a server
//! without a lobby ends the bot with one line.

use std::sync::Arc;

use anyhow::{bail, Result};
use futures_util::StreamExt;
use reqwest::header::{HeaderValue, AUTHORIZATION};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};

use super::api::{one_line, ApiError, SeatRef};
use super::backoff::Backoff;
use super::challenges;
use super::report::notice;
use super::seeks::SeekNews;
use super::Bot;

/// Keeps the lobby socket open; returns only on a fatal error.
pub async fn run(bot: &Arc<Bot>) -> Result<()> {
    let mut backoff = Backoff::default();
    loop {
        let why = match connect(bot).await {
            Ok(socket) => {
                backoff.reset();
                catch_up(bot).await?;
                follow(bot, socket).await
            }
            Err(Fatal(error)) => return Err(error),
            Err(Retry(why)) => why,
        };
        let wait = backoff.next_wait();
        notice(&format!(
            "lobby connection lost ({why}); reconnecting in {} s",
            wait.as_secs()
        ));
        tokio::time::sleep(wait).await;
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Why a connection failed.
enum Failure {
    /// Worth another try.
    Retry(String),
    /// Not worth it: the bot stops.
    Fatal(anyhow::Error),
}
use Failure::{Fatal, Retry};

async fn connect(bot: &Bot) -> Result<Socket, Failure> {
    let url = bot.api.ws_url("/api/lobby/ws");
    let mut request = url
        .as_str()
        .into_client_request()
        .map_err(|e| Fatal(anyhow::anyhow!("bad lobby address {url}: {e}")))?;
    let bearer =
        HeaderValue::from_str(&format!("Bearer {}", bot.settings.token)).map_err(|_| {
            Fatal(anyhow::anyhow!(
                "bad --token: expected printable characters"
            ))
        })?;
    request.headers_mut().insert(AUTHORIZATION, bearer);
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::Error::Http(response)) => {
            let status = response.status();
            let body = response
                .body()
                .as_deref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
            let message = serde_json::from_str::<Value>(&body)
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_string))
                .unwrap_or(body);
            match status.as_u16() {
                401 => Err(Fatal(anyhow::anyhow!(
                    "the server refused the token (401 on GET /api/lobby/ws): {message}"
                ))),
                404 => Err(Fatal(anyhow::anyhow!(
                    "the server at {} has no lobby (404 on GET /api/lobby/ws): expected a server with challenges and seeks",
                    bot.api.base()
                ))),
                _ => Err(Retry(format!("GET /api/lobby/ws answered {status}: {message}"))),
            }
        }
        Err(e) => Err(Retry(one_line(&e))),
    }
}

/// Resumes the games in progress and answers the challenges waiting; a refused token stops
/// the bot, other failures are said and the lobby goes on.
async fn catch_up(bot: &Arc<Bot>) -> Result<()> {
    match bot.api.held_games().await {
        Ok(games) => {
            for seat in games {
                bot.play(seat, None, true);
            }
        }
        Err(ApiError::Refused {
            status: 401,
            message,
        }) => {
            bail!("the server refused the token (401 on GET /api/account/games): {message}")
        }
        Err(e) => notice(&format!("listing the account's games failed: {e}")),
    }
    match bot.api.incoming_challenges().await {
        Ok(incoming) => {
            for challenge in &incoming {
                challenges::answer(bot, challenge);
            }
        }
        Err(e) => notice(&format!("listing the challenges waiting failed: {e}")),
    }
    Ok(())
}

/// Reads the lobby's frames until the socket drops; why it dropped.
async fn follow(bot: &Arc<Bot>, mut socket: Socket) -> String {
    loop {
        match socket.next().await {
            None => return "the server closed the socket".to_string(),
            Some(Err(e)) => return one_line(&e),
            Some(Ok(Message::Close(frame))) => {
                return frame
                    .map_or_else(|| "closed".to_string(), |f| format!("closed: {}", f.reason));
            }
            Some(Ok(Message::Text(text))) => {
                if let Ok(frame) = serde_json::from_str::<Value>(&text) {
                    on_frame(bot, &frame);
                }
            }
            Some(Ok(_)) => {}
        }
    }
}

fn on_frame(bot: &Arc<Bot>, frame: &Value) {
    match frame["type"].as_str().unwrap_or("") {
        "challenge" => challenges::answer(bot, &frame["challenge"]),
        "started" => {
            if let Some(seat) = SeatRef::from_json(frame) {
                bot.play(seat, None, false);
            }
        }
        "seeks" => {
            let seeks = frame["seeks"].as_array().cloned().unwrap_or_default();
            let _ = bot.seeks.send(SeekNews::Listed(seeks));
        }
        "unseek" => {
            if let Some(id) = frame["id"].as_str() {
                let _ = bot.seeks.send(SeekNews::Gone(id.to_string()));
            }
        }
        _ => {}
    }
}
