//! Yoxii's text record (spec `yoxii.md` §6 "Game record"), in the `Key: value` format it
//! shares with Qawale (`records/keyvalue.rs`).
//!
//! ```text
//! Game: Yoxii
//! White: Ann
//! Red-kind: ai:greedy
//! First: W
//! Tiebreak: adjacent_count
//! Result: W+ 17-12
//!
//! d5 3@d4       # the Totem to d5, a 3 on d4
//! c4 1@b4
//! ```
//!
//! * The header is `Key: value` lines (keys ignore case), then a blank line, then one turn per
//!   line in the canonical notation `d5 3@d4` (the comma form and the seed's value letters
//!   are read too and stored canonically). `#` starts a comment anywhere.
//! * `First: W | R` is the option `first_player`; `Tiebreak: adjacent_count | none` is
//!   `tiebreak`. Both are always written.
//! * `Result: W+ | R+ | =`, followed for a game that ended on the board by the points around
//!   the Totem, **White's first, then Red's**: `W+ 17-12`, `R+ 12-17`, `= 15-15` (on equal
//!   points the tiebreak decided). When the score is given it must match the final position.
//!   A game won by resignation has no score.
//! * **Our additions where §6 is silent:**
//!   * Players: `White: <name>` and `Red: <name>`, written only when the name is not the seat's
//!     own name; `White-kind: <kind>` when the player is not `human`. Values are quoted
//!     (`"…"`, with `\"` and `\\` escapes) when they would not read back the same otherwise.
//!   * `Position: "<position string>"` for a game that did not start from the usual setup
//!     (quoted, since the Totem `#` would start a comment).
//!   * A resignation is its own line, `resign W` or `resign R` (also `resign 2` or a bare
//!     `resign` for the seat to move).
//!   * The result is written only when the game is over; `Result: *` (not finished) is read.
//! * Reading replays every line: a bad move, a line with more than one turn, or a result or
//!   score the moves do not give is refused with its line number.

use ludus_engine::AnyGame;

use super::state::{Yoxii, RED, WHITE};
use crate::records::{FormatNames, HeaderOption, KeyValueFormat};

/// Yoxii's record format, as the registry lists it.
pub(crate) static RECORD: KeyValueFormat = KeyValueFormat {
    id: "yoxii",
    names: FormatNames {
        format: "Yoxii text record (Key: value header, one turn a line; spec yoxii.md §6)",
        game: "Yoxii",
        aliases: &["yoxii"],
        opening: "a 'Game: Yoxii' line",
    },
    options: &[
        HeaderOption {
            key: "First",
            option: "first_player",
            words: &[("W", "white"), ("R", "red")],
        },
        HeaderOption {
            key: "Tiebreak",
            option: "tiebreak",
            words: &[],
        },
    ],
    seed_when: None,
    result_detail,
    check_detail,
};

/// The points around the Totem, White's and Red's.
fn points(game: &AnyGame) -> Option<(u32, u32)> {
    let state = game.session::<Yoxii>()?.state();
    Some((state.around(WHITE).0, state.around(RED).0))
}

fn result_detail(game: &AnyGame, resigned: bool) -> String {
    match points(game) {
        Some((white, red)) if !resigned => format!(" {white}-{red}"),
        _ => String::new(),
    }
}

fn check_detail(game: &AnyGame, detail: &str) -> Result<(), String> {
    if detail.is_empty() {
        return Ok(());
    }
    let bad = || format!("bad score '{detail}': expected White's and Red's points, like 17-12");
    let (white, red) = detail.split_once(['-', '–']).ok_or_else(bad)?;
    let white: u32 = white.trim().parse().map_err(|_| bad())?;
    let red: u32 = red.trim().parse().map_err(|_| bad())?;
    match points(game) {
        Some(actual) if actual == (white, red) => Ok(()),
        Some((w, r)) => Err(format!(
            "the score says {white}-{red}, but the final position gives {w}-{r}"
        )),
        None => Err(bad()),
    }
}
