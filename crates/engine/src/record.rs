//! Saved games: game id, options, players, the moves in turn notation, and the result.
//!
//! A record stores actions, never state dumps (OpenSpiel's lesson: action lists do not rot).
//! Loading replays every move through the rules (see [`crate::Session::from_record`]), so a
//! damaged file is refused with the number of the bad entry. Saving is atomic.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::error::Category;
use serde_json::Value;

use crate::error::plain_serde_message;
pub use crate::record_file::{read_record_text, write_atomically, STALE_AFTER};
use crate::RecordError;

/// The record format this version writes and reads.
pub const RECORD_FORMAT: u32 = 1;

/// Who played a seat.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The player's name.
    pub name: String,
    /// `human`, or the computer player's spec (`ai:4`).
    pub kind: String,
}

/// The end of a recorded game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ResultRecord {
    /// The winning seat, 1-based, or `None` for a draw.
    pub winner: Option<usize>,
    /// The rules' reason, e.g. "four in a row".
    pub reason: String,
}

/// A whole game as saved on disk (JSON).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The record format, [`RECORD_FORMAT`].
    pub format: u32,
    /// The game's registry id (`qawale`).
    pub game: String,
    /// The rules options as a JSON object of the spec's names.
    pub options: Value,
    /// The seed that resolved random rules choices.
    #[serde(default)]
    pub seed: u64,
    /// The start position string, when the game did not start from the usual setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// One entry per seat, in turn order.
    #[serde(default)]
    pub players: Vec<PlayerRecord>,
    /// The moves: one turn per entry in the game's turn notation, or `resign N` for seat N
    /// resigning. A Ludus extension the specs' formats do not have (other readers need not
    /// accept it): the last entry may be an unfinished turn (a save in the middle of a turn),
    /// and a turn may be split around another seat's resignation.
    pub moves: Vec<String>,
    /// How the game ended, if it did.
    #[serde(default)]
    pub result: Option<ResultRecord>,
}

impl GameRecord {
    /// Reads a record from JSON text.
    pub fn from_json(text: &str) -> Result<GameRecord, RecordError> {
        let record: GameRecord = serde_json::from_str(text).map_err(|e| {
            let place = format!("line {} column {}", e.line(), e.column());
            RecordError::Json(match e.classify() {
                Category::Syntax | Category::Eof | Category::Io => {
                    format!("not valid JSON at {place}")
                }
                Category::Data => {
                    format!("at {place}: {}", plain_serde_message(&e.to_string()))
                }
            })
        })?;
        if record.format != RECORD_FORMAT {
            return Err(RecordError::Version(record.format, RECORD_FORMAT));
        }
        Ok(record)
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        // A record holds only strings, numbers and JSON values: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a record file (at most [`crate::MAX_RECORD_BYTES`]).
    pub fn load(path: &Path) -> Result<GameRecord, RecordError> {
        GameRecord::from_json(&read_record_text(path)?)
    }

    /// Writes the record atomically (see [`write_atomically`]): a crash never leaves a
    /// half-written save, a symlink is followed, a device or FIFO is refused.
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        write_atomically(path, self.to_json().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            format: RECORD_FORMAT,
            game: "demo".into(),
            options: serde_json::json!({"size": 9}),
            seed: 7,
            position: None,
            players: vec![PlayerRecord {
                name: "Ann".into(),
                kind: "human".into(),
            }],
            moves: vec!["a1".into(), "resign 2".into()],
            result: Some(ResultRecord {
                winner: Some(1),
                reason: "seat 2 resigned".into(),
            }),
        }
    }

    #[test]
    fn json_round_trip_and_atomic_save() {
        // Removed when the test ends, also when it fails.
        let dir = tempfile::TempDir::with_prefix("ludus-record-").unwrap();
        let path = dir.path().join("game.json");
        let record = sample();
        record.save(&path).unwrap();
        assert_eq!(GameRecord::load(&path).unwrap(), record);
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn damaged_files_are_refused() {
        assert!(matches!(
            GameRecord::from_json("{not json"),
            Err(RecordError::Json(_))
        ));
        let mut record = sample();
        record.format = 99;
        assert!(matches!(
            GameRecord::from_json(&record.to_json()),
            Err(RecordError::Version(99, 1))
        ));
    }

    #[test]
    fn json_errors_say_where_in_plain_words() {
        let error = GameRecord::from_json(r#"{"format":-1,"game":"x","options":{},"moves":[]}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "not a ludus game record: at line 1 column 12: expected a whole number of 0 or more"
        );
        let error = GameRecord::from_json(r#"{"format":1,"game":"x","options":{}}"#)
            .unwrap_err()
            .to_string();
        assert!(error.ends_with("missing field 'moves'"), "{error}");
        let error = GameRecord::from_json("{").unwrap_err().to_string();
        assert_eq!(
            error,
            "not a ludus game record: not valid JSON at line 1 column 1"
        );
    }

    #[test]
    fn text_record_errors_name_the_line() {
        let error = RecordError::Text {
            line: 7,
            reason: "illegal move 'z9'".into(),
        };
        assert_eq!(error.to_string(), "record line 7: illegal move 'z9'");
    }

    #[test]
    fn saving_into_a_missing_directory_fails_cleanly() {
        let path = Path::new("/nonexistent-ludus-dir/game.json");
        assert!(matches!(sample().save(path), Err(RecordError::Io { .. })));
    }
}
