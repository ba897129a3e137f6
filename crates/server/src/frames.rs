//! For Rust clients of the game WebSocket (`ludus bot`): a delta frame applied to the
//! snapshot a client holds, as the page's `delta.js` does. A move's sockets are sent only what
//! changed (live/delta.rs); a client that keeps whole snapshots builds the next one here.

use serde_json::Value;

/// The snapshot `delta` (a `{"type":"delta",…}` frame) makes of `held`, or why it cannot:
/// it does not follow on from `held` (its `from_seq` is another `seq`) or is malformed. A
/// client then asks for the whole snapshot (`{"type":"sync"}`) or reconnects.
pub fn apply_delta(held: &Value, delta: &Value) -> Result<Value, String> {
    if delta["from_seq"] != held["seq"] {
        return Err(format!(
            "a delta from seq {} to a snapshot of seq {}: expected the snapshot it follows on from",
            delta["from_seq"], held["seq"]
        ));
    }
    let malformed = |what: &str| format!("a delta without {what}: expected the server's frame");
    let from = delta["history_from"]
        .as_u64()
        .ok_or_else(|| malformed("history_from"))? as usize;
    let turns = delta["turns"]
        .as_array()
        .ok_or_else(|| malformed("turns"))?;
    let cells = delta["view"]["cells"]
        .as_array()
        .ok_or_else(|| malformed("view.cells"))?;
    let mut next = held.clone();
    let history = next["history"]
        .as_array_mut()
        .filter(|history| from <= history.len())
        .ok_or_else(|| malformed("a history_from within the history"))?;
    history.truncate(from);
    history.extend(turns.iter().cloned());
    let moves = history.iter().map(|turn| turn["text"].clone()).collect();
    next["moves"] = Value::Array(moves);
    for (key, value) in delta.as_object().into_iter().flatten() {
        if !["type", "from_seq", "history_from", "turns", "view"].contains(&key.as_str()) {
            next[key.as_str()] = value.clone();
        }
    }
    for (key, value) in delta["view"].as_object().into_iter().flatten() {
        if key != "cells" {
            next["view"][key.as_str()] = value.clone();
        }
    }
    for change in cells {
        let cell = change["index"]
            .as_u64()
            .and_then(|index| next["view"]["cells"].get_mut(index as usize))
            .ok_or_else(|| malformed("cell indices within the board"))?;
        cell["stack"] = change["stack"].clone();
        cell["shaded"] = change["shaded"].clone();
    }
    Ok(next)
}
