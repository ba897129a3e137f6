//! The game player: one of the bot's games, from its start (or its resumption) to its end.
//!
//! It opens the game's WebSocket with the seat's token, as the page does, and follows the
//! snapshots (the first sent whole, each change after it as a delta applied to the one held:
//! `ludus_server::frames`). On each one where its seat is to move it asks the engine (started on the first
//! such snapshot, with the game's rules options) for a decision from the start position and
//! the turns so far, with the clocks, and sends `bestmove` as a move carrying that
//! snapshot's `seq`. A move is reported played when a snapshot with a later `seq` arrives.
//! A dropped socket is reopened with the backoff while a search may go on; a move sent just
//! before a drop is asked again if the new snapshot still waits for it (its `seq` makes a
//! repeat harmless). Draw offers and takeback requests are declined. An engine that fails
//! (crashes, exceeds its time, keeps playing refused moves) resigns the game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use ludus_ai::arena::UgiClient;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::task::{JoinError, JoinHandle};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::api::{one_line, safe_id, SeatRef};
use super::backoff::Backoff;
use super::pool::{self, EngineError, Slot};
use super::position::{go_command, position_command, position_on_one_line, rules_options};
use super::report::notice;
use super::Bot;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Refused moves in a row on one position before the engine is given up and the game
/// resigned.
const MOST_REFUSALS: u32 = 3;

/// The engine's answer: its `seq`, the engine back, and its `bestmove` or why it failed.
type Answer = (Option<UgiClient>, Result<String, EngineError>);

/// Where the game's engine is.
#[derive(Debug)]
enum Engine {
    /// Not needed yet.
    NotStarted,
    /// Idle, between decisions.
    Ready(UgiClient),
    /// Searching (see [`Player::search`]).
    Busy,
    /// It failed and was ended (see [`Player::failure`]).
    Failed,
}

/// How a connection to the game ended.
enum Flow {
    /// The game is over (or deleted): the player stops.
    Over,
    /// The socket was lost: the player reconnects.
    Lost(String),
}

/// What woke the player.
enum Step {
    Frame(Option<Result<Message, tungstenite::Error>>),
    Searched(u64, Result<Answer, JoinError>),
}

/// One game being played.
#[derive(Debug)]
struct Player {
    bot: Arc<Bot>,
    seat: SeatRef,
    _slot: Slot,
    resumed: bool,
    /// Whether the start was reported.
    announced: bool,
    engine: Engine,
    /// The search running, with the `seq` it was asked on.
    search: Option<(u64, JoinHandle<Answer>)>,
    /// Whether the start position was asked.
    start_asked: bool,
    /// The start position (`None` when unknown).
    start: Option<String>,
    /// The last snapshot and when it arrived.
    latest: Option<(Value, Instant)>,
    /// The move sent and not yet answered: its `seq` and text.
    moved: Option<(u64, String)>,
    /// Refused moves in a row.
    refusals: u32,
    /// The offer last answered (its JSON text).
    answered_offer: Option<String>,
    /// Why the engine was given up, once it was: the game is resigned.
    failure: Option<String>,
    /// The resignation was sent.
    resigned: bool,
}

/// Plays `seat`'s game in a task of its own; `slot` keeps its place in the pool until it
/// ends.
pub fn spawn(bot: Arc<Bot>, seat: SeatRef, slot: Slot, resumed: bool) {
    let player = Player {
        bot,
        seat,
        _slot: slot,
        resumed,
        announced: false,
        engine: Engine::NotStarted,
        search: None,
        start_asked: false,
        start: None,
        latest: None,
        moved: None,
        refusals: 0,
        answered_offer: None,
        failure: None,
        resigned: false,
    };
    tokio::spawn(player.run());
}

/// The search's answer once it comes; never while none runs.
async fn searched(
    search: &mut Option<(u64, JoinHandle<Answer>)>,
) -> (u64, Result<Answer, JoinError>) {
    match search {
        Some((seq, handle)) => (*seq, handle.await),
        None => std::future::pending().await,
    }
}

impl Player {
    fn id(&self) -> &str {
        &self.seat.game
    }

    async fn run(mut self) {
        let Some(token) = safe_id(&self.seat.token).map(str::to_string) else {
            notice(&format!(
                "game {}: the seat's token is not one the server makes; skipped",
                self.id()
            ));
            return;
        };
        let url = self
            .bot
            .api
            .ws_url(&format!("/api/games/{}/ws?token={token}", self.id()));
        let mut backoff = Backoff::default();
        loop {
            let why = match tokio_tungstenite::connect_async(url.as_str()).await {
                Ok((socket, _)) => {
                    backoff.reset();
                    match self.connected(socket).await {
                        Flow::Over => break,
                        Flow::Lost(why) => why,
                    }
                }
                Err(tungstenite::Error::Http(response))
                    if matches!(response.status().as_u16(), 403 | 404) =>
                {
                    notice(&format!(
                        "game {}: the server no longer serves it ({}); left",
                        self.id(),
                        response.status()
                    ));
                    break;
                }
                Err(e) => one_line(&e),
            };
            let wait = backoff.next_wait();
            notice(&format!(
                "game {}: connection lost ({why}); reconnecting in {} s",
                self.id(),
                wait.as_secs()
            ));
            tokio::time::sleep(wait).await;
        }
        if let Some((_, handle)) = self.search.take() {
            if let Ok((Some(engine), _)) = handle.await {
                pool::end(engine);
            }
        }
        if let Engine::Ready(engine) = std::mem::replace(&mut self.engine, Engine::Failed) {
            pool::end(engine);
        }
    }

    /// Plays over one connection until it drops or the game ends.
    async fn connected(&mut self, mut socket: Socket) -> Flow {
        // A move sent before a drop may not have arrived, and the game may have changed
        // meanwhile: nothing is asked before this connection's first snapshot tells.
        self.moved = None;
        self.latest = None;
        loop {
            if let Err(why) = self.act(&mut socket).await {
                return Flow::Lost(why);
            }
            let step = tokio::select! {
                frame = socket.next() => Step::Frame(frame),
                (seq, answer) = searched(&mut self.search) => Step::Searched(seq, answer),
            };
            let flow = match step {
                Step::Frame(None) => Some(Flow::Lost("the server closed the socket".to_string())),
                Step::Frame(Some(Err(e))) => Some(Flow::Lost(one_line(&e))),
                Step::Frame(Some(Ok(Message::Text(text)))) => self.on_frame(&text).await,
                Step::Frame(Some(Ok(Message::Close(frame)))) => Some(Flow::Lost(
                    frame.map_or_else(|| "closed".to_string(), |f| format!("closed: {}", f.reason)),
                )),
                Step::Frame(Some(Ok(_))) => None,
                Step::Searched(seq, answer) => {
                    self.search = None;
                    self.on_answer(seq, answer, &mut socket)
                        .await
                        .err()
                        .map(Flow::Lost)
                }
            };
            if let Some(flow) = flow {
                return flow;
            }
        }
    }

    /// Sends a frame.
    async fn send(socket: &mut Socket, frame: &Value) -> Result<(), String> {
        socket
            .send(Message::text(frame.to_string()))
            .await
            .map_err(|e| one_line(&e))
    }

    /// The last snapshot, if its game goes on and `seat` is to move.
    fn to_decide(&self) -> Option<&Value> {
        let (snapshot, _) = self.latest.as_ref()?;
        let ours = snapshot["to_move"].as_u64() == Some(self.seat.seat as u64);
        (ours && snapshot["outcome"].is_null()).then_some(snapshot)
    }

    /// Answers a waiting offer, and asks the engine when the seat is to move and nothing is
    /// asked or sent for this snapshot yet.
    async fn act(&mut self, socket: &mut Socket) -> Result<(), String> {
        self.answer_offer(socket).await?;
        if self.search.is_some() || self.resigned {
            return Ok(());
        }
        if self.failure.is_some() {
            return self.resign(socket).await;
        }
        let Some(snapshot) = self.to_decide() else {
            return Ok(());
        };
        let seq = snapshot["seq"].as_u64().unwrap_or(0);
        if self.moved.as_ref().is_some_and(|(sent, _)| *sent == seq) {
            return Ok(());
        }
        let game = snapshot["game"].as_str().unwrap_or("").to_string();
        let options = rules_options(&snapshot["options"]);
        if matches!(self.engine, Engine::NotStarted) {
            let spec = self.bot.settings.engine_for(&game);
            match pool::start(spec, options.clone()).await {
                Ok(engine) => self.engine = Engine::Ready(engine),
                Err(why) => return self.give_up(socket, &why.to_string()).await,
            }
        }
        if !self.start_asked {
            self.start_asked = true;
            self.start = self.bot.api.start_position(self.id()).await.ok();
        }
        let Some((snapshot, received)) = &self.latest else {
            return Ok(());
        };
        let moves: Vec<String> = snapshot["moves"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(str::to_string))
            .collect();
        let start = self
            .start
            .as_deref()
            .map(|s| position_on_one_line(&game, &options, s));
        let current =
            position_on_one_line(&game, &options, snapshot["position"].as_str().unwrap_or(""));
        let position = position_command(start.as_deref(), &moves, &current);
        let seats = snapshot["seats"].as_array().map_or(2, Vec::len);
        let (go, limit) = go_command(
            &snapshot["clock"],
            self.seat.seat,
            seats,
            self.bot.settings.movetime,
            received.elapsed(),
        );
        let seq = snapshot["seq"].as_u64().unwrap_or(0);
        if let Engine::Ready(engine) = std::mem::replace(&mut self.engine, Engine::Busy) {
            let asked = tokio::spawn(pool::search(engine, position, go, limit));
            self.search = Some((seq, asked));
        }
        Ok(())
    }

    /// Declines an offer (draw, takeback) that waits for this seat's answer.
    async fn answer_offer(&mut self, socket: &mut Socket) -> Result<(), String> {
        let Some((snapshot, _)) = &self.latest else {
            return Ok(());
        };
        let offer = &snapshot["offer"];
        let waits = offer["waiting"]
            .as_array()
            .is_some_and(|w| w.iter().any(|s| s.as_u64() == Some(self.seat.seat as u64)));
        let text = offer.to_string();
        if !waits || self.answered_offer.as_ref() == Some(&text) {
            return Ok(());
        }
        let kind = offer["kind"].as_str().unwrap_or("offer").to_string();
        self.answered_offer = Some(text);
        Self::send(socket, &json!({"type": "answer", "accept": false})).await?;
        notice(&format!("game {}: declined the {kind} offer", self.id()));
        Ok(())
    }

    /// The engine failed: it is ended, and the game resigned.
    async fn give_up(&mut self, socket: &mut Socket, why: &str) -> Result<(), String> {
        self.fail(why);
        self.resign(socket).await
    }

    /// Ends the engine and keeps why; the game is resigned at the next step.
    fn fail(&mut self, why: &str) {
        if let Engine::Ready(engine) = std::mem::replace(&mut self.engine, Engine::Failed) {
            pool::end(engine);
        }
        if self.failure.is_none() {
            self.failure = Some(why.to_string());
        }
    }

    /// Sends the resignation (again after a reconnection if it was lost).
    async fn resign(&mut self, socket: &mut Socket) -> Result<(), String> {
        let why = self.failure.as_deref().unwrap_or("the engine failed");
        notice(&format!("game {}: {why}; resigning", self.id()));
        Self::send(socket, &json!({"type": "resign"})).await?;
        self.resigned = true;
        Ok(())
    }

    /// The engine answered the snapshot `seq`: its move is sent if that snapshot is still
    /// the game's.
    async fn on_answer(
        &mut self,
        seq: u64,
        answer: Result<Answer, JoinError>,
        socket: &mut Socket,
    ) -> Result<(), String> {
        let (engine, best) = answer.unwrap_or_else(|e| (None, Err(EngineError::Task(e))));
        self.engine = engine.map_or(Engine::Failed, Engine::Ready);
        let best = match best {
            Ok(best) => best,
            Err(why) => return self.give_up(socket, &why.to_string()).await,
        };
        let current = self
            .to_decide()
            .is_some_and(|s| s["seq"].as_u64() == Some(seq));
        if !current {
            // The game moved on meanwhile (a reconnection, a takeback): asked again.
            return Ok(());
        }
        self.moved = Some((seq, best.clone()));
        Self::send(socket, &json!({"type": "move", "move": best, "seq": seq})).await
    }

    /// A frame of the game's socket; `Some` when the game is over.
    async fn on_frame(&mut self, text: &str) -> Option<Flow> {
        let frame: Value = serde_json::from_str(text).ok()?;
        match frame["type"].as_str()? {
            "snapshot" => self.on_snapshot(frame["snapshot"].clone()),
            // A change: applied to the snapshot held. One that does not follow on (none is
            // expected: a socket that fell behind is sent a snapshot) ends the connection,
            // and the next one starts from a fresh snapshot.
            "delta" => {
                let (mut snapshot, _) = self.latest.take()?;
                match ludus_server::frames::apply_delta(&mut snapshot, &frame) {
                    Ok(()) => self.on_snapshot(snapshot),
                    Err(why) => Some(Flow::Lost(why.to_string())),
                }
            }
            "error" => {
                self.on_refusal(&frame).await;
                None
            }
            "deleted" => {
                self.report_over(&json!({"reason": "the game was deleted"}), "deleted");
                Some(Flow::Over)
            }
            _ => None,
        }
    }

    fn on_snapshot(&mut self, snapshot: Value) -> Option<Flow> {
        if !self.announced {
            self.announced = true;
            self.announce(&snapshot);
        }
        let seq = snapshot["seq"].as_u64().unwrap_or(0);
        if let Some((sent, mv)) = &self.moved {
            if seq > *sent {
                let event = json!({"event": "move", "game": self.id(), "seq": sent, "move": mv});
                self.bot
                    .report
                    .event(&event, || format!("game {}: played {mv}", self.seat.game));
                self.moved = None;
                self.refusals = 0;
            }
        }
        let outcome = snapshot["outcome"].clone();
        self.latest = Some((snapshot, Instant::now()));
        if outcome.is_null() {
            return None;
        }
        let result = match outcome["winner"].as_u64() {
            None => "draw",
            Some(winner) if winner == self.seat.seat as u64 => "win",
            Some(_) => "loss",
        };
        self.report_over(&outcome, result);
        Some(Flow::Over)
    }

    /// An error frame: a refused move is asked again (after a pause when the server asks
    /// for one), up to [`MOST_REFUSALS`] times on one position.
    async fn on_refusal(&mut self, frame: &Value) {
        let error = frame["error"].as_str().unwrap_or("");
        notice(&format!("game {}: the server refused: {error}", self.id()));
        if frame["snapshot"].is_object() {
            self.latest = Some((frame["snapshot"].clone(), Instant::now()));
        }
        let Some((sent, _)) = self.moved.take() else {
            return;
        };
        let still = self
            .to_decide()
            .is_some_and(|s| s["seq"].as_u64() == Some(sent));
        if error.starts_with("too many actions") {
            tokio::time::sleep(Duration::from_millis(500)).await;
        } else if still {
            self.refusals += 1;
            if self.refusals >= MOST_REFUSALS {
                self.fail(&format!(
                    "the server refused the engine's moves {MOST_REFUSALS} times in a row"
                ));
            }
        }
    }

    fn announce(&self, snapshot: &Value) {
        let seats = snapshot["seats"].as_array().cloned().unwrap_or_default();
        let opponents: Vec<String> = seats
            .iter()
            .filter(|s| s["seat"].as_u64() != Some(self.seat.seat as u64))
            .map(|s| {
                s["account"]["name"]
                    .as_str()
                    .or_else(|| s["name"].as_str())
                    .unwrap_or("?")
                    .to_string()
            })
            .collect();
        let side = seats
            .get(self.seat.seat.wrapping_sub(1))
            .and_then(|s| s["side"].as_str())
            .unwrap_or("")
            .to_string();
        let event = json!({
            "event": "started",
            "game": self.id(),
            "kind": snapshot["game"],
            "seat": self.seat.seat,
            "side": side,
            "opponents": opponents,
            "rated": snapshot["rated"].as_bool().unwrap_or(false),
            "clock": snapshot["clock"],
            "resumed": self.resumed,
        });
        let verb = if self.resumed { "resumed" } else { "started" };
        self.bot.report.event(&event, || {
            format!(
                "game {} ({}) {verb}: seat {} ({side}) against {}",
                self.id(),
                snapshot["name"].as_str().unwrap_or(""),
                self.seat.seat,
                opponents.join(", ")
            )
        });
    }

    fn report_over(&self, outcome: &Value, result: &str) {
        let event = json!({
            "event": "over",
            "game": self.id(),
            "seat": self.seat.seat,
            "result": result,
            "winner": outcome["winner"],
            "reason": outcome["reason"],
            "summary": outcome["summary"],
        });
        self.bot.report.event(&event, || {
            let summary = outcome["summary"]
                .as_str()
                .or_else(|| outcome["reason"].as_str())
                .unwrap_or("");
            format!("game {} over: {result} ({summary})", self.id())
        });
    }
}
