//! Who is here: a seat with an open socket is present; when its last socket closes it is
//! `away` (the snapshot says so). After the grace period (`Config::grace_seconds`) a person
//! who stayed may claim the win (the absent seat resigns; in Splut! it leaves the game) or
//! hand the absent seat to a computer player.

use std::sync::Arc;
use std::time::Instant;

use ludus_engine::Seat;
use serde_json::{json, Value};

use super::agents::Computer;
use super::{computer, LiveGame, Table};
use crate::error::ApiError;
use crate::hub::Hub;
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
}

impl Table {
    /// Whether `seat` (0-based index) is away.
    pub fn is_away(&self, index: usize) -> bool {
        self.presence
            .get(index)
            .is_some_and(|p| p.away_since.is_some())
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
            presence.away_since = Some(Instant::now());
            // Whole milliseconds: the grace period is a configured number of seconds.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let grace_ms = (grace_seconds.max(0.0) * 1000.0) as u64;
            presence.claim_from_ms = Some(super::unix_ms().saturating_add(grace_ms));
            self.refresh(&mut table);
        }
    }

    /// The holder of `token` ends the wait for absent seat `absent`: `win` (it resigns) or
    /// `computer` (`player` takes it over).
    pub fn claim_absent(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        token: &str,
        absent: usize,
        then: &str,
        player: Option<&str>,
    ) -> Result<Value, ApiError> {
        let mut table = self.lock();
        let seat = table.require_seat(token)?;
        let target = check_absent(&table, hub, seat, absent)?;
        let log = |change| {
            hub.store
                .log(&self.id, change)
                .map_err(|e| ApiError::unavailable(format!("the game could not be stored: {e}")))
        };
        match then {
            "win" => {
                log(Change::Resign(absent))?;
                table.stop_searches();
                table.game.resign(target);
            }
            "computer" => {
                let spec = player.unwrap_or("ai:3");
                let computer = Computer::new(table.game.info().id, spec, crate::tokens::seed())
                    .map_err(|e| ApiError::unprocessable(format!("player '{spec}': {e}")))?;
                log(Change::Hand(absent, &computer.spec))?;
                let slot = &mut table.seats[target.to_usize()];
                slot.kind.clone_from(&computer.spec);
                slot.token = None;
                slot.computer = Some(computer);
            }
            other => {
                return Err(ApiError::unprocessable(format!(
                    "then '{other}': expected \"win\" or \"computer\""
                )))
            }
        }
        let job = self.commit(&mut table, hub, &[]);
        drop(table);
        if let Some(job) = job {
            computer::spawn(Arc::clone(self), Arc::clone(hub), job);
        }
        Ok(json!({"seat": absent, "then": then}))
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
