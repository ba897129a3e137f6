//! The actions a token holder takes on a game (move, undo, redo, resign, control), checked
//! and applied on the table, and the one path every change then follows (`commit`).

use std::sync::{Arc, MutexGuard};
use std::time::Instant;

use ludus_engine::Seat;
use serde::Serialize;

use super::computer::{self, Job};
use super::planned::Planned;
use super::turns::{split_turn, Decision};
use super::{LiveGame, Table};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::protocol::{Control, Scope};
use crate::store::Change;

/// The longest pause between computer moves.
pub const MAX_SPEED_MS: u64 = 10_000;

/// An action on a game.
#[derive(Clone, Debug)]
pub enum Command {
    /// A decision or a whole turn, decided at `seq`: the most frequent change, which awaits
    /// its commit with the table unlocked and no thread held.
    Move {
        /// The notation.
        notation: String,
        /// The `seq` it was decided on.
        seq: u64,
    },
    /// Any other action, checked and stored with the table locked.
    Table(TableCommand),
}

/// An action on a game other than a move.
#[derive(Clone, Copy, Debug)]
pub enum TableCommand {
    /// Take back.
    Undo {
        /// The `seq` it was decided on.
        seq: u64,
        /// How far.
        scope: Scope,
    },
    /// Play again what was taken back.
    Redo {
        /// The `seq` it was decided on.
        seq: u64,
        /// How far.
        scope: Scope,
    },
    /// The token's seat resigns.
    Resign,
    /// Pause, step, speed.
    Control(Control),
}

/// A decision as the page animates and announces it.
#[derive(Clone, Debug)]
pub struct Event {
    seat: usize,
    notation: String,
    cells: Vec<String>,
    by: &'static str,
}

/// An [`Event`] as its frame: written straight from the event, with no JSON map built for it.
#[derive(Serialize)]
struct EventFrame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    seat: usize,
    #[serde(rename = "move")]
    notation: &'a str,
    cells: &'a [String],
    by: &'static str,
}

impl Event {
    fn frame(&self, seq: u64) -> String {
        let frame = EventFrame {
            kind: "event",
            seq,
            seat: self.seat,
            notation: &self.notation,
            cells: &self.cells,
            by: self.by,
        };
        // Strings and numbers always serialise; the placeholder keeps the frame a JSON object.
        serde_json::to_string(&frame).unwrap_or_else(|_| r#"{"type":"event"}"#.to_string())
    }
}

impl LiveGame {
    /// Applies `command` for the holder of `token`; answers the new snapshot, or an error
    /// that carries the current one. The change runs to its end whatever becomes of the
    /// caller (an HTTP request, dropped when its client goes away: [`to_the_end`](super::to_the_end)).
    pub async fn act(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        token: &str,
        command: Command,
    ) -> Result<Arc<str>, ApiError> {
        let (game, hub, token) = (Arc::clone(self), Arc::clone(hub), token.to_string());
        super::to_the_end(
            async move { game.act_then(&hub, &token, command, Table::snapshot).await },
        )
        .await
    }

    /// Applies `command` like [`LiveGame::act`] but answers nothing: a socket's action, whose
    /// result reaches every socket as the change's frame, so no snapshot is built for it.
    /// Run in the socket's own task, which reads its next message only once this one is
    /// done and is never dropped midway, so no task of its own is spawned for it.
    pub async fn act_quietly(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        token: &str,
        command: Command,
    ) -> Result<(), ApiError> {
        self.act_then(hub, token, command, |_| ()).await
    }

    async fn act_then<T>(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        token: &str,
        command: Command,
        answer: impl FnOnce(&mut Table) -> T,
    ) -> Result<T, ApiError> {
        let _turn = self.turn().await;
        // In a block of its own: the table guard must be gone before the rating is awaited.
        let job = {
            let (mut table, events) = match command {
                Command::Move { notation, seq } => {
                    let decisions = {
                        let mut table = self.lock();
                        table
                            .check_human_move(token, &notation, seq)
                            .map_err(|error| error.with_snapshot(table.snapshot()))?
                    };
                    self.store_then_play(hub, &notation, decisions, "human")
                        .await?
                }
                Command::Table(command) => {
                    let planned = {
                        let mut table = self.lock();
                        table
                            .plan(token, command)
                            .map_err(|error| error.with_snapshot(table.snapshot()))?
                    };
                    self.store_then_apply(hub, planned).await?
                }
            };
            let job = self.commit(&mut table, hub, &events);
            if !table.rating_due {
                // Nearly every change: answered at once, under the same lock.
                let answer = answer(&mut table);
                drop(table);
                if let Some(job) = job {
                    computer::spawn(Arc::clone(self), Arc::clone(hub), job);
                }
                return Ok(answer);
            }
            job
        };
        // A rated game just ended: its answer carries the ratings.
        self.after_change(hub, job).await;
        Ok(answer(&mut self.lock()))
    }

    /// Stores the move `notation`, already checked by the rules as `decisions`, awaiting its
    /// commit without holding a thread, then plays it: answers the table, locked, with the
    /// move's events, for the caller to commit. The caller holds the game's turn
    /// ([`LiveGame::turn`]), so nothing changed the game since the check.
    pub(super) async fn store_then_play(
        &self,
        hub: &Hub,
        notation: &str,
        decisions: Vec<Decision>,
        by: &'static str,
    ) -> Result<(MutexGuard<'_, Table>, Vec<Event>), ApiError> {
        let stored = hub
            .store
            .send(&self.id, Change::Move(notation.to_string()))
            .committed()
            .await;
        let mut table = self.lock();
        if let Err(error) = stored {
            let error = ApiError::unavailable(format!("the game could not be stored: {error}"));
            return Err(error.with_snapshot(table.snapshot()));
        }
        match table.play_checked(notation, &decisions, by) {
            Ok(events) => Ok((table, events)),
            Err(error) => Err(error.with_snapshot(table.snapshot())),
        }
    }

    /// Takes up a game nobody changed yet (a new game, or one restored after a restart): a
    /// deadline that passed while the server was down is judged (a flag), its away seats'
    /// grace period starts, and the computer's search if one is due.
    pub async fn start(self: &Arc<Self>, hub: &Arc<Hub>) {
        if self.clocked {
            self.check_flag(hub).await;
        }
        let mut table = self.lock();
        let away = table.start_grace(hub.config.grace_seconds);
        let job = table.prepare_search(hub);
        if job.is_some() || away {
            table.changed();
        }
        drop(table);
        if let Some(job) = job {
            computer::spawn(Arc::clone(self), Arc::clone(hub), job);
        }
    }

    /// The path of every change: bump `seq`, start the next search if due, broadcast the
    /// events and the change's frame (a delta, or the snapshot after a rewritten history).
    /// Returns the search to spawn.
    pub(super) fn commit(&self, table: &mut Table, hub: &Hub, events: &[Event]) -> Option<Job> {
        table.seq += 1;
        table.offer = None;
        table.last_change = Instant::now();
        let was_finished = table.finished_at.is_some();
        table.finished_at = match (table.game.outcome(), table.finished_at) {
            (None, _) => None,
            (Some(_), Some(at)) => Some(at),
            (Some(_), None) => Some(table.last_change),
        };
        self.finished.store(
            table.finished_at.is_some(),
            std::sync::atomic::Ordering::Relaxed,
        );
        if was_finished != table.finished_at.is_some() {
            // The change itself is stored; a lost mark of an ended game only makes the next
            // start read it once more (and mark it then), so it is not waited for.
            hub.store.finished_later(&self.id, !was_finished);
            // Rated by the change's own task once the table is unlocked (`rate_if_due`).
            table.rating_due = !was_finished && table.rated;
        }
        if let Some(times) = table.settle_clocks() {
            // The move is already stored; a lost clock row only costs its time since the last,
            // so it is not waited for (the store writes it in order, before the next change).
            drop(hub.store.send(&self.id, Change::Clock(times)));
        }
        let job = table.prepare_search(hub);
        let frame = table.change_frame();
        let mut together = String::with_capacity(frame.len() + 160 * events.len());
        for event in events {
            together.push_str(&event.frame(table.seq));
            together.push(char::from(super::FRAMES_APART));
        }
        together.push_str(&frame);
        self.broadcast(together);
        job
    }
}

impl Table {
    /// Checks `command` of the holder of `token`: the change to store, and what applying it
    /// does ([`LiveGame::store_then_apply`]).
    fn plan(&self, token: &str, command: TableCommand) -> Result<Planned<Vec<Event>>, ApiError> {
        match command {
            TableCommand::Undo { seq, scope } => {
                self.require_member(token)?;
                self.check_seq(seq)?;
                self.check_own_steps(token)?;
                self.undo(scope)
            }
            TableCommand::Redo { seq, scope } => {
                self.require_member(token)?;
                self.check_seq(seq)?;
                self.check_own_steps(token)?;
                self.redo(scope)
            }
            TableCommand::Resign => {
                let seat = self.require_seat(token)?;
                self.resign(seat)
            }
            TableCommand::Control(control) => {
                self.require_owner(token)?;
                Table::control(control)
            }
        }
    }

    /// Checks a person's move: `token` holds the seat to move, `seq` is current, and the
    /// rules accept `notation`. Answers its decisions.
    fn check_human_move(
        &self,
        token: &str,
        notation: &str,
        seq: u64,
    ) -> Result<Vec<Decision>, ApiError> {
        let seat = self.require_seat(token)?;
        self.check_seq(seq)?;
        match self.game.to_move() {
            Some(to_move) if to_move != seat => Err(ApiError::forbidden(format!(
                "not your turn: {} is to move, this token plays {}",
                self.seat_label(to_move),
                self.seat_label(seat)
            ))),
            _ => self.check_notation(notation),
        }
    }

    /// The decisions of `notation` from the current position, or why the rules refuse it.
    pub(super) fn check_notation(&self, notation: &str) -> Result<Vec<Decision>, ApiError> {
        split_turn(&self.game, notation).map_err(|e| ApiError::unprocessable(e.to_string()))
    }

    /// Plays `notation`, checked as `decisions` (and stored), and returns its decisions as
    /// events.
    fn play_checked(
        &mut self,
        notation: &str,
        decisions: &[Decision],
        by: &'static str,
    ) -> Result<Vec<Event>, ApiError> {
        self.game
            .play(notation)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        let name = |cell: &ludus_engine::CellId| {
            self.cell_names
                .get(cell.to_usize())
                .cloned()
                .unwrap_or_default()
        };
        Ok(decisions
            .iter()
            .map(|d| Event {
                seat: d.seat.number(),
                notation: d.notation.clone(),
                cells: d.cells.iter().map(name).collect(),
                by,
            })
            .collect())
    }

    fn resign(&self, seat: Seat) -> Result<Planned<Vec<Event>>, ApiError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::unprocessable(format!(
                "the game is already over ({outcome}); expected a game in progress"
            )));
        }
        Ok(Planned::new(
            Change::Resign(seat.number()),
            move |_, _, table| {
                table.stop_searches();
                table.game.resign(seat);
                table.analysis = None;
                Vec::new()
            },
        ))
    }

    fn control(control: Control) -> Result<Planned<Vec<Event>>, ApiError> {
        if let Some(ms) = control.speed_ms {
            if ms > MAX_SPEED_MS {
                return Err(ApiError::unprocessable(format!(
                    "speed_ms {ms} is too long: expected 0..={MAX_SPEED_MS}"
                )));
            }
        }
        // Stored because it bumps `seq`: a restart must give the seq clients were told.
        Ok(Planned::new(
            Change::Control(control),
            move |_, _, table| {
                if let Some(ms) = control.speed_ms {
                    table.speed_ms = ms;
                }
                if let Some(paused) = control.paused {
                    table.paused = paused;
                    if paused {
                        table.cancel_thinking();
                    }
                }
                if control.step == Some(true) {
                    table.step = true;
                }
                Vec::new()
            },
        ))
    }

    fn undo(&self, scope: Scope) -> Result<Planned<Vec<Event>>, ApiError> {
        if self.game.entry_count() == 0 {
            return Err(ApiError::unprocessable(
                "nothing to undo: no decision has been played",
            ));
        }
        let mut game = self.game.clone();
        let mut undone = 0;
        while game.undo() {
            undone += 1;
            if scope == Scope::Decision || self.at_turn_of_choice(&game) {
                break;
            }
        }
        Ok(Planned::new(Change::Undo(undone), move |_, _, table| {
            table.after_history_change(game);
            Vec::new()
        }))
    }

    fn redo(&self, scope: Scope) -> Result<Planned<Vec<Event>>, ApiError> {
        if self.game.redo_len() == 0 {
            return Err(ApiError::unprocessable(
                "nothing to redo: expected an undo first",
            ));
        }
        let mut game = self.game.clone();
        let mut redone = 0;
        while game.redo() {
            redone += 1;
            if scope == Scope::Decision || self.at_turn_of_choice(&game) {
                break;
            }
        }
        Ok(Planned::new(Change::Redo(redone), move |_, _, table| {
            table.after_history_change(game);
            Vec::new()
        }))
    }

    /// Where a whole-turn undo or redo stops: the start of a turn of a person (or of anyone
    /// in a game without people), or the start of the game.
    fn at_turn_of_choice(&self, game: &ludus_engine::AnyGame) -> bool {
        if game.entry_count() == 0 {
            return true;
        }
        let turn_start = game.history().last().is_none_or(|t| t.complete);
        let chooser = game
            .to_move()
            .is_none_or(|seat| self.is_human(seat) || !self.has_human());
        turn_start && chooser
    }

    fn after_history_change(&mut self, game: ludus_engine::AnyGame) {
        self.stop_searches();
        self.rewind_clocks(&game);
        self.game = game;
        self.analysis = None;
        if !self.has_human() {
            self.paused = true;
        }
    }
}
