//! Error types of the contract: bad moves, bad positions, bad options and bad records.
//!
//! Every `Display` is one lowercase line that says what was wrong and what was expected.

use std::path::PathBuf;

use thiserror::Error;

/// A serde message about a record's structure in our words: "invalid value: integer `-1`,
/// expected u32" becomes "expected a whole number of 0 or more"; Rust type names and
/// backticks do not reach people. Options never come here: their descriptions check them.
pub(crate) fn plain_serde_message(message: &str) -> String {
    let message = message.split(" at line ").next().unwrap_or(message);
    let Some((_, expected)) = message.rsplit_once("expected ") else {
        return message.replace('`', "'");
    };
    let expected = expected.replace('`', "");
    let expected = match expected.as_str() {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number of 0 or more",
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "string or map" | "a string" => "text",
        "a sequence" => "a list",
        "a map" | "struct GameRecord" => "an object",
        other => other,
    };
    format!("expected {expected}")
}

/// A move (a decision or a whole turn) that cannot be played.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum MoveError {
    /// The text is not notation of this game at all.
    #[error("bad move '{input}': expected {expected}")]
    Syntax {
        /// The text as typed.
        input: String,
        /// What would have been understood, e.g. "a square a1..d4 or a direction N/E/S/W".
        expected: String,
    },
    /// Well-formed notation that the rules forbid here.
    #[error("illegal move '{input}': {reason}")]
    Illegal {
        /// The text as typed.
        input: String,
        /// Why the rules refuse it.
        reason: String,
    },
    /// The game has ended; nothing more can be played.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// A whole-turn text whose decision number `index` (1-based) failed.
    // The cause is part of the message, so it is not also a `source()` (which would print it
    // twice in an error chain); a cause that already quotes the whole text is said alone.
    #[error("{}", in_turn(.turn, *.index, .cause))]
    InTurn {
        /// The whole text.
        turn: String,
        /// Which decision failed, 1-based.
        index: usize,
        /// Why it failed.
        cause: Box<MoveError>,
    },
}

/// `InTurn`'s message: which decision of `turn` failed and why, naming the move once when the
/// cause already quotes the whole text (a one-word turn): "bad move 'a1:NEX' at decision 4:
/// expected …", and only the cause for a word's first decision.
fn in_turn(turn: &str, index: usize, cause: &MoveError) -> String {
    let at = if index == 1 {
        String::new()
    } else {
        format!(" at decision {index}")
    };
    match cause {
        MoveError::Syntax { input, expected } if input == turn => {
            format!("bad move '{input}'{at}: expected {expected}")
        }
        MoveError::Illegal { input, reason } if input == turn => {
            format!("illegal move '{input}'{at}: {reason}")
        }
        _ => format!("in '{turn}', decision {index}: {cause}"),
    }
}

impl MoveError {
    /// A syntax error for `input`.
    pub fn syntax(input: &str, expected: impl Into<String>) -> MoveError {
        MoveError::Syntax {
            input: input.to_string(),
            expected: expected.into(),
        }
    }

    /// An illegal-move error for `input`.
    pub fn illegal(input: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            input: input.to_string(),
            reason: reason.into(),
        }
    }
}

/// A position string that does not describe a legal position.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("bad position '{input}': {reason}")]
pub struct PositionError {
    /// The text as given.
    pub input: String,
    /// What is wrong and what was expected.
    pub reason: String,
}

impl PositionError {
    /// A position error for `input`.
    pub fn new(input: &str, reason: impl Into<String>) -> PositionError {
        PositionError {
            input: input.to_string(),
            reason: reason.into(),
        }
    }
}

/// Rules options that cannot be used.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum OptionsError {
    /// `key=value` text without the `=`.
    #[error("bad option '{0}': expected key=value")]
    Syntax(String),
    /// An option this game does not have.
    #[error("unknown option '{name}' for {game}: expected one of {known}")]
    Unknown {
        /// The game's id.
        game: String,
        /// The name given.
        name: String,
        /// The game's options, comma-separated.
        known: String,
    },
    /// A value the option does not accept.
    #[error("bad value '{value}' for option '{name}': {reason}")]
    BadValue {
        /// The option's name.
        name: String,
        /// The value given.
        value: String,
        /// What the option accepts.
        reason: String,
    },
    /// Values every description accepts that the game's options type cannot hold: a fault of
    /// the game's descriptions, which [`crate::testkit::check_option_descriptions`] finds.
    #[error("the game's options do not fit their descriptions: {0}")]
    Mismatch(String),
}

/// A game record that cannot be loaded or saved.
#[derive(Debug, Error)]
pub enum RecordError {
    /// The file cannot be read or written.
    #[error("cannot access '{path}': {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason (not a `source`, so that error chains print it once).
        reason: std::io::Error,
    },
    /// The file is not a Ludus record in JSON.
    #[error("not a ludus game record: {0}")]
    Json(String),
    /// A record of a format this version does not read.
    #[error("record format {0} is not supported: expected format {1}")]
    Version(u32, u32),
    /// The record is for another game than the one asked for.
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    /// The record's options are not valid for its game.
    #[error("record options: {0}")]
    Options(#[from] OptionsError),
    /// The record's starting position is not valid.
    #[error("record start position: {0}")]
    Position(#[from] PositionError),
    /// Move number `index` (1-based) of the record cannot be replayed.
    #[error("record move {index} '{entry}': {source}")]
    Move {
        /// 1-based index in the record's move list.
        index: usize,
        /// The entry as stored.
        entry: String,
        /// Why the rules refused it.
        source: MoveError,
    },
    /// A plain-text record (a game's own record format) that cannot be read, with the 1-based
    /// line that is wrong.
    #[error("record line {line}: {reason}")]
    Text {
        /// The 1-based line number in the text.
        line: usize,
        /// What is wrong there and what was expected.
        reason: String,
    },
    /// Replaying the moves does not give the result the record claims.
    #[error("record result '{claimed}' does not match the replayed game ('{replayed}')")]
    ResultMismatch {
        /// What the file says.
        claimed: String,
        /// What the rules say.
        replayed: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_error_says_the_move_once() {
        let cause = |input: &str| Box::new(MoveError::illegal(input, "no piece there"));
        let one = MoveError::InTurn {
            turn: "a1-a9".into(),
            index: 1,
            cause: cause("a1-a9"),
        };
        assert_eq!(one.to_string(), "illegal move 'a1-a9': no piece there");
        let fourth = MoveError::InTurn {
            turn: "a1:NEX".into(),
            index: 4,
            cause: Box::new(MoveError::syntax("a1:NEX", "a direction N/E/S/W")),
        };
        assert_eq!(
            fourth.to_string(),
            "bad move 'a1:NEX' at decision 4: expected a direction N/E/S/W"
        );
        let two = MoveError::InTurn {
            turn: "a1-a2 b1-b9".into(),
            index: 2,
            cause: cause("b1-b9"),
        };
        assert_eq!(
            two.to_string(),
            "in 'a1-a2 b1-b9', decision 2: illegal move 'b1-b9': no piece there"
        );
    }
}
