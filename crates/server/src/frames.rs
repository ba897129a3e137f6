//! For Rust clients of the game WebSocket (`ludus-bot`): a delta frame applied to the
//! snapshot a client holds, as the page's `delta.js` does. A move's sockets are sent only what
//! changed (live/delta.rs); a client that keeps whole snapshots builds the next one here.

use serde_json::Value;

/// Why a delta frame was not applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeltaError {
    /// It follows on from another snapshot than the one held.
    #[error(
        "a delta from seq {from} to a snapshot of seq {held}: expected the snapshot it follows on from"
    )]
    NotFollowing {
        /// The delta's `from_seq`.
        from: Value,
        /// The held snapshot's `seq`.
        held: Value,
    },
    /// It lacks a part (named) that every delta of the server has.
    #[error("a delta without {0}: expected the server's frame")]
    Malformed(&'static str),
}

/// Applies `delta` (a `{"type":"delta",…}` frame) to the snapshot `held`, in place: what it
/// costs follows the delta's size, not the game's length. Refused, with `held` unchanged,
/// when it does not follow on from `held` (its `from_seq` is another `seq`) or is malformed;
/// a client then asks for the whole snapshot (`{"type":"sync"}`) or reconnects.
pub fn apply_delta(held: &mut Value, delta: &Value) -> Result<(), DeltaError> {
    if delta["from_seq"] != held["seq"] {
        return Err(DeltaError::NotFollowing {
            from: delta["from_seq"].clone(),
            held: held["seq"].clone(),
        });
    }
    let malformed = DeltaError::Malformed;
    let from = delta["history_from"]
        .as_u64()
        .ok_or_else(|| malformed("history_from"))? as usize;
    let turns = delta["turns"]
        .as_array()
        .ok_or_else(|| malformed("turns"))?;
    let cells = delta["view"]["cells"]
        .as_array()
        .ok_or_else(|| malformed("view.cells"))?;
    let (Some(history), Some(moves)) = (held["history"].as_array(), held["moves"].as_array())
    else {
        return Err(malformed("a snapshot with a history to apply to"));
    };
    if from > history.len() || from > moves.len() {
        return Err(malformed("a history_from within the history"));
    }
    let board = held["view"]["cells"].as_array().map_or(0, Vec::len);
    if cells
        .iter()
        .any(|c| c["index"].as_u64().is_none_or(|i| i as usize >= board))
    {
        return Err(malformed("cell indices within the board"));
    }
    replace_tail(&mut held["history"], from, turns.iter().cloned());
    replace_tail(
        &mut held["moves"],
        from,
        turns.iter().map(|t| t["text"].clone()),
    );
    for (key, value) in delta.as_object().into_iter().flatten() {
        if !["type", "from_seq", "history_from", "turns", "view"].contains(&key.as_str()) {
            held[key.as_str()] = value.clone();
        }
    }
    for (key, value) in delta["view"].as_object().into_iter().flatten() {
        if key != "cells" {
            held["view"][key.as_str()] = value.clone();
        }
    }
    for change in cells {
        let index = change["index"].as_u64().unwrap_or(0) as usize;
        let cell = &mut held["view"]["cells"][index];
        cell["stack"] = change["stack"].clone();
        cell["shaded"] = change["shaded"].clone();
    }
    Ok(())
}

/// Replaces the entries of the array `list` from `from` on with `tail`.
fn replace_tail(list: &mut Value, from: usize, tail: impl Iterator<Item = Value>) {
    if let Some(list) = list.as_array_mut() {
        list.truncate(from);
        list.extend(tail);
    }
}
