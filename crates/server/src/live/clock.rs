//! Optional clocks: an initial time and an increment per seat, kept by the server. The seat to
//! move has its clock running; when the seat to move changes, the last mover's time is settled
//! and its increment added; no clock runs until every invited person has claimed their seat. A ticker flags a seat whose time ran out: it loses, "Dark ran out
//! of time" (in Splut! it leaves the game, as on resignation). The remaining times are stored after every change (a
//! `clock` row), and a restart starts the clock of the seat to move afresh, so clocks do not
//! run while the server is down.
//!
//! Taking back (an accepted takeback, an undo or a redo) gives the clocks back as they stood
//! at the start of the turn the game returns to, as lichess does (the rules say nothing of
//! clocks): no increment is added for the turns taken back, nor for the takeback itself. The
//! times at each turn's start are kept for that, and rebuilt from the `clock` rows on restore.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ludus_engine::{AnyGame, Seat};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{computer, unix_ms, LiveGame, Table};
use crate::hub::Hub;
use crate::store::Change;

/// How often the ticker looks for a flag.
const TICK: Duration = Duration::from_millis(50);

/// A clock as asked for when creating a game.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockSetup {
    /// The starting time of each seat, in milliseconds.
    pub initial_ms: u64,
    /// Added to a seat's time when its turn passes, in milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
}

/// The clocks of a game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// How they were set up.
    pub setup: ClockSetup,
    /// Per seat, at the last settling.
    pub remaining_ms: Vec<i64>,
    /// The seat whose clock runs, and since when.
    pub running: Option<(Seat, Instant)>,
    /// The times at the start of each turn, by how many history entries were played before
    /// it, in ascending order (turns undone are kept while they may be redone).
    turn_starts: Vec<(usize, Vec<i64>)>,
}

impl Clocks {
    /// Fresh clocks for `seats` seats.
    pub fn new(setup: ClockSetup, seats: usize) -> Clocks {
        Clocks {
            setup,
            remaining_ms: vec![setup.initial_ms.min(i64::MAX as u64) as i64; seats],
            running: None,
            turn_starts: Vec::new(),
        }
    }

    /// Keeps the times as the turn of `game` starts, if it is at a turn's start.
    pub fn note_turn_start(&mut self, game: &AnyGame) {
        let at_start = game.history().last().is_none_or(|turn| turn.complete);
        if game.outcome().is_some() || !at_start {
            return;
        }
        let count = game.entry_count();
        // With nothing left to redo, later turns were replaced by the moves played since.
        let redo = game.redo_len() > 0;
        self.turn_starts
            .retain(|&(start, _)| start < count || (redo && start > count));
        let at = self
            .turn_starts
            .partition_point(|&(start, _)| start < count);
        self.turn_starts
            .insert(at, (count, self.remaining_ms.clone()));
    }

    /// The start of the turn a history of `count` entries is in, with its times.
    fn turn_start(&self, count: usize) -> Option<&(usize, Vec<i64>)> {
        self.turn_starts
            .iter()
            .rev()
            .find(|&&(start, _)| start <= count)
    }

    /// The history goes from `before` entries to `after`: the times as they stood at the start
    /// of the turn it lands in, with no clock running (the next settling starts the mover's
    /// without charging or crediting anyone), unless that is still the same turn (a mover
    /// taking back their own steps keeps their clock running).
    pub fn rewind(&mut self, before: usize, after: usize) {
        let Some((start, times)) = self.turn_start(after).cloned() else {
            return;
        };
        if self.turn_start(before).map(|t| t.0) == Some(start) {
            return;
        }
        self.remaining_ms = times;
        self.running = None;
    }

    /// Stops the running clock (adding the increment if the turn passed to another seat) and
    /// starts `next`'s.
    pub fn settle(&mut self, next: Option<Seat>) {
        if let Some((seat, since)) = self.running.take() {
            let spent = since.elapsed().as_millis() as i64;
            if let Some(left) = self.remaining_ms.get_mut(seat.to_usize()) {
                *left -= spent;
                if next != Some(seat) && *left > 0 {
                    *left += self.setup.increment_ms as i64;
                }
            }
        }
        self.running = next.map(|seat| (seat, Instant::now()));
    }

    /// The running seat's time left now, in milliseconds.
    fn left_now(&self) -> Option<(Seat, i64)> {
        let (seat, since) = self.running?;
        let left = self.remaining_ms.get(seat.to_usize())?;
        Some((seat, left - since.elapsed().as_millis() as i64))
    }

    /// The remaining times as stored: one number per seat, comma-separated.
    pub fn stored(&self) -> String {
        let times: Vec<String> = self.remaining_ms.iter().map(i64::to_string).collect();
        times.join(",")
    }

    /// Takes the remaining times of a stored `clock` row.
    pub fn restore(&mut self, stored: &str) -> Result<(), String> {
        let times = stored
            .split(',')
            .map(str::parse::<i64>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| format!("bad clock row '{stored}'"))?;
        if times.len() != self.remaining_ms.len() {
            return Err(format!(
                "clock row '{stored}' for the wrong number of seats"
            ));
        }
        self.remaining_ms = times;
        Ok(())
    }

    /// The snapshot's `clock`: times at `as_of_ms` (Unix ms); the page counts the running one down.
    pub fn json(&self) -> Value {
        let mut remaining = self.remaining_ms.clone();
        let running = self.left_now().map(|(seat, left)| {
            remaining[seat.to_usize()] = left.max(0);
            seat.number()
        });
        json!({"remaining_ms": remaining, "running": running, "as_of_ms": unix_ms(),
               "initial_ms": self.setup.initial_ms, "increment_ms": self.setup.increment_ms})
    }
}

impl Table {
    /// Settles the clocks after a change; answers the row to store.
    pub fn settle_clocks(&mut self) -> Option<String> {
        // No clock runs while an invited person has not opened their link yet: the creator's
        // time would otherwise drain while they wait. The last claim starts the mover's clock.
        let everyone_came = self.seats.iter().all(|seat| seat.invite.is_none());
        let next = self.game.to_move().filter(|_| everyone_came);
        let clocks = self.clocks.as_mut()?;
        clocks.settle(next);
        clocks.note_turn_start(&self.game);
        Some(clocks.stored())
    }

    /// Before the history changes to `game`'s (an undo, a redo, an accepted takeback): the
    /// clocks as they stood at the start of the turn it lands in (see [`Clocks::rewind`]).
    pub fn rewind_clocks(&mut self, game: &AnyGame) {
        let before = self.game.entry_count();
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.rewind(before, game.entry_count());
        }
    }
}

impl LiveGame {
    /// Flags the seat to move if its time ran out.
    fn check_flag(self: &Arc<Self>, hub: &Arc<Hub>) {
        let table = self.lock();
        let Some((seat, left)) = table.clocks.as_ref().and_then(Clocks::left_now) else {
            return;
        };
        if left > 0 || table.game.outcome().is_some() {
            return;
        }
        self.flag(hub, table, seat);
    }

    /// Ends `seat`'s part as on time (its time ran out, or it left its game abandoned): logged
    /// first, then applied and broadcast like any change. A failed write changes nothing, and
    /// the caller's next round tries again.
    pub(super) fn flag(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        mut table: std::sync::MutexGuard<'_, Table>,
        seat: Seat,
    ) {
        if hub
            .store
            .log(&self.id, Change::Flag(seat.number()))
            .is_err()
        {
            return;
        }
        table.stop_searches();
        table.game.flag(seat);
        table.analysis = None;
        let job = self.commit(&mut table, hub, &[]);
        drop(table);
        if let Some(job) = job {
            computer::spawn(Arc::clone(self), Arc::clone(hub), job);
        }
    }
}

/// Watches every game's clock until the server closes.
pub async fn ticker(hub: Arc<Hub>) {
    let mut closing = hub.closing();
    loop {
        tokio::select! {
            () = tokio::time::sleep(TICK) => {}
            _ = closing.changed() => return,
        }
        for game in hub.store.games().iter().filter(|g| g.clocked) {
            game.check_flag(&hub);
        }
    }
}
