//! Two-step Nim's text record, in the `Key: value` format of Qawale and Yoxii: the pile is
//! written as `Pile: 11`, a turn a line (`2+1`).
//!
//! ```text
//! Game: Two-step Nim
//! Pile: 4
//! Result: S+
//!
//! 2+1
//! 1
//! ```

use crate::records::{no_detail, FormatNames, HeaderOption, KeyValueFormat};

/// Two-step Nim's record format, as the registry lists it.
pub(crate) static RECORD: KeyValueFormat = KeyValueFormat {
    id: "nim",
    names: FormatNames {
        format: "Two-step Nim text record (Key: value header, one turn a line)",
        game: "Two-step Nim",
        aliases: &["two-step nim", "nim"],
        opening: "a 'Game: Two-step Nim' line",
    },
    options: &[HeaderOption {
        key: "Pile",
        option: "pile",
        words: &[],
    }],
    seed_when: None,
    result_detail: |_, _| String::new(),
    check_detail: no_detail,
};
