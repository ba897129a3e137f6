//! A game as a persistent store keeps it: its setup when it was created (the record so far,
//! who plays each seat with which token and seed, the owner, the speed) and the changes logged
//! since; and the way back, replaying those changes through the rules into a live game.
//!
//! Nothing is trusted on the way back: a setup or a change the rules refuse makes the whole
//! game an error naming what was wrong, and the caller skips it (it is never "repaired").

use std::sync::Arc;

use ludus_engine::{AnyGame, GameRecord, MoveError, RecordError, Seat};
use ludus_games::load_record;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::agents::{Computer, ComputerError};
use super::clock_row::ClockRowMismatch;
use super::offers::{BadOffer, Offer};
use super::table::{SeatAccount, SeatPlayer};
use super::{LiveGame, Table};
use crate::protocol::Control;
use crate::store::Change;

/// Why a stored game cannot be rebuilt: what the rules or the table refused.
#[derive(Debug, Error)]
pub enum RestoreError {
    /// The record at creation does not load.
    #[error("bad setup: {0}")]
    Setup(#[from] RecordError),
    /// A change the rules or the clocks refuse.
    #[error("change {number} ({kind}): {refusal}")]
    Change {
        /// Its place among the game's changes, from 1 (0: the game as set up, before any).
        number: usize,
        /// Its kind (`move`, `undo`, `clock`, …).
        kind: &'static str,
        /// What was refused.
        refusal: Refusal,
    },
    /// A number of stored seats the game does not have.
    #[error("{stored} seats stored for a game of {game}")]
    SeatCount {
        /// Seats in the setup.
        stored: usize,
        /// Seats the game has.
        game: usize,
    },
    /// A stored computer player that cannot be made.
    #[error("seat {seat}: {error}")]
    Computer {
        /// The seat (1-based).
        seat: usize,
        /// Why not.
        error: ComputerError,
    },
    /// A claim of a seat that had no invitation.
    #[error("claim of seat {0}: no such invitation")]
    Claim(usize),
    /// A seat handed to a computer player that cannot be made, or a seat the game lacks.
    #[error("seat {seat} handed to '{spec}': {error}")]
    Hand {
        /// The seat (1-based).
        seat: usize,
        /// The computer player's spec.
        spec: String,
        /// Why not.
        error: ComputerError,
    },
    /// A seat handed over that the game does not have.
    #[error("seat {0} handed over: no such seat")]
    HandSeat(usize),
    /// A stored offer that does not read.
    #[error(transparent)]
    Offer(#[from] BadOffer),
}

/// What the rules or the clocks refused of one stored change.
#[derive(Debug, Error)]
pub enum Refusal {
    /// A move the rules refuse.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// More undos than decisions.
    #[error("nothing left to undo")]
    NothingToUndo,
    /// More redos than decisions undone.
    #[error("nothing left to redo")]
    NothingToRedo,
    /// A seat the game does not have.
    #[error("no such seat")]
    NoSuchSeat,
    /// A resignation, flag or draw after the end.
    #[error("the game was already over")]
    AlreadyOver,
    /// A clock row that does not fit the game's clock.
    #[error(transparent)]
    Clock(#[from] ClockRowMismatch),
}

/// Who plays a seat, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredSeat {
    /// `human`, or the computer player's spec.
    pub kind: String,
    /// The secret of a human seat.
    pub token: Option<String>,
    /// The computer player's seed.
    #[serde(default)]
    pub seed: u64,
    /// The seat's invitation (whether it was claimed is a change logged later).
    #[serde(default)]
    pub invite: Option<String>,
    /// The account seated by pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<SeatAccount>,
}

/// A game's setup when it was stored: everything needed to rebuild its table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Setup {
    /// The record at creation (a loaded game's moves included).
    pub record: GameRecord,
    /// One per seat, in seat order.
    pub seats: Vec<StoredSeat>,
    /// The creator's token.
    pub owner: String,
    /// The pause before each computer move in games without a person.
    pub speed_ms: u64,
    /// Left out of the lobby.
    #[serde(default)]
    pub private: bool,
    /// Seats were given by invitation.
    #[serde(default)]
    pub between_people: bool,
    /// The clocks' setup, in a game played with clocks.
    #[serde(default)]
    pub clock: Option<super::clock::ClockSetup>,
    /// Rated.
    #[serde(default)]
    pub rated: bool,
}

impl LiveGame {
    /// The game's setup as a store keeps it, from its table now.
    pub fn setup(&self) -> Setup {
        let table = self.lock();
        Setup {
            record: table.game.record(),
            seats: table
                .seats
                .iter()
                .map(|s| StoredSeat {
                    kind: s.kind.clone(),
                    token: s.token.clone(),
                    seed: s.computer.as_ref().map_or(0, |c| c.seed),
                    invite: s.invite.clone(),
                    account: s.account.clone(),
                })
                .collect(),
            owner: table.owner.clone(),
            speed_ms: table.speed_ms,
            private: table.private,
            between_people: table.between_people,
            clock: table.clocks.as_ref().map(|c| c.setup),
            rated: table.rated,
        }
    }
}

impl Setup {
    /// Sets the table's flags kept in the setup: private, between people, rated.
    fn apply_flags(&self, table: &mut Table) {
        table.private = self.private;
        table.between_people = self.between_people;
        table.rated = self.rated;
    }
}

/// The game `setup` describes after `changes`, replayed through the rules; the `seq` of the
/// rebuilt game is the number of changes that bumped it (every change but clock and offer
/// rows), and the offer still waiting is the last stored one if nothing changed since.
pub fn restore(id: &str, setup: &Setup, changes: &[Change]) -> Result<Arc<LiveGame>, RestoreError> {
    let mut clocks = setup
        .clock
        .map(|clock| super::clock::Clocks::new(clock, setup.seats.len()));
    // The times at each turn's start, for takebacks: those of the clock row stored after
    // the change that started it, as live.
    let game = replay_each(setup, changes, |game, change| {
        let Some(clocks) = clocks.as_mut() else {
            return Ok(());
        };
        match change {
            Some(Change::Clock(row)) => clocks.restore(row)?,
            Some(_) => return Ok(()),
            None => {}
        }
        clocks.note_turn_start(game);
        Ok(())
    })?;
    if setup.seats.len() != game.seat_count() {
        return Err(RestoreError::SeatCount {
            stored: setup.seats.len(),
            game: game.seat_count(),
        });
    }
    let mut seats = setup
        .seats
        .iter()
        .enumerate()
        .map(|(index, seat)| seat_player(game.info().id, index, seat))
        .collect::<Result<Vec<_>, _>>()?;
    for change in changes {
        seat_change(game.info().id, &mut seats, change)?;
    }
    let mut table = Table::new(game, seats, setup.owner.clone(), setup.speed_ms);
    for change in changes {
        if change.bumps_seq() {
            table.seq += 1;
            table.offer = None;
        }
        match change {
            Change::Offer(offer) => {
                table.offer = Offer::from_stored(offer, table.seats.len())?;
            }
            Change::Control(control) => apply_control(&mut table, *control),
            Change::Claim(number) => {
                if let Some(presence) = table.presence.get_mut(number.wrapping_sub(1)) {
                    presence.joined = true;
                }
            }
            // As live: taking back in a game without people pauses its computers.
            Change::Undo(_) | Change::Redo(_) if !table.has_human() => table.paused = true,
            _ => {}
        }
    }
    if clocks.is_some() {
        table.clocks = clocks;
        table.settle_clocks();
    }
    // Nobody's socket survives a restart: the grace period runs again from now.
    table.away_after_restart();
    setup.apply_flags(&mut table);
    Ok(LiveGame::new(id.to_string(), table))
}

/// The game of `setup` after `changes`, every one checked by the rules.
pub fn replay(setup: &Setup, changes: &[Change]) -> Result<AnyGame, RestoreError> {
    replay_each(setup, changes, |_, _| Ok(()))
}

/// As [`replay`], showing `visit` the game at the start (with `None`) and after each change.
fn replay_each(
    setup: &Setup,
    changes: &[Change],
    mut visit: impl FnMut(&AnyGame, Option<&Change>) -> Result<(), Refusal>,
) -> Result<AnyGame, RestoreError> {
    let mut game = load_record(&setup.record)?;
    visit(&game, None).map_err(|refusal| RestoreError::Change {
        number: 0,
        kind: "setup",
        refusal,
    })?;
    for (number, change) in changes.iter().enumerate() {
        apply(&mut game, change)
            .and_then(|()| visit(&game, Some(change)))
            .map_err(|refusal| RestoreError::Change {
                number: number + 1,
                kind: change.kind(),
                refusal,
            })?;
    }
    Ok(game)
}

fn apply(game: &mut AnyGame, change: &Change) -> Result<(), Refusal> {
    match change {
        Change::Move(text) => game.play(text).map(drop).map_err(Refusal::from),
        Change::Undo(times) => repeat(*times, || game.undo(), Refusal::NothingToUndo),
        Change::Redo(times) => repeat(*times, || game.redo(), Refusal::NothingToRedo),
        Change::Resign(number) | Change::Flag(number) => {
            let seat = Seat::from_number(*number, game.seat_count()).ok_or(Refusal::NoSuchSeat)?;
            if game.outcome().is_some() {
                return Err(Refusal::AlreadyOver);
            }
            if matches!(change, Change::Flag(_)) {
                game.flag(seat);
            } else {
                game.resign(seat);
            }
            Ok(())
        }
        Change::Draw if game.agree_draw() => Ok(()),
        Change::Draw => Err(Refusal::AlreadyOver),
        // These change who plays, the clocks, the offer or the pause, not the game: `restore`
        // applies them to the table.
        Change::Claim(_)
        | Change::Hand(..)
        | Change::Clock(_)
        | Change::Offer(_)
        | Change::Control(_) => Ok(()),
    }
}

/// Applies a stored control change (a step is not kept).
fn apply_control(table: &mut Table, control: Control) {
    if let Some(paused) = control.paused {
        table.paused = paused;
    }
    if let Some(speed_ms) = control.speed_ms {
        table.speed_ms = speed_ms;
    }
}

fn repeat(times: usize, mut step: impl FnMut() -> bool, empty: Refusal) -> Result<(), Refusal> {
    for _ in 0..times {
        if !step() {
            return Err(empty);
        }
    }
    Ok(())
}

fn seat_player(
    game_id: &'static str,
    index: usize,
    seat: &StoredSeat,
) -> Result<SeatPlayer, RestoreError> {
    if seat.kind == "human" {
        return Ok(SeatPlayer {
            kind: seat.kind.clone(),
            token: seat.token.clone(),
            computer: None,
            invite: seat.invite.clone(),
            account: seat.account.clone(),
        });
    }
    let computer =
        Computer::new(game_id, &seat.kind, seat.seed).map_err(|error| RestoreError::Computer {
            seat: index + 1,
            error,
        })?;
    Ok(SeatPlayer {
        kind: computer.spec.clone(),
        token: None,
        computer: Some(computer),
        invite: None,
        account: None,
    })
}

/// Applies a change of who plays a seat (a claimed invitation, a seat handed to a computer).
fn seat_change(
    game_id: &'static str,
    seats: &mut [SeatPlayer],
    change: &Change,
) -> Result<(), RestoreError> {
    match change {
        Change::Claim(number) => match seats.get_mut(number.wrapping_sub(1)) {
            Some(seat) if seat.invite.is_some() => seat.invite = None,
            _ => return Err(RestoreError::Claim(*number)),
        },
        Change::Hand(number, spec) => {
            let seat = seats
                .get_mut(number.wrapping_sub(1))
                .ok_or(RestoreError::HandSeat(*number))?;
            let computer = Computer::new(game_id, spec, 0).map_err(|error| RestoreError::Hand {
                seat: *number,
                spec: spec.clone(),
                error,
            })?;
            seat.kind.clone_from(&computer.spec);
            seat.token = None;
            seat.computer = Some(computer);
        }
        _ => {}
    }
    Ok(())
}
