//! Who is here: a seat with an open socket is present; when its last socket closes it is
//! `away` (the snapshot says so). After the grace period (`Config::grace_seconds`) a person
//! who stayed may claim the win (the absent seat resigns; in Splut! it leaves the game) or
//! hand the absent seat to a computer player.
//!
//! A seat claimed through an invitation is away from the claim on until its first socket
//! opens, and after a restart every person's seat is away from the restart on (nobody's socket
//! survives it): the grace period then runs again, so an absent player can always be claimed
//! against, and one who comes back in time is present again. Nothing of this is stored.

use std::sync::Arc;
use std::time::Instant;

use ludus_engine::Seat;
use serde_json::{json, Value};

use super::agents::Computer;
use super::planned::Planned;
use super::{LiveGame, Table};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::protocol::AbsentRequest;
use crate::store::Change;

/// A seat's sockets.
#[derive(Clone, Copy, Debug, Default)]
pub struct Presence {
    /// Open sockets holding the seat's token.
    pub sockets: u32,
    /// Since when its last socket closed (`None` while one is open, or before any opened).
    pub away_since: Option<Instant>,
    /// When (Unix ms) the grace period of an away seat ends: the page counts down to it.
    pub claim_from_ms: Option<u64>,
    /// Another person took the seat by claiming its invitation: the owner may no longer
    /// delete the game.
    pub joined: bool,
    /// When its last socket closed on this server (never set by a restart, which is no sign
    /// of life: an abandoned game's time keeps running across restarts).
    pub left_at: Option<Instant>,
}

impl Presence {
    /// Away from now on; the grace period of `grace_seconds` starts.
    fn go_away(&mut self, grace_seconds: f64) {
        self.away_since = Some(Instant::now());
        self.claim_from_ms = Some(claim_from(0, grace_seconds));
    }
}

/// When (Unix ms) a seat away for `away_ms` may be claimed with `grace_seconds` of grace.
fn claim_from(away_ms: u64, grace_seconds: f64) -> u64 {
    // Whole milliseconds: the grace period is a configured number of seconds.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let grace_ms = (grace_seconds.max(0.0) * 1000.0) as u64;
    super::unix_ms()
        .saturating_sub(away_ms)
        .saturating_add(grace_ms)
}

impl Table {
    /// Whether `seat` (0-based index) is away.
    pub fn is_away(&self, index: usize) -> bool {
        self.presence
            .get(index)
            .is_some_and(|p| p.away_since.is_some())
    }

    /// Seat `index` was claimed by its invited player: away until their socket opens.
    pub fn seat_claimed(&mut self, index: usize, grace_seconds: f64) {
        if let Some(presence) = self.presence.get_mut(index) {
            presence.joined = true;
            if presence.sockets == 0 {
                presence.go_away(grace_seconds);
            }
        }
    }

    /// After a restart: every person's seat (not one still waiting for its invited player)
    /// is away from now on; [`Table::start_grace`] gives the countdown once the server's
    /// grace period is known.
    pub fn away_after_restart(&mut self) {
        let now = Instant::now();
        for (seat, presence) in self.seats.iter().zip(&mut self.presence) {
            if seat.computer.is_none() && seat.invite.is_none() && presence.sockets == 0 {
                presence.away_since = Some(now);
            }
        }
    }

    /// Gives every away seat without a countdown one, from when it went away; answers
    /// whether any changed.
    pub fn start_grace(&mut self, grace_seconds: f64) -> bool {
        let mut changed = false;
        for presence in &mut self.presence {
            if let (Some(since), None) = (presence.away_since, presence.claim_from_ms) {
                let away_ms = u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX);
                presence.claim_from_ms = Some(claim_from(away_ms, grace_seconds));
                changed = true;
            }
        }
        changed
    }

    /// The first seat (0-based) another person joined, if any.
    pub fn joined_seat(&self) -> Option<usize> {
        self.presence.iter().position(|p| p.joined)
    }
}

impl LiveGame {
    /// A socket with `token` opened: its seat is present. Answers the seat.
    pub fn seat_connected(&self, token: &str) -> Option<Seat> {
        let mut table = self.lock();
        let seat = table.seat_of(token)?;
        let presence = table.presence.get_mut(seat.to_usize())?;
        presence.sockets += 1;
        presence.claim_from_ms = None;
        if presence.away_since.take().is_some() {
            self.refresh(&mut table);
        }
        Some(seat)
    }

    /// A socket of `seat` closed: with its last one, the seat is away, and may be claimed
    /// `grace_seconds` later.
    pub fn seat_disconnected(&self, seat: Seat, grace_seconds: f64) {
        let mut table = self.lock();
        let Some(presence) = table.presence.get_mut(seat.to_usize()) else {
            return;
        };
        presence.sockets = presence.sockets.saturating_sub(1);
        if presence.sockets == 0 {
            presence.go_away(grace_seconds);
            presence.left_at = presence.away_since;
            self.refresh(&mut table);
        }
    }

    /// The holder of `request.token` ends the wait for absent seat `request.seat`: `win` (it
    /// resigns) or `computer` (`request.player` takes it over). The claim runs to its end
    /// whatever becomes of the caller ([`to_the_end`](super::to_the_end)).
    pub async fn claim_absent(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        request: AbsentRequest,
    ) -> Result<Value, ApiError> {
        let (game, hub) = (Arc::clone(self), Arc::clone(hub));
        super::to_the_end(async move { game.claim_absent_now(&hub, &request).await }).await
    }

    async fn claim_absent_now(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        request: &AbsentRequest,
    ) -> Result<Value, ApiError> {
        let (token, absent, then) = (&request.token, request.seat, request.then.as_str());
        let player = request.player.as_deref();
        let _turn = self.turn().await;
        // Stored first, its commit awaited with the table unlocked and no thread held
        // (`store_then_apply`); the turn keeps every other change out meanwhile.
        let (target, change, computer) = self.absent_claim(hub, token, absent, then, player)?;
        let planned = Planned::new(change, move |live, hub, table| {
            match computer {
                None => {
                    table.stop_searches();
                    table.game.resign(target);
                }
                Some(computer) => {
                    let slot = &mut table.seats[target.to_usize()];
                    slot.kind.clone_from(&computer.spec);
                    slot.token = None;
                    slot.computer = Some(computer);
                }
            }
            live.commit(table, hub, &[])
        });
        let (table, job) = self.store_then_apply(hub, planned).await?;
        drop(table);
        self.after_change(hub, job).await;
        Ok(json!({"seat": absent, "then": then}))
    }

    /// The claim of `token`'s holder on absent seat `absent`, checked: the seat, the change
    /// to store, and the computer that takes the seat over (`None`: the seat resigns).
    fn absent_claim(
        &self,
        hub: &Hub,
        token: &str,
        absent: usize,
        then: &str,
        player: Option<&str>,
    ) -> Result<(Seat, Change, Option<Computer>), ApiError> {
        let table = self.lock();
        let seat = table.require_seat(token)?;
        let target = check_absent(&table, hub, seat, absent)?;
        match then {
            "win" => Ok((target, Change::Resign(absent), None)),
            "computer" if table.rated => Err(ApiError::unprocessable(
                "a rated game is not handed to the computer: expected \"win\"",
            )),
            "computer" => {
                let spec = player.unwrap_or("ai:3");
                // The same caps as a computer player asked for at creation.
                let computer = super::agents::Caps::of(&hub.config)
                    .check(spec)
                    .map_err(super::agents::ComputerError::from)
                    .and_then(|()| Computer::new(table.game.info().id, spec, crate::tokens::seed()))
                    .map_err(|e| ApiError::unprocessable(format!("player '{spec}': {e}")))?;
                let change = Change::Hand(absent, computer.spec.clone());
                Ok((target, change, Some(computer)))
            }
            other => Err(ApiError::unprocessable(format!(
                "then '{other}': expected \"win\" or \"computer\""
            ))),
        }
    }
}

/// The absent seat, if the claim may be made now.
fn check_absent(table: &Table, hub: &Hub, claimer: Seat, absent: usize) -> Result<Seat, ApiError> {
    let Some(target) = Seat::from_number(absent, table.seats.len()) else {
        return Err(ApiError::unprocessable(format!(
            "seat {absent}: expected a seat number from 1 to {}",
            table.seats.len()
        )));
    };
    if target == claimer || !table.is_human(target) {
        return Err(ApiError::unprocessable(format!(
            "seat {absent}: expected another person's seat"
        )));
    }
    if table.game.outcome().is_some() {
        return Err(ApiError::unprocessable("the game is over"));
    }
    let grace = hub.config.grace_seconds.max(0.0);
    let away = table
        .presence
        .get(target.to_usize())
        .and_then(|p| p.away_since)
        .map(|since| since.elapsed().as_secs_f64());
    match away {
        None => Err(ApiError::conflict(format!(
            "seat {absent} is not away: its player is connected or never was"
        ))),
        Some(seconds) if seconds < grace => Err(ApiError::conflict(format!(
            "seat {absent} has been away {seconds:.0} s: expected the grace period of {grace:.0} s to pass"
        ))),
        Some(_) => Ok(target),
    }
}
