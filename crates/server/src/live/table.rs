//! The state of one game on the server besides the rules' own: who plays each seat and with
//! which token, the sequence number, pause and speed, the running search, the last analysis,
//! the cached snapshot and what the sockets were last sent.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use ludus_ai::StopFlag;
use ludus_engine::{AnyGame, Seat};
use serde_json::{json, Value};

use super::agents::Computer;
use super::analysis::AnalysisView;
use super::computer::Thinking;
use crate::error::ApiError;

/// Who plays a seat.
#[derive(Debug)]
pub struct SeatPlayer {
    /// `human`, or the computer player's spec.
    pub kind: String,
    /// The secret of a human seat.
    pub token: Option<String>,
    /// The computer player of a computer seat.
    pub computer: Option<Computer>,
    /// The unused invitation of a seat kept for someone else; `None` once claimed.
    pub invite: Option<String>,
    /// The account playing the seat, in a game made by pairing (a seek, a challenge, a pool).
    pub account: Option<SeatAccount>,
}

/// An account seated by pairing, with its rating when the game began.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatAccount {
    /// The account's number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// A bot.
    pub bot: bool,
    /// Its rating in this game and clock class when the game began.
    pub rating: crate::people::ratings::Rating,
}

/// One game's state on the server.
#[derive(Debug)]
pub struct Table {
    /// The game and its history.
    pub game: AnyGame,
    /// One per seat, in seat order.
    pub seats: Vec<SeatPlayer>,
    /// The creator's token.
    pub owner: String,
    /// Grows by one on every change.
    pub seq: u64,
    /// Computer players wait.
    pub paused: bool,
    /// A paused computer may make one decision.
    pub step: bool,
    /// The pause before each computer move in games without a person.
    pub speed_ms: u64,
    /// The computer's search in progress.
    pub thinking: Option<Thinking>,
    /// The last computer decision's evaluation.
    pub analysis: Option<AnalysisView>,
    /// The rules options as typed JSON (they never change during a game).
    pub options: Value,
    /// Cell names by cell index of the game's view.
    pub cell_names: Vec<String>,
    /// Stop flags of the hints being searched.
    pub hint_stops: Vec<StopFlag>,
    /// When the game last changed.
    pub last_change: Instant,
    /// When the game ended, if it has.
    pub finished_at: Option<Instant>,
    /// Left out of the lobby: only its link leads to it.
    pub private: bool,
    /// Seats were given to other people by invitation: undo needs the other side's consent.
    pub between_people: bool,
    /// A takeback request waiting for the other side.
    pub offer: Option<super::offers::Offer>,
    /// The clocks, in a game played with them.
    pub clocks: Option<super::clock::Clocks>,
    /// Per seat: its open sockets, and since when it is away.
    pub presence: Vec<super::presence::Presence>,
    /// The snapshot as last built; `None` once the game changed (built again when asked).
    pub(super) snapshot: Option<Arc<str>>,
    /// The game's id (set when the game goes live).
    pub(super) id: String,
    /// What the sockets were last sent, that a delta is taken from.
    pub(super) shown: Option<super::delta::Shown>,
    /// Work counted for the game's statistics.
    pub(super) work: super::delta::Work,
    /// The client charged for the computer players' searches: the game's creator (`None`
    /// for games loaded at start).
    pub payer: crate::scheduler::Payer,
    /// Rated: its end changes the seated accounts' ratings.
    pub rated: bool,
    /// Once a rated game ended: each seat's rating before and after it.
    pub rating_changes: Vec<crate::people::RatingChange>,
    /// A rated game just ended and is to be rated ([`LiveGame::rate_if_due`](super::LiveGame::rate_if_due)).
    pub(super) rating_due: bool,
    /// The chat's last lines, oldest first (both channels).
    pub chat: VecDeque<super::ChatLine>,
    /// The seats out of a game of three or four, with the turn that put each out.
    pub(super) knock_outs: Vec<super::knock_outs::KnockOut>,
}

impl Table {
    /// A table for `game` played by `seats`, created by the holder of `owner`.
    pub fn new(game: AnyGame, seats: Vec<SeatPlayer>, owner: String, speed_ms: u64) -> Table {
        let options = game.record().options;
        let cell_names = game
            .view()
            .cells
            .into_iter()
            .map(|c| c.name.into_owned())
            .collect();
        let finished_at = game.outcome().map(|_| Instant::now());
        let seat_count = seats.len();
        Table {
            game,
            seats,
            owner,
            seq: 0,
            paused: false,
            step: false,
            speed_ms,
            thinking: None,
            analysis: None,
            options,
            cell_names,
            hint_stops: Vec::new(),
            last_change: Instant::now(),
            finished_at,
            private: false,
            between_people: false,
            offer: None,
            clocks: None,
            presence: vec![super::presence::Presence::default(); seat_count],
            snapshot: None,
            id: String::new(),
            shown: None,
            work: super::delta::Work::default(),
            payer: None,
            rated: false,
            rating_changes: Vec::new(),
            rating_due: false,
            chat: VecDeque::new(),
            knock_outs: Vec::new(),
        }
    }

    /// The seat whose token is `token`.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        let index = self
            .seats
            .iter()
            .position(|s| s.token.as_deref() == Some(token))?;
        Seat::from_number(index + 1, self.seats.len())
    }

    /// The seat of `token`, or a 403.
    pub fn require_seat(&self, token: &str) -> Result<Seat, ApiError> {
        self.seat_of(token).ok_or_else(|| {
            ApiError::forbidden(
                "this token holds no seat of this game: expected a seat token from POST /api/games",
            )
        })
    }

    /// Passes for the owner's token or a seat's, else a 403.
    pub fn require_member(&self, token: &str) -> Result<(), ApiError> {
        if token == self.owner || self.seat_of(token).is_some() {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                "this token is not of this game: expected a seat token or the owner token from POST /api/games",
            ))
        }
    }

    /// Passes for the owner's token, else a 403.
    pub fn require_owner(&self, token: &str) -> Result<(), ApiError> {
        if token == self.owner {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                "only the game's owner may do this: expected the owner token from POST /api/games",
            ))
        }
    }

    /// Passes for the owner's token on a game nobody else has joined (no invitation of it
    /// was claimed), else a 403: a game another person played stays theirs too. A seat's
    /// token passes too while the game may be aborted (see [`Table::abort_refusal`]): then
    /// the answer is `true`, an abort (the game ends without result, for everyone).
    pub fn require_deletable(&self, token: &str, id: &str) -> Result<bool, ApiError> {
        if token != self.owner && self.seat_of(token).is_some() {
            return match self.abort_refusal() {
                None => Ok(true),
                Some(why) => Err(ApiError::forbidden(format!(
                    "{why}: a player may abort a game only while it is in progress and fewer than two turns were played; expected to resign instead (POST /api/games/{id}/resign with your seat token)"
                ))),
            };
        }
        self.require_owner(token)?;
        match self.joined_seat() {
            None => Ok(false),
            Some(index) => Err(ApiError::forbidden(format!(
                "seat {} was joined by another person: the owner may delete only a game nobody else joined; expected to resign instead (POST /api/games/{id}/resign with your seat token), or to abort it with your seat token before two turns were played",
                index + 1
            ))),
        }
    }

    /// Why the game may no longer be aborted (over, or two turns or more played), or `None`.
    pub fn abort_refusal(&self) -> Option<String> {
        if self.game.outcome().is_some() {
            return Some("the game is over".to_string());
        }
        let turns = self.game.turn();
        (turns >= 2).then(|| format!("{turns} turns were played"))
    }

    /// Passes when `seq` is the current one, else a 409.
    pub fn check_seq(&self, seq: u64) -> Result<(), ApiError> {
        if seq == self.seq {
            Ok(())
        } else {
            Err(ApiError::conflict(format!(
                "stale seq {seq}: the game has changed since (now seq {}); expected the seq of the latest snapshot, sent with this error",
                self.seq
            )))
        }
    }

    /// Whether `seat` is played by a person.
    pub fn is_human(&self, seat: Seat) -> bool {
        self.seats
            .get(seat.to_usize())
            .is_some_and(|s| s.computer.is_none())
    }

    /// The seats (1-based) still waiting for their invited player.
    pub fn free_seats(&self) -> Vec<usize> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.invite.is_some())
            .map(|(index, _)| index + 1)
            .collect()
    }

    /// Whether any seat is played by a person.
    pub fn has_human(&self) -> bool {
        self.seats.iter().any(|s| s.computer.is_none())
    }

    /// `seat 2 (Light)`, for messages.
    pub fn seat_label(&self, seat: Seat) -> String {
        format!("seat {} ({})", seat.number(), self.game.seat_name(seat))
    }

    /// Stops the computer's search (its result will be dropped) and every hint.
    pub fn stop_searches(&mut self) {
        self.cancel_thinking();
        for stop in self.hint_stops.drain(..) {
            stop.raise();
        }
    }

    /// Stops the computer's search; its result will be dropped.
    pub fn cancel_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.raise();
        }
    }

    /// The players' names, one per seat.
    pub fn names(&self) -> Vec<&str> {
        self.game
            .players()
            .iter()
            .map(|p| p.name.as_str())
            .collect()
    }

    /// The players' kinds, one per seat.
    pub fn kinds(&self) -> Vec<&str> {
        self.seats.iter().map(|s| s.kind.as_str()).collect()
    }

    /// The entry of `GET /api/games`.
    pub fn summary(&self, id: &str) -> Value {
        json!({
            "id": id,
            "game": self.game.info().id,
            "names": self.names(),
            "players": self.kinds(),
            "turn": self.game.turn(),
            "to_move": self.game.to_move().map(Seat::number),
            "seq": self.seq,
            "outcome": super::snapshot::outcome_json(self),
            "clock": self.clocks.as_ref().map(super::clock::Clocks::json),
            "rated": self.rated,
            "accounts": self.seats.iter().map(|s| s.account.as_ref().map(|a| {
                json!({"name": a.name, "bot": a.bot, "rating": a.rating.shown()})
            })).collect::<Vec<_>>(),
        })
    }
}
