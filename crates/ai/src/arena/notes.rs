//! What the saved games file (`--save-games`) says about each decision beside the moves: the
//! seat, the time it took, the budget and clock it had, and the score its search reported.
//! The record stays a plain game record: `ludus replay` reads it and skips the notes.

use std::path::Path;

use ludus_engine::{write_atomically, GameRecord, RecordError};
use serde::Serialize;
use serde_json::Value;

/// One decision's note (an outside engine's answer of a whole turn is one note).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub(crate) struct DecisionNote {
    /// The seat, from 1.
    pub seat: usize,
    /// What was played, in notation.
    #[serde(rename = "move")]
    pub played: String,
    /// Milliseconds the player took, as the arena measured them.
    pub time_ms: u64,
    /// The time it was given: a built-in player's budget, an engine's `movetime`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_ms: Option<u64>,
    /// The seat's clock before the decision, under `--tc`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    /// The search's score for the seat to move, as UGI writes it (`cp 20`, `mate -3`); none
    /// for a forced decision or a player that reports none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
}

/// Saves `record` with `notes` as its `decisions` field.
pub(crate) fn save_with_notes(
    path: &Path,
    record: &GameRecord,
    notes: &[DecisionNote],
) -> Result<(), RecordError> {
    // A record and the notes hold only strings and numbers: serialising cannot fail.
    let mut value = serde_json::to_value(record).unwrap_or_default();
    if let Value::Object(fields) = &mut value {
        fields.insert(
            "decisions".to_string(),
            serde_json::to_value(notes).unwrap_or_default(),
        );
    }
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    write_atomically(path, text.as_bytes())
}
