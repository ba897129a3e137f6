//! Qilin Chess XiaSanZi's text record (spec `qilin.md` §6 "Record (ours)").
//!
//! ```text
//! [Game "Qilin XiaSanZi"]
//! [Red "Ann"]
//! [Black "Black"]
//! [BlackKind "ai:greedy"]
//! [Options "no_press_rule=remove_own,min_pieces=1,protect_lines=false,draw_no_removal_plies=100,draw_repetition=3"]
//! [Result "*"]
//!
//! 1. R d1
//! 2. B a1
//! 3. R g1 xa1
//! ...
//! T. R xa1
//! T. B xa7
//! 25. B a1-a4 xd2
//! resign R
//! ```
//!
//! * The header is `[Key "value"]` tags (keys ignore case; several tags may share a line; the
//!   tag format it shares with Replica, `records/tags.rs`), then one turn per line: `<n>. <R|B> <action> [x<pt> …]`. `#` starts a comment.
//! * `<n>` counts the turn lines from 1; the transition's own-piece removals are numbered
//!   `T.` and do not count, so the first movement turn after `24.` is `25.`. The side letter
//!   must be the side to act. Both are checked on reading.
//! * Always written: `Game`, `Red`, `Black` (the players' names; the seat names when the
//!   record has none), `Options` (every rules option, `key=value` joined by commas) and
//!   `Result` (`R`, `B`, `draw`, or `*` for a game not finished).
//! * **Our additions where §6 is silent:**
//!   * `RedKind` / `BlackKind`: the player's kind when it is not `human` (`ai:greedy`).
//!   * `Position`: the **start** position (QPN), for a game that did not start from the usual
//!     setup (like PGN's `FEN`); the turn lines are still numbered from 1.
//!   * A resignation is its own line, `resign R` or `resign B` (a seat number, or `Red` /
//!     `Black`, is read too); it takes no turn number.
//!   * Options missing from the `Options` tag take their defaults; PGN's informative tags
//!     `Event`, `Site`, `Date`, `Round` and `Annotator` are read and ignored; other tags are
//!     refused.

use ludus_engine::{AnyGame, GameRecord, RecordError, Seat};

use super::state::{Qilin, Stage};
use crate::records::{
    other_options, replay, seat_from_word, seat_letter, tag_header, Claimed, Ending, FormatNames,
    Line, Reader, TagFormat,
};

/// Qilin's record format, as the registry lists it.
pub(crate) static RECORD: TagFormat = TagFormat {
    id: "qilin",
    names: FormatNames {
        format: "Qilin text record (PGN-like tags, one numbered turn a line; spec qilin.md §6)",
        game: "Qilin XiaSanZi",
        aliases: &[
            "qilin",
            "qilin xiasanzi",
            "qilin chess xiasanzi",
            "qilin chess",
        ],
        opening: "a [Game \"Qilin XiaSanZi\"] tag",
    },
    option_tags: &[],
    result: result_mark,
    results: "R, B, draw or * (not finished)",
    read_moves,
    write,
};

fn in_transition(game: &AnyGame) -> bool {
    game.session::<Qilin>()
        .is_some_and(|s| s.state().stage() == Stage::Transition)
}

/// The record as Qilin's text format.
fn write(record: &GameRecord) -> Result<String, RecordError> {
    let replayed = replay(record, in_transition)?;
    let (start, end) = (&replayed.start, &replayed.end);
    let tags = [("Options", other_options(start, &[]).join(","))];
    let result = match end.outcome().map(|o| o.winner()) {
        None => "*",
        Some(Some(seat)) => seat_letter(end, seat),
        Some(None) => "draw",
    };
    let mut lines = tag_header("Qilin XiaSanZi", record, start, &tags, result);
    let mut number = 0;
    for turn in &replayed.turns {
        let letter = seat_letter(end, turn.seat);
        lines.push(if let Some(ending) = turn.ending {
            ending.text(letter)
        } else if turn.before {
            format!("T. {letter} {}", turn.text)
        } else {
            number += 1;
            format!("{number}. {letter} {}", turn.text)
        });
    }
    Ok(lines.join("\n") + "\n")
}

/// Plays the turn lines: `<n>. <R|B> <actions>`, `T. <R|B> x<pt>`, `resign <R|B>`.
fn read_moves(
    reader: &mut Reader,
    lines: &[Line],
    _claim: &mut Option<(Claimed, usize)>,
) -> Result<(), RecordError> {
    let mut number: u64 = 0;
    for line in lines {
        let mut words = line.text.split_whitespace();
        let first = words.next().unwrap_or_default();
        if let Some(ending) = Ending::from_word(first) {
            let seat = match (ending, words.next()) {
                (Ending::AgreedDraw, Some(word)) if word.eq_ignore_ascii_case("agreed") => {
                    Some(Seat::FIRST)
                }
                (Ending::AgreedDraw, _) => None,
                (_, word) => word.and_then(|word| seat_from_word(reader.game(), word)),
            };
            let seat = seat.filter(|_| words.next().is_none()).ok_or_else(|| {
                line.error("expected 'resign R', 'flag B' (a seat) or 'draw agreed'")
            })?;
            reader.end(line.n, ending, seat)?;
            continue;
        }
        reader.check_not_over(line.n)?;
        check_label(reader.game(), line, first, &mut number)?;
        let to_move = reader.game().to_move();
        let side = words
            .next()
            .and_then(|word| seat_from_word(reader.game(), word));
        if side.is_none() || side != to_move {
            let expected = to_move.map_or("", |seat| seat_letter(reader.game(), seat));
            return Err(line.error(format!(
                "expected the side to act, {expected}, after '{first}'"
            )));
        }
        let actions: Vec<&str> = words.collect();
        if actions.is_empty() {
            return Err(line.error("expected the turn's actions after the side"));
        }
        reader.play(line.n, &actions.join(" "))?;
    }
    Ok(())
}

/// Checks a turn's label: `T.` in the transition, else the next turn number (counted in
/// `number`).
fn check_label(
    game: &AnyGame,
    line: &Line,
    first: &str,
    number: &mut u64,
) -> Result<(), RecordError> {
    let label = first.strip_suffix('.').ok_or_else(|| {
        line.error("expected a turn like '13. R a7 xd1' or 'T. B xa7', or 'resign R'")
    })?;
    if in_transition(game) {
        if !label.eq_ignore_ascii_case("T") {
            return Err(line.error("this is a transition removal: number it 'T.'"));
        }
        return Ok(());
    }
    *number += 1;
    if label.eq_ignore_ascii_case("T") {
        return Err(line.error(format!("not a transition turn: expected '{number}.'")));
    }
    if label.parse::<u64>().ok() != Some(*number) {
        return Err(line.error(format!("turn number '{first}': expected '{number}.'")));
    }
    Ok(())
}

/// `R`, `B`, `draw`, `*` (and `Red`, `Black`, `=`).
fn result_mark(value: &str) -> Option<Claimed> {
    match value.trim().to_ascii_lowercase().as_str() {
        "r" | "red" => Some(Claimed::Win(Seat::FIRST)),
        "b" | "black" => Some(Claimed::Win(Seat::SECOND)),
        "draw" | "=" => Some(Claimed::Draw),
        "*" => Some(Claimed::InProgress),
        _ => None,
    }
}
