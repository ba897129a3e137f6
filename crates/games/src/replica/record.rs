//! Replica's text record (spec `replica.md` §6 "Game record (ours)"), in the manner of PGN.
//!
//! ```text
//! [Game "Replica"]
//! [White "Ann"]
//! [Black "Black"]
//! [BlackKind "ai:greedy"]
//! [Sight "forward3"]
//! [Result "1-0"]
//!
//! 1. b4-c5 g5-f4 2. a1* f6xe5 3. c5-d6 resign Black
//! ```
//!
//! * The header is `[Key "value"]` tags (keys ignore case; several tags may share a line; the
//!   tag format it shares with Qilin, `records/tags.rs`), then the movetext: numbered move pairs `1. b4-c5 g5-f4 2. a1* …` in canonical notation,
//!   wrapped at 79 columns when written, read across any line breaks. `#` starts a comment.
//! * Always written: `Game`, `White`, `Black` (the players' names; the seat names when the
//!   record has none), `Sight` (the option `sight`) and `Result` (`1-0`, `0-1`, or `*` for a
//!   game not finished). `[Result "1/2-1/2"]` is read as a draw (Replica has none, so the
//!   replay refuses it).
//! * **Our additions where §6 is silent:**
//!   * `WhiteKind` / `BlackKind`: the player's kind when it is not `human` (`ai:greedy`).
//!   * `Position`: the **start** position (RPN), for a game that did not start from the usual
//!     setup, like PGN's `FEN` tag. The moves are numbered from 1 whatever the position; when
//!     Black moves first the movetext starts `1... g5-f4`.
//!   * A resignation is written in the movetext as `resign White` or `resign Black` (a seat
//!     letter or number is read too); it is not a move, so it takes no move number.
//!   * A trailing PGN result mark (`1-0`) is accepted and must agree with the `Result` tag.
//!   * Any option without its own tag would go in `[Options "key=value,…"]` (none today);
//!     PGN's informative tags `Event`, `Site`, `Date`, `Round` and `Annotator` are read and
//!     ignored. Other tags are refused, so that a misspelt option is not silently dropped.
//! * Move numbers are optional on input; when present they must be the right ones. Every
//!   move is replayed as it is read: an error names the line of the bad token.

use ludus_engine::{AnyGame, GameRecord, RecordError, Seat};

use crate::records::{
    error, option_value, other_options, replay, seat_from_word, tag_header, Claimed, Ending,
    FormatNames, Line, Reader, TagFormat, TurnToWrite,
};

const WRAP: usize = 79;

/// Replica's record format, as the registry lists it.
pub(crate) static RECORD: TagFormat = TagFormat {
    id: "replica",
    names: FormatNames {
        format: "Replica text record (PGN-like tags and numbered moves; spec replica.md §6)",
        game: "Replica",
        aliases: &["replica"],
        opening: "a [Game \"Replica\"] tag",
    },
    option_tags: &[("Sight", "sight")],
    result: result_mark,
    results: "1-0, 0-1 or * (not finished)",
    read_moves,
    write,
};

/// The record as Replica's text format.
fn write(record: &GameRecord) -> Result<String, RecordError> {
    let replayed = replay(record, |_| ())?;
    let (start, end) = (&replayed.start, &replayed.end);
    let mut tags = vec![("Sight", option_value(start, "sight"))];
    let others = other_options(start, &["sight"]);
    if !others.is_empty() {
        tags.push(("Options", others.join(",")));
    }
    let result = match end.outcome().map(|o| o.winner()) {
        None => "*",
        Some(Some(Seat::FIRST)) => "1-0",
        Some(Some(_)) => "0-1",
        Some(None) => "1/2-1/2",
    };
    let mut lines = tag_header("Replica", record, start, &tags, result);
    lines.extend(wrap(&movetext(&replayed.turns, end)));
    Ok(lines.join("\n") + "\n")
}

/// The movetext's units: numbered moves, Black's replies, resignations.
fn movetext(turns: &[TurnToWrite<()>], end: &AnyGame) -> Vec<String> {
    let mut units = Vec::new();
    let mut number = 1;
    let mut white_moved = false;
    for turn in turns {
        if let Some(ending) = turn.ending {
            units.push(ending.text(end.seat_name(turn.seat)));
        } else if turn.seat == Seat::FIRST {
            units.push(format!("{number}. {}", turn.text));
            white_moved = true;
        } else {
            if white_moved {
                units.push(turn.text.clone());
            } else {
                units.push(format!("{number}... {}", turn.text));
            }
            number += 1;
            white_moved = false;
        }
    }
    units
}

/// `units` joined by spaces in lines of at most [`WRAP`] columns.
fn wrap(units: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > WRAP {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(unit);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Plays the movetext: tokens across any line breaks, move numbers checked when given.
fn read_moves(
    reader: &mut Reader,
    lines: &[Line],
    claim: &mut Option<(Claimed, usize)>,
) -> Result<(), RecordError> {
    let mut number: u64 = 1;
    let mut tokens = lines
        .iter()
        .flat_map(|line| line.text.split_whitespace().map(|token| (line.n, token)))
        .peekable();
    while let Some((n, token)) = tokens.next() {
        let token = match split_move_number(token) {
            Some((given, black, rest)) => {
                check_move_number(reader.game(), number, given, black, n)?;
                if rest.is_empty() {
                    continue;
                }
                rest
            }
            None => token,
        };
        if let Some(claimed) = result_mark(token) {
            if tokens.peek().is_some() {
                return Err(error(
                    n,
                    format!("'{token}' ends the movetext: nothing may follow it"),
                ));
            }
            if let Some((tagged, _)) = claim {
                if *tagged != claimed {
                    return Err(error(n, format!("'{token}' disagrees with the Result tag")));
                }
            }
            *claim = Some((claimed, n));
        } else if let Some(ending) = Ending::from_word(token) {
            let seat = match (ending, tokens.next()) {
                (Ending::AgreedDraw, Some((_, word))) if word.eq_ignore_ascii_case("agreed") => {
                    Some(Seat::FIRST)
                }
                (Ending::AgreedDraw, _) => None,
                (_, word) => word.and_then(|(_, word)| seat_from_word(reader.game(), word)),
            };
            let seat = seat.ok_or_else(|| {
                error(
                    n,
                    "expected 'resign White', 'flag Black' (a side) or 'draw agreed'",
                )
            })?;
            reader.end(n, ending, seat)?;
        } else {
            let mover = reader.game().to_move();
            reader.play(n, token)?;
            if mover == Some(Seat::SECOND) {
                number += 1;
            }
        }
    }
    Ok(())
}

/// `1-0`, `0-1`, `1/2-1/2`, `*`.
fn result_mark(token: &str) -> Option<Claimed> {
    match token {
        "1-0" => Some(Claimed::Win(Seat::FIRST)),
        "0-1" => Some(Claimed::Win(Seat::SECOND)),
        "1/2-1/2" => Some(Claimed::Draw),
        "*" => Some(Claimed::InProgress),
        _ => None,
    }
}

/// `12.` (White's move 12) or `12...` (Black's), possibly glued to the move: the number,
/// whether it is Black's, and the rest of the token.
fn split_move_number(token: &str) -> Option<(&str, bool, &str)> {
    let digits = token.find(|c: char| !c.is_ascii_digit())?;
    if digits == 0 {
        return None;
    }
    let rest = &token[digits..];
    let (black, rest) = if let Some(rest) = rest.strip_prefix("...") {
        (true, rest)
    } else {
        (false, rest.strip_prefix('.')?)
    };
    Some((&token[..digits], black, rest))
}

fn check_move_number(
    game: &AnyGame,
    expected: u64,
    given: &str,
    black: bool,
    n: usize,
) -> Result<(), RecordError> {
    let dots = if black { "..." } else { "." };
    if given.parse::<u64>().ok() != Some(expected) {
        return Err(error(
            n,
            format!("move number {given}{dots}: expected {expected}{dots}"),
        ));
    }
    match game.to_move() {
        Some(seat) if (seat == Seat::SECOND) != black => {
            let (side, form) = if black {
                ("White", format!("{expected}."))
            } else {
                ("Black", format!("{expected}..."))
            };
            Err(error(
                n,
                format!("{side} is to move here: number the move {form}"),
            ))
        }
        _ => Ok(()),
    }
}
