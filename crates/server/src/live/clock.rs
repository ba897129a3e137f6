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
//!
//! Correspondence clocks (`days_per_move`) work otherwise: each turn the mover has that many
//! days, up to a deadline that is a wall-clock instant (Unix ms). The `clock` row stores the
//! deadline with the seat and turn it belongs to (`seat=2 turn=5 deadline_ms=…`), and a restart
//! keeps it: the server's downtime counts, and a deadline that passed meanwhile is judged as
//! soon as the game is taken up again ([`LiveGame::start`]), as a flag. The same seat going on
//! in the same turn (a Qawale stack and its sowing, a pause, a claim) keeps its deadline; a new
//! turn, or a takeback to an earlier turn, gives the mover a fresh period.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ludus_engine::{AnyGame, Seat};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::clock_row::{ClockRow, ClockRowMismatch, Deadline};
use super::planned::Planned;
use super::{unix_ms, LiveGame, Table};
use crate::hub::Hub;
use crate::people::ratings::ClockClass;
use crate::store::Change;

/// How often the ticker looks for a flag.
const TICK: Duration = Duration::from_millis(50);

/// A day, in milliseconds.
pub const DAY_MS: u64 = 24 * 3600 * 1000;

/// The days per move a correspondence clock may give.
pub const DAYS_PER_MOVE: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// A clock as asked for when creating a game: `{"initial_ms","increment_ms"}`, or
/// `{"days_per_move"}` for a correspondence clock.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockSetup {
    /// The starting time of each seat, in milliseconds (0 in a correspondence clock).
    #[serde(default)]
    pub initial_ms: u64,
    /// Added to a seat's time when its turn passes, in milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
    /// A correspondence clock: the days each turn may take. Any JSON number is read (one
    /// that is no whole number of days as 0), so that every wrong value is refused by
    /// [`super::check_clock`] naming the allowed ones.
    #[serde(default, deserialize_with = "any_days")]
    pub days_per_move: Option<u32>,
}

fn any_days<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<Option<u32>, D::Error> {
    let days = f64::deserialize(reader)?;
    let whole = days.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&days);
    Ok(Some(if whole { days as u32 } else { 0 }))
}

impl Serialize for ClockSetup {
    fn serialize<S: serde::Serializer>(&self, writer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = writer.serialize_map(None)?;
        if let Some(days) = self.days_per_move {
            map.serialize_entry("days_per_move", &days)?;
        } else {
            map.serialize_entry("initial_ms", &self.initial_ms)?;
            map.serialize_entry("increment_ms", &self.increment_ms)?;
        }
        map.end()
    }
}

impl ClockSetup {
    /// A clock of `initial_ms` and `increment_ms`.
    pub fn timed(initial_ms: u64, increment_ms: u64) -> ClockSetup {
        ClockSetup {
            initial_ms,
            increment_ms,
            days_per_move: None,
        }
    }

    /// A correspondence clock's time per move, in milliseconds.
    pub fn period_ms(&self) -> Option<u64> {
        self.days_per_move
            .map(|days| u64::from(days).saturating_mul(DAY_MS))
    }

    /// The clock class a game with this clock is rated in.
    pub fn class(&self) -> ClockClass {
        match self.days_per_move {
            Some(_) => ClockClass::Correspondence,
            None => ClockClass::of(Some(self.initial_ms), self.increment_ms),
        }
    }

    /// The clock class of a game with `clock`, or without a clock (correspondence: it may
    /// last days).
    pub fn class_of(clock: Option<&ClockSetup>) -> ClockClass {
        clock.map_or_else(|| ClockClass::of(None, 0), ClockSetup::class)
    }
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
    /// A correspondence clock's running deadline.
    deadline: Option<Deadline>,
    /// A correspondence clock's deadline read back from the last `clock` row, taken up by
    /// the first settling if it is still the same seat's turn.
    restored: Option<Deadline>,
}

impl Clocks {
    /// Fresh clocks for `seats` seats.
    pub fn new(setup: ClockSetup, seats: usize) -> Clocks {
        let full = setup.period_ms().unwrap_or(setup.initial_ms);
        Clocks {
            setup,
            remaining_ms: vec![full.min(i64::MAX as u64) as i64; seats],
            running: None,
            turn_starts: Vec::new(),
            deadline: None,
            restored: None,
        }
    }

    /// Whether this is a correspondence clock (days per move).
    pub fn is_correspondence(&self) -> bool {
        self.setup.days_per_move.is_some()
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
        self.deadline = None;
    }

    /// Stops the running clock (adding the increment if the turn passed to another seat) and
    /// starts `next`'s; `turn` is the number of completed turns. A correspondence clock keeps
    /// the deadline while the same seat goes on in the same turn, else gives `next` a fresh
    /// period (or the deadline read back from storage, if it is that seat's and turn's).
    pub fn settle(&mut self, next: Option<Seat>, turn: u32) {
        if let Some(period) = self.setup.period_ms() {
            let same = |d: &Deadline| Some(d.seat) == next && d.turn == turn;
            let restored = self.restored.take().filter(same);
            let kept = self.deadline.filter(same).or(restored);
            self.deadline = next.map(|seat| {
                kept.unwrap_or_else(|| Deadline {
                    seat,
                    turn,
                    at_ms: unix_ms().saturating_add(period),
                })
            });
            self.running = next.map(|seat| (seat, Instant::now()));
            return;
        }
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
        if self.is_correspondence() {
            let deadline = self.deadline?;
            let left = deadline.at_ms as i64 - unix_ms() as i64;
            return Some((deadline.seat, left));
        }
        let (seat, since) = self.running?;
        let left = self.remaining_ms.get(seat.to_usize())?;
        Some((seat, left - since.elapsed().as_millis() as i64))
    }

    /// The clocks as a `clock` change stores them: the remaining times, or for a
    /// correspondence clock its deadline.
    pub fn stored(&self) -> ClockRow {
        if self.is_correspondence() {
            ClockRow::Deadline(self.deadline)
        } else {
            ClockRow::Remaining(self.remaining_ms.clone())
        }
    }

    /// Takes the clocks of a stored `clock` change, if it fits this game's clock.
    pub fn restore(&mut self, row: &ClockRow) -> Result<(), ClockRowMismatch> {
        let seats = self.remaining_ms.len();
        match (row, self.is_correspondence()) {
            (ClockRow::Deadline(deadline), true) => {
                if let Some(deadline) = deadline.filter(|d| d.seat.to_usize() >= seats) {
                    return Err(ClockRowMismatch::DeadlineSeat {
                        seat: deadline.seat.number(),
                        seats,
                    });
                }
                self.restored = *deadline;
            }
            (ClockRow::Remaining(times), false) if times.len() == seats => {
                self.remaining_ms.clone_from(times);
            }
            (ClockRow::Remaining(times), false) => {
                return Err(ClockRowMismatch::Seats {
                    found: times.len(),
                    seats,
                });
            }
            (row, correspondence) => {
                return Err(ClockRowMismatch::Kind {
                    found: row.kind(),
                    expected: if correspondence {
                        "correspondence"
                    } else {
                        "timed"
                    },
                });
            }
        }
        Ok(())
    }

    /// The snapshot's `clock`: its kind, times at `as_of_ms` (Unix ms; the page counts the
    /// running one down) and when the running one runs out (`deadline_ms`, Unix ms).
    pub fn json(&self) -> Value {
        let mut remaining = self.remaining_ms.clone();
        let as_of_ms = unix_ms();
        let mut deadline_ms = None;
        let running = self.left_now().map(|(seat, left)| {
            remaining[seat.to_usize()] = left.max(0);
            deadline_ms = Some(as_of_ms.saturating_add_signed(left.max(0)));
            seat.number()
        });
        if let Some(deadline) = self.deadline {
            deadline_ms = Some(deadline.at_ms);
        }
        match self.setup.days_per_move {
            Some(days) => json!({"kind": "correspondence", "days_per_move": days,
                "remaining_ms": remaining, "running": running, "as_of_ms": as_of_ms,
                "deadline_ms": deadline_ms}),
            None => json!({"kind": "time", "remaining_ms": remaining, "running": running,
                "as_of_ms": as_of_ms, "deadline_ms": deadline_ms,
                "initial_ms": self.setup.initial_ms, "increment_ms": self.setup.increment_ms}),
        }
    }
}

impl Table {
    /// Settles the clocks after a change; answers the row to store.
    pub fn settle_clocks(&mut self) -> Option<ClockRow> {
        // No clock runs while an invited person has not opened their link yet: the creator's
        // time would otherwise drain while they wait. The last claim starts the mover's clock.
        let everyone_came = self.seats.iter().all(|seat| seat.invite.is_none());
        let next = self.game.to_move().filter(|_| everyone_came);
        let turn = self.game.turn();
        let clocks = self.clocks.as_mut()?;
        clocks.settle(next, turn);
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
    /// Flags the seat to move if its time ran out (at start too: a correspondence deadline
    /// may have passed while the server was down).
    pub(super) async fn check_flag(self: &Arc<Self>, hub: &Arc<Hub>) {
        // A change under way: the next round looks again.
        let Some(_turn) = self.try_turn() else {
            return;
        };
        let due = {
            let table = self.lock();
            match table.clocks.as_ref().and_then(Clocks::left_now) {
                Some((seat, left)) if left <= 0 && table.game.outcome().is_none() => Some(seat),
                _ => None,
            }
        };
        if let Some(seat) = due {
            self.flag(hub, seat).await;
        }
    }

    /// Ends `seat`'s part as on time (its time ran out, or it left its game abandoned): stored
    /// first, its commit awaited with the table unlocked, then applied and broadcast like any
    /// change. The caller holds the game's turn. A failed write changes nothing, and the
    /// caller's next round tries again.
    pub(super) async fn flag(self: &Arc<Self>, hub: &Arc<Hub>, seat: Seat) {
        let planned = Planned::new(Change::Flag(seat.number()), move |live, hub, table| {
            table.stop_searches();
            table.game.flag(seat);
            table.analysis = None;
            live.commit(table, hub, &[])
        });
        let Ok((table, job)) = self.store_then_apply(hub, planned).await else {
            return;
        };
        drop(table);
        self.after_change(hub, job).await;
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
            game.check_flag(&hub).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(number: usize) -> Seat {
        Seat::from_number(number, 2).unwrap()
    }

    #[test]
    fn a_clock_is_written_as_it_was_asked_for() {
        for text in [
            r#"{"days_per_move":3}"#,
            r#"{"initial_ms":60000,"increment_ms":0}"#,
        ] {
            let setup: ClockSetup = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&setup).unwrap(), text);
        }
        let half: ClockSetup = serde_json::from_str(r#"{"days_per_move":1.5}"#).unwrap();
        assert_eq!(
            half.days_per_move,
            Some(0),
            "refused later, naming the days"
        );
        assert_eq!(
            ClockSetup::timed(0, 0).class(),
            ClockClass::Fast,
            "as ClockClass::of"
        );
        let days = ClockSetup {
            days_per_move: Some(1),
            ..ClockSetup::timed(0, 0)
        };
        assert_eq!(days.class(), ClockClass::Correspondence);
    }

    #[test]
    fn a_deadline_is_kept_within_a_turn_and_read_back_for_its_seat_and_turn() {
        let setup = ClockSetup {
            days_per_move: Some(2),
            ..ClockSetup::timed(0, 0)
        };
        let mut clocks = Clocks::new(setup, 2);
        clocks.settle(Some(seat(1)), 0);
        let first = clocks.deadline.unwrap();
        assert!(first.at_ms >= unix_ms() + 2 * DAY_MS - 1000);
        clocks.settle(Some(seat(1)), 0);
        assert_eq!(clocks.deadline, Some(first), "the same turn goes on");
        let stored = clocks.stored();
        assert_eq!(stored, ClockRow::Deadline(Some(first)));

        let mut back = Clocks::new(setup, 2);
        back.restore(&stored).unwrap();
        back.settle(Some(seat(1)), 0);
        assert_eq!(back.deadline, Some(first), "read back as stored");
        let mut moved_on = Clocks::new(setup, 2);
        moved_on.restore(&stored).unwrap();
        moved_on.settle(Some(seat(2)), 1);
        assert_eq!(moved_on.deadline.unwrap().seat, seat(2), "a fresh period");
        moved_on.settle(None, 1);
        assert_eq!(moved_on.stored(), ClockRow::Deadline(None));
        let third = Deadline {
            seat: Seat::new(2),
            ..first
        };
        let error = Clocks::new(setup, 2).restore(&ClockRow::Deadline(Some(third)));
        assert_eq!(
            error.unwrap_err().to_string(),
            "a deadline for seat 3 in a game of 2 seats"
        );
        let times = ClockRow::Remaining(vec![1000, 2000]);
        let error = Clocks::new(setup, 2).restore(&times).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a remaining times row for a correspondence clock"
        );
    }

    #[test]
    fn remaining_times_are_read_back_for_as_many_seats() {
        let mut clocks = Clocks::new(ClockSetup::timed(60_000, 0), 2);
        clocks.remaining_ms = vec![59_000, -20];
        let stored = clocks.stored();
        let mut back = Clocks::new(ClockSetup::timed(60_000, 0), 2);
        back.restore(&stored).unwrap();
        assert_eq!(back.remaining_ms, [59_000, -20]);
        let three = Clocks::new(ClockSetup::timed(60_000, 0), 3).restore(&stored);
        assert_eq!(
            three.unwrap_err().to_string(),
            "2 remaining times for a game of 3 seats"
        );
    }
}
