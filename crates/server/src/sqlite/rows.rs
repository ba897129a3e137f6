//! The text form of a logged [`Change`] in the `changes` table: a kind (`move`, `clock`,
//! `control`, …) and an argument. Values are typed everywhere else; this file is the one
//! place that writes them as text and reads them back, refusing a row it cannot read with
//! what was wrong.
//!
//! The forms, which databases already hold and so never change: `move` the notation;
//! `undo`/`redo` a count; `resign`/`claim`/`flag` a seat number; `hand` `2 ai:mcts`; `draw`
//! nothing; `offer` the offer's stored form or nothing; `clock` comma-separated remaining
//! milliseconds (`59000,60000`), or a deadline `seat=2 turn=5 deadline_ms=1700000000000`, or
//! nothing (no deadline); `control` `paused=true speed_ms=400 step=true`, each part optional.

use ludus_engine::{Seat, MAX_SEATS};
use thiserror::Error;

use crate::live::{ClockRow, Deadline};
use crate::protocol::Control;
use crate::store::Change;

/// A stored row that does not read as a change.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad {kind} row '{arg}': expected {expected}")]
pub struct BadRow {
    /// The row's kind.
    pub kind: String,
    /// The row's argument.
    pub arg: String,
    /// What the row should have held.
    pub expected: &'static str,
}

/// A change's kind and argument as the `changes` table holds them.
pub fn to_row(change: &Change) -> (&'static str, String) {
    let arg = match change {
        Change::Move(text) | Change::Offer(text) => text.clone(),
        Change::Undo(n)
        | Change::Redo(n)
        | Change::Resign(n)
        | Change::Claim(n)
        | Change::Flag(n) => n.to_string(),
        Change::Hand(seat, spec) => format!("{seat} {spec}"),
        Change::Clock(clock) => clock_text(clock),
        Change::Draw => String::new(),
        Change::Control(control) => control_text(*control),
    };
    (change.kind(), arg)
}

/// Reads a row of the `changes` table back as the change it stores.
pub fn from_row(kind: &str, arg: &str) -> Result<Change, BadRow> {
    let bad = |expected| BadRow {
        kind: kind.to_string(),
        arg: arg.to_string(),
        expected,
    };
    let count = || arg.parse::<usize>().map_err(|_| bad("a whole number"));
    Ok(match kind {
        "move" => Change::Move(arg.to_string()),
        "undo" => Change::Undo(count()?),
        "redo" => Change::Redo(count()?),
        "resign" => Change::Resign(count()?),
        "claim" => Change::Claim(count()?),
        "flag" => Change::Flag(count()?),
        "hand" => {
            let (seat, spec) = arg
                .split_once(' ')
                .and_then(|(seat, spec)| Some((seat.parse().ok()?, spec)))
                .ok_or_else(|| bad("a seat number and a player spec"))?;
            Change::Hand(seat, spec.to_string())
        }
        "draw" => Change::Draw,
        "offer" => Change::Offer(arg.to_string()),
        "clock" => Change::Clock(read_clock(arg).ok_or_else(|| {
            bad("remaining milliseconds like 59000,60000 or a deadline like seat=2 turn=5 deadline_ms=1700000000000")
        })?),
        "control" => Change::Control(
            read_control(arg)
                .ok_or_else(|| bad("parts like paused=true speed_ms=400 step=true"))?,
        ),
        _ => return Err(bad("a known kind of change")),
    })
}

fn clock_text(clock: &ClockRow) -> String {
    match clock {
        ClockRow::Remaining(times) => {
            let times: Vec<String> = times.iter().map(i64::to_string).collect();
            times.join(",")
        }
        ClockRow::Deadline(None) => String::new(),
        ClockRow::Deadline(Some(deadline)) => format!(
            "seat={} turn={} deadline_ms={}",
            deadline.seat.number(),
            deadline.turn,
            deadline.at_ms
        ),
    }
}

fn read_clock(arg: &str) -> Option<ClockRow> {
    if arg.is_empty() {
        return Some(ClockRow::Deadline(None));
    }
    if !arg.contains('=') {
        let times = arg
            .split(',')
            .map(|t| t.parse().ok())
            .collect::<Option<_>>()?;
        return Some(ClockRow::Remaining(times));
    }
    let (mut seat, mut turn, mut at_ms) = (None, None, None);
    for pair in arg.split_whitespace() {
        match pair.split_once('=')? {
            ("seat", n) => seat = Some(Seat::from_number(n.parse().ok()?, MAX_SEATS)?),
            ("turn", n) => turn = Some(n.parse().ok()?),
            ("deadline_ms", n) => at_ms = Some(n.parse().ok()?),
            _ => return None,
        }
    }
    Some(ClockRow::Deadline(Some(Deadline {
        seat: seat?,
        turn: turn?,
        at_ms: at_ms?,
    })))
}

fn control_text(control: Control) -> String {
    let mut parts = Vec::new();
    if let Some(paused) = control.paused {
        parts.push(format!("paused={paused}"));
    }
    if let Some(ms) = control.speed_ms {
        parts.push(format!("speed_ms={ms}"));
    }
    if let Some(step) = control.step {
        parts.push(format!("step={step}"));
    }
    parts.join(" ")
}

fn read_control(arg: &str) -> Option<Control> {
    let mut control = Control::default();
    for pair in arg.split_whitespace() {
        match pair.split_once('=')? {
            ("paused", value) => control.paused = Some(value.parse().ok()?),
            ("speed_ms", value) => control.speed_ms = Some(value.parse().ok()?),
            ("step", value) => control.step = Some(value.parse().ok()?),
            _ => return None,
        }
    }
    Some(control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_reads_back_as_written() {
        let deadline = Deadline {
            seat: Seat::new(1),
            turn: 5,
            at_ms: 1_700_000_000_000,
        };
        let control = Control {
            paused: Some(true),
            step: None,
            speed_ms: Some(400),
        };
        for change in [
            Change::Move("a1:NEN".to_string()),
            Change::Undo(2),
            Change::Redo(1),
            Change::Resign(2),
            Change::Claim(3),
            Change::Hand(2, "ai:mcts:sims=64".to_string()),
            Change::Clock(ClockRow::Remaining(vec![59_000, -20, 60_000])),
            Change::Clock(ClockRow::Deadline(Some(deadline))),
            Change::Clock(ClockRow::Deadline(None)),
            Change::Draw,
            Change::Flag(1),
            Change::Offer("draw 1 2".to_string()),
            Change::Offer(String::new()),
            Change::Control(control),
            Change::Control(Control::default()),
        ] {
            let (kind, arg) = to_row(&change);
            assert_eq!(from_row(kind, &arg), Ok(change), "{kind} {arg}");
        }
    }

    #[test]
    fn the_forms_databases_hold_read_as_before() {
        let (kind, arg) = to_row(&Change::Control(Control {
            paused: Some(true),
            step: Some(true),
            speed_ms: Some(400),
        }));
        assert_eq!(
            (kind, arg.as_str()),
            ("control", "paused=true speed_ms=400 step=true")
        );
        assert_eq!(
            from_row("clock", "seat=2 turn=5 deadline_ms=17"),
            Ok(Change::Clock(ClockRow::Deadline(Some(Deadline {
                seat: Seat::new(1),
                turn: 5,
                at_ms: 17
            }))))
        );
        assert_eq!(
            from_row("clock", "1000,2000"),
            Ok(Change::Clock(ClockRow::Remaining(vec![1000, 2000])))
        );
        assert_eq!(
            from_row("control", "paused=true"),
            Ok(Change::Control(Control {
                paused: Some(true),
                ..Control::default()
            }))
        );
    }

    #[test]
    fn a_row_that_does_not_read_says_what_was_expected() {
        for (kind, arg) in [
            ("clock", "seat=9 turn=0 deadline_ms=1"),
            ("clock", "seat=1 turn=0"),
            ("clock", "1000,,2000"),
            ("control", "paused=maybe"),
            ("control", "volume=11"),
            ("undo", "-1"),
            ("hand", "2"),
            ("teleport", "a1"),
        ] {
            let error = from_row(kind, arg).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!("bad {kind} row '{arg}': expected ")),
                "{error}"
            );
        }
    }
}
