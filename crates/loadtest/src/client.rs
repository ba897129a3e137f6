//! One game under load and its two scripted clients: the game is created over HTTP with two
//! human seats (or made between two accounts by a seek and its acceptance, with
//! `--accounts`: see `people`), each seat's client opens a WebSocket with its token, and whoever is to move
//! plays a random decision from the `legal` list of the snapshot it was sent, with that
//! snapshot's `seq`. A move is acknowledged when the mover's socket receives a snapshot or a
//! delta with a higher `seq`; its latency runs from sending to that frame.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::json;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::people::PairingNote;
use super::tally::Tally;
use super::Plan;

/// How long a move may wait for its answer before the game is given up as failed.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A failure with its kind (for the error table) and message.
pub type Failure = (&'static str, String);

/// A game being played: its id, the two seats' sockets and the decisions acknowledged.
#[derive(Debug)]
pub struct Board {
    id: String,
    sockets: [Socket; 2],
    rng: SmallRng,
    acked: Vec<String>,
    /// The move sent and not yet answered on its socket.
    pending: Option<Pending>,
    /// The decision a seat has to make: its socket, the snapshot's `seq` and its legal
    /// decisions; sent once no move is pending and its time has come.
    ready: Option<(usize, u64, Vec<String>)>,
    /// The time between two moves of this game (`--rate`); zero: as fast as answered.
    interval: Duration,
    /// When this game may send its next move.
    next_at: Instant,
    /// Each seat's account, in seat order, for a game made by pairing.
    seated: Option<[usize; 2]>,
    /// How its pairing went, until the slot counts it.
    pub pairing: Option<PairingNote>,
}

/// A game as its clients saw it, for the final check.
#[derive(Debug)]
pub struct Played {
    /// The game's id.
    pub id: String,
    /// The decisions acknowledged to the clients, in order.
    pub acked: Vec<String>,
    /// A move was sent and never answered: the store may hold one decision more.
    pub in_doubt: bool,
    /// Each seat's account (an index into the run's accounts), in seat order, for a rated
    /// game made by pairing; `None` otherwise.
    pub seated: Option<[usize; 2]>,
    /// The clients saw it end.
    pub finished: bool,
}

/// How a game's play ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The game is over.
    Over,
    /// The time is up.
    Deadline,
    /// A socket closed, a move went unanswered, or a frame could not be read.
    Failed,
}

/// What the clients read of a server frame; serde skips the rest (the board, the history)
/// without building it.
#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    snapshot: Option<Brief<'a>>,
    error: Option<String>,
}

#[derive(Deserialize)]
struct Brief<'a> {
    seq: u64,
    to_move: Option<usize>,
    #[serde(borrow)]
    legal: Vec<Cow<'a, str>>,
    outcome: Option<IgnoredAny>,
}

/// A move sent and not yet answered.
#[derive(Debug)]
struct Pending {
    socket: usize,
    seq: u64,
    notation: String,
    sent: Instant,
}

/// Creates game number `number` of the plan (or has two accounts pair for it) and connects
/// its two clients.
pub async fn open(plan: &Arc<Plan>, number: u64) -> Result<Board, Failure> {
    let seed = plan.game_seed(number);
    if let Some(people) = plan.people.get() {
        let paired = people.pair(plan, number).await?;
        let rated = people.rated.then_some(paired.seated);
        let mut board = connect(plan, paired.id, &paired.tokens, seed).await?;
        board.seated = rated;
        board.pairing = Some(paired.note);
        return Ok(board);
    }
    let info = plan.games[(number % plan.games.len() as u64) as usize];
    let mut body = json!({"game": info.id, "seed": seed});
    if info.options.iter().any(|o| o.name == "players") {
        body["options"] = json!({"players": 2});
    }
    let url = format!("{}/api/games", plan.target.base);
    let created = create(plan, &url, &body).await.map_err(|e| ("create", e))?;
    let token = |i: usize| {
        created["seats"][i]["token"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let (id, tokens) = (
        created["id"].as_str().unwrap_or("").to_string(),
        [token(0), token(1)],
    );
    connect(plan, id, &tokens, seed).await
}

/// Connects the two clients of game `id` with the seats' tokens.
async fn connect(
    plan: &Plan,
    id: String,
    tokens: &[String; 2],
    seed: u64,
) -> Result<Board, Failure> {
    let connect = |token: &str| {
        let url = plan
            .target
            .ws_url(&format!("/api/games/{id}/ws?token={token}"));
        // Snapshots are a few KiB: tungstenite's 128 KiB read buffer per socket is waste. And
        // it zeroes the buffer's free part before every read: with 16 KiB that was 7 % of the
        // clients' CPU; a longer frame takes two reads instead.
        let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
        async move { tokio_tungstenite::connect_async_with_config(url, Some(config), true).await }
    };
    let (first, second) = tokio::join!(connect(&tokens[0]), connect(&tokens[1]));
    let socket = |r: Result<(Socket, _), tokio_tungstenite::tungstenite::Error>| {
        r.map(|(s, _)| s).map_err(|e| ("connect", e.to_string()))
    };
    Ok(Board {
        sockets: [socket(first)?, socket(second)?],
        rng: SmallRng::seed_from_u64(seed),
        acked: Vec::new(),
        pending: None,
        ready: None,
        interval: plan.interval,
        next_at: Instant::now(),
        id,
        seated: None,
        pairing: None,
    })
}

/// `POST /api/games`: the answer's JSON, or why it failed.
async fn create(
    plan: &Plan,
    url: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    let response = plan
        .http
        .post(url)
        .json(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let text = response.text().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!("{status}: {text}"));
    }
    let created: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if created["seats"]
        .as_array()
        .is_none_or(|seats| seats.len() != 2)
    {
        return Err(format!("expected two seats with tokens, got {text}"));
    }
    Ok(created)
}

impl Board {
    /// Plays until the game is over, the deadline passes (no move is sent after it; one in
    /// flight is waited for) or something fails; the game as its clients saw it.
    pub async fn play(mut self, deadline: Instant, tally: &mut Tally) -> (Played, End) {
        // Paced games start spread over one interval, not all in the same instant.
        let spread = self.interval.mul_f64(self.rng.random_range(0.0..1.0));
        self.next_at = Instant::now() + spread;
        let end = loop {
            if let Err((kind, message)) = self.move_if_due(deadline).await {
                tally.error(kind, message);
                break End::Failed;
            }
            let wake = match (&self.pending, &self.ready) {
                (Some(pending), _) => pending.sent + ANSWER_TIMEOUT,
                (None, Some(_)) => self.next_at.min(deadline),
                (None, None) => deadline,
            };
            let [first, second] = &mut self.sockets;
            let (socket, frame) = tokio::select! {
                frame = first.next() => (0, frame),
                frame = second.next() => (1, frame),
                () = tokio::time::sleep_until(wake.into()) => {
                    if self.pending.is_none() {
                        if Instant::now() < deadline {
                            continue;
                        }
                        break End::Deadline;
                    }
                    let message = format!("no answer to a move in game {} within {ANSWER_TIMEOUT:?}", self.id);
                    tally.error("timeout", message);
                    break End::Failed;
                }
            };
            let text = match frame {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(_)) | Err(_)) | None => {
                    let message = format!("the server closed a socket of game {}", self.id);
                    tally.error("closed", message);
                    break End::Failed;
                }
                Some(Ok(_)) => continue,
            };
            match self.read(socket, text.as_str(), tally) {
                Ok(None) => {}
                Ok(Some(end)) => break end,
                Err((kind, message)) => {
                    tally.error(kind, message);
                    break End::Failed;
                }
            }
        };
        for socket in &mut self.sockets {
            let _ = socket.close(None).await;
        }
        let played = Played {
            id: self.id,
            acked: self.acked,
            in_doubt: self.pending.is_some(),
            seated: self.seated,
            finished: end == End::Over,
        };
        (played, end)
    }

    /// Handles one text frame of socket `socket`: acknowledges the pending move, and keeps
    /// the decision this socket's seat has to make. `Some` when the game's play ends here.
    fn read(
        &mut self,
        socket: usize,
        text: &str,
        tally: &mut Tally,
    ) -> Result<Option<End>, Failure> {
        // Events announce each decision just before its snapshot: nothing to do for a bot.
        if text.starts_with(r#"{"type":"event""#) {
            return Ok(None);
        }
        let unreadable = |e: serde_json::Error| {
            (
                "unreadable",
                format!("bad frame from the server ({e}): {text:.200}"),
            )
        };
        // A move's change comes as a delta, which holds the brief's fields at its top level;
        // the whole snapshot comes on connect and when the socket fell behind.
        let brief = if text.starts_with(r#"{"type":"delta""#) {
            serde_json::from_str::<Brief>(text).map_err(unreadable)?
        } else {
            let frame: Frame = serde_json::from_str(text).map_err(unreadable)?;
            if frame.kind == "error" {
                tally.error("refused", frame.error.unwrap_or_default());
                self.pending.take_if(|p| p.socket == socket);
            }
            let Some(brief) = frame.snapshot else {
                return Ok((frame.kind == "error").then_some(End::Failed));
            };
            brief
        };
        if let Some(sent) = self
            .pending
            .take_if(|p| p.socket == socket && brief.seq > p.seq)
        {
            tally.acknowledged(sent.sent.elapsed());
            self.acked.push(sent.notation);
        }
        // The two sockets receive the same snapshots, not at the same moment: a decision
        // kept from an older snapshot is stale.
        self.ready.take_if(|ready| ready.1 < brief.seq);
        if brief.outcome.is_some() {
            if self.pending.is_some() {
                // The last move is answered on its own socket: wait for it there.
                return Ok(None);
            }
            tally.finished += 1;
            return Ok(Some(End::Over));
        }
        if brief.to_move == Some(socket + 1) {
            let legal = brief.legal.iter().map(ToString::to_string).collect();
            self.ready = Some((socket, brief.seq, legal));
        }
        Ok(None)
    }

    /// Sends the decision kept in `ready` when no move awaits its answer and its time has
    /// come (before the deadline): a random one of its legal decisions, with its `seq`.
    async fn move_if_due(&mut self, deadline: Instant) -> Result<(), Failure> {
        let now = Instant::now();
        if self.pending.is_some() || now < self.next_at || now >= deadline {
            return Ok(());
        }
        let Some((socket, seq, legal)) = self.ready.take() else {
            return Ok(());
        };
        if legal.is_empty() {
            let message = format!("game {} is not over but lists no legal move", self.id);
            return Err(("no-legal", message));
        }
        let pick = legal[self.rng.random_range(0..legal.len())].clone();
        let message = json!({"type": "move", "move": pick, "seq": seq}).to_string();
        let failed = |e| {
            (
                "closed",
                format!("cannot send a move in game {}: {e}", self.id),
            )
        };
        self.sockets[socket]
            .send(Message::text(message))
            .await
            .map_err(failed)?;
        self.next_at += self.interval;
        if self.next_at + self.interval < now {
            // A paced game that fell behind (a slow server) does not rush to catch up.
            self.next_at = now;
        }
        self.pending = Some(Pending {
            socket,
            seq,
            notation: pick,
            sent: now,
        });
        Ok(())
    }
}
