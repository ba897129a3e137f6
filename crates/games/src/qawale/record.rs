//! Qawale's text record (spec `qawale.md` §6 "Game record"), in the `Key: value` format it
//! shares with Yoxii (`records/keyvalue.rs`).
//!
//! ```text
//! Game: Qawale
//! Dark: Ann
//! Light-kind: ai:greedy
//! First: D
//! Both-lines: mover_wins
//! Result: L+
//!
//! a1:NEN        # Dark's first turn
//! d4:SSS
//! resign D
//! ```
//!
//! * The header is `Key: value` lines (keys ignore case), then a blank line, then one turn per
//!   line in the canonical notation `a1:NEN` (the other input forms of §6 are accepted too and
//!   stored canonically). `#` starts a comment anywhere.
//! * `First: D | L | random` is the option `first_player`; `Both-lines: mover_wins | draw` is
//!   `both_lines`. Both are always written.
//! * **Our additions where §6 is silent:**
//!   * Players: `Dark: <name>` and `Light: <name>`, written only when the name is not the seat's
//!     own name; `Dark-kind: <kind>` when the player is not `human` (`ai:greedy`). Values are
//!     written in double quotes (with `\"` and `\\` escapes) when they would not read back the
//!     same otherwise (a `#`, surrounding spaces, an empty name).
//!   * `Seed: <n>` is written when `First: random`: the seed decides who starts.
//!   * `Position: <position string>` for a game that did not start from the usual setup.
//!   * A resignation is its own line, `resign D` or `resign L` (a seat number `resign 2` and a
//!     bare `resign`, for the seat to move, are read too).
//!   * The result is written only when the game is over; `Result: *` (not finished) is read.
//!   * Any option without its own key would go in `Options: key=value …` (none today).
//! * Reading replays every line: a bad move, a line with more than one turn, or a result the
//!   moves do not give is refused with its line number.

use crate::records::{no_detail, FormatNames, HeaderOption, KeyValueFormat};

/// Qawale's record format, as the registry lists it.
pub(crate) static RECORD: KeyValueFormat = KeyValueFormat {
    id: "qawale",
    names: FormatNames {
        format: "Qawale text record (Key: value header, one turn a line; spec qawale.md §6)",
        game: "Qawale",
        aliases: &["qawale"],
        opening: "a 'Game: Qawale' line",
    },
    options: &[
        HeaderOption {
            key: "First",
            option: "first_player",
            words: &[("D", "dark"), ("L", "light")],
        },
        HeaderOption {
            key: "Both-lines",
            option: "both_lines",
            words: &[],
        },
    ],
    seed_when: Some(("first_player", "random")),
    result_detail: |_, _| String::new(),
    check_detail: no_detail,
};
