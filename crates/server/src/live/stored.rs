//! A game as a persistent store keeps it: its setup when it was created (the record so far,
//! who plays each seat with which token and seed, the owner, the speed) and the changes logged
//! since; and the way back, replaying those changes through the rules into a live game.
//!
//! Nothing is trusted on the way back: a setup or a change the rules refuse makes the whole
//! game an error naming what was wrong, and the caller skips it (it is never "repaired").

use std::sync::Arc;

use ludus_engine::{AnyGame, GameRecord, Seat};
use ludus_games::load_record;
use serde::{Deserialize, Serialize};

use super::agents::Computer;
use super::table::{SeatAccount, SeatPlayer};
use super::{LiveGame, Table};
use crate::store::Change;

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

/// A change as stored: its kind and its argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChange {
    /// `move`, `undo`, `redo`, `resign`, `flag`, `draw`, `claim`, `hand`, `clock`, `offer`
    /// or `control`.
    pub kind: String,
    /// The notation, the count, the seat number or the stored state.
    pub arg: String,
}

impl From<Change<'_>> for StoredChange {
    fn from(change: Change<'_>) -> StoredChange {
        let (kind, arg) = match change {
            Change::Move(text) => ("move", text.to_string()),
            Change::Undo(n) => ("undo", n.to_string()),
            Change::Redo(n) => ("redo", n.to_string()),
            Change::Resign(seat) => ("resign", seat.to_string()),
            Change::Claim(seat) => ("claim", seat.to_string()),
            Change::Hand(seat, spec) => ("hand", format!("{seat} {spec}")),
            Change::Clock(times) => ("clock", times.to_string()),
            Change::Draw => ("draw", String::new()),
            Change::Flag(seat) => ("flag", seat.to_string()),
            Change::Offer(offer) => ("offer", offer.to_string()),
            Change::Control(control) => ("control", control.to_string()),
        };
        StoredChange {
            kind: kind.to_string(),
            arg,
        }
    }
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
pub fn restore(id: &str, setup: &Setup, changes: &[StoredChange]) -> Result<Arc<LiveGame>, String> {
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
            Some(change) if change.kind == "clock" => clocks.restore(&change.arg)?,
            Some(_) => return Ok(()),
            None => {}
        }
        clocks.note_turn_start(game);
        Ok(())
    })?;
    if setup.seats.len() != game.seat_count() {
        return Err(format!(
            "{} seats stored for a game of {}",
            setup.seats.len(),
            game.seat_count()
        ));
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
        if Change::bumps_seq(&change.kind) {
            table.seq += 1;
            table.offer = None;
        }
        match change.kind.as_str() {
            "offer" => {
                table.offer = super::offers::Offer::from_stored(&change.arg, table.seats.len())?;
            }
            "control" => apply_control(&mut table, &change.arg)?,
            "claim" => {
                let number = change.arg.parse::<usize>().unwrap_or(0);
                if let Some(presence) = table.presence.get_mut(number.wrapping_sub(1)) {
                    presence.joined = true;
                }
            }
            // As live: taking back in a game without people pauses its computers.
            "undo" | "redo" if !table.has_human() => table.paused = true,
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
pub fn replay(setup: &Setup, changes: &[StoredChange]) -> Result<AnyGame, String> {
    replay_each(setup, changes, |_, _| Ok(()))
}

/// As [`replay`], showing `visit` the game at the start (with `None`) and after each change.
fn replay_each(
    setup: &Setup,
    changes: &[StoredChange],
    mut visit: impl FnMut(&AnyGame, Option<&StoredChange>) -> Result<(), String>,
) -> Result<AnyGame, String> {
    let mut game = load_record(&setup.record).map_err(|e| format!("bad setup: {e}"))?;
    visit(&game, None)?;
    for (number, change) in changes.iter().enumerate() {
        apply(&mut game, change)
            .and_then(|()| visit(&game, Some(change)))
            .map_err(|e| {
                format!(
                    "change {} ({} {}): {e}",
                    number + 1,
                    change.kind,
                    change.arg
                )
            })?;
    }
    Ok(game)
}

fn apply(game: &mut AnyGame, change: &StoredChange) -> Result<(), String> {
    let count = || {
        change
            .arg
            .parse::<usize>()
            .map_err(|_| "expected a number".to_string())
    };
    match change.kind.as_str() {
        "move" => game.play(&change.arg).map(drop).map_err(|e| e.to_string()),
        "undo" => repeat(count()?, || game.undo(), "nothing left to undo"),
        "redo" => repeat(count()?, || game.redo(), "nothing left to redo"),
        "resign" | "flag" => {
            let seat = Seat::from_number(count()?, game.seat_count())
                .ok_or_else(|| "no such seat".to_string())?;
            if game.outcome().is_some() {
                return Err("the game was already over".to_string());
            }
            if change.kind == "flag" {
                game.flag(seat);
            } else {
                game.resign(seat);
            }
            Ok(())
        }
        "draw" if game.agree_draw() => Ok(()),
        "draw" => Err("the game was already over".to_string()),
        // These change who plays, the clocks, the offer or the pause, not the game: `restore`
        // applies them to the table.
        "claim" | "hand" | "clock" | "offer" | "control" => Ok(()),
        other => Err(format!("unknown change '{other}'")),
    }
}

/// Applies a stored `control` row (`paused=true speed_ms=400`; a step is not kept).
fn apply_control(table: &mut Table, stored: &str) -> Result<(), String> {
    for pair in stored.split_whitespace() {
        let bad = || format!("bad control row '{stored}'");
        match pair.split_once('=').ok_or_else(bad)? {
            ("paused", value) => table.paused = value.parse().map_err(|_| bad())?,
            ("speed_ms", value) => table.speed_ms = value.parse().map_err(|_| bad())?,
            ("step", _) => {}
            _ => return Err(bad()),
        }
    }
    Ok(())
}

fn repeat(times: usize, mut step: impl FnMut() -> bool, empty: &str) -> Result<(), String> {
    for _ in 0..times {
        if !step() {
            return Err(empty.to_string());
        }
    }
    Ok(())
}

fn seat_player(
    game_id: &'static str,
    index: usize,
    seat: &StoredSeat,
) -> Result<SeatPlayer, String> {
    if seat.kind == "human" {
        return Ok(SeatPlayer {
            kind: seat.kind.clone(),
            token: seat.token.clone(),
            computer: None,
            invite: seat.invite.clone(),
            account: seat.account.clone(),
        });
    }
    let computer = Computer::new(game_id, &seat.kind, seat.seed)
        .map_err(|e| format!("seat {}: {e}", index + 1))?;
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
    change: &StoredChange,
) -> Result<(), String> {
    let (number, spec) = change
        .arg
        .split_once(' ')
        .unwrap_or((change.arg.as_str(), ""));
    let seat = number
        .parse::<usize>()
        .ok()
        .and_then(|n| seats.get_mut(n.wrapping_sub(1)));
    match (change.kind.as_str(), seat) {
        ("claim", Some(seat)) if seat.invite.is_some() => seat.invite = None,
        ("claim", _) => return Err(format!("claim of seat {number}: no such invitation")),
        ("hand", Some(seat)) => {
            let computer = Computer::new(game_id, spec, 0)
                .map_err(|e| format!("seat {number} handed to '{spec}': {e}"))?;
            seat.kind.clone_from(&computer.spec);
            seat.token = None;
            seat.computer = Some(computer);
        }
        ("hand", None) => return Err(format!("seat {number} handed over: no such seat")),
        _ => {}
    }
    Ok(())
}
