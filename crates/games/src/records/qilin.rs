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
//! * The header is `[Key "value"]` tags (keys ignore case; several tags may share a line),
//!   then one turn per line: `<n>. <R|B> <action> [x<pt> …]`. `#` starts a comment.
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

use super::common::{
    error, game_id, numbered_lines, parse_tags, same_key, seat_from_word, seat_letter,
    strip_comment, Comments,
};
use super::replay::{other_options, replay, tag_header, Claimed, Reader, Setup};
use crate::qilin::{Qilin, Stage};

const IGNORED_TAGS: [&str; 5] = ["Event", "Site", "Date", "Round", "Annotator"];

fn in_transition(game: &AnyGame) -> bool {
    game.session::<Qilin>()
        .is_some_and(|s| s.state().stage() == Stage::Transition)
}

/// The record as Qilin's text format.
pub(super) fn write(record: &GameRecord) -> Result<String, RecordError> {
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
        lines.push(if turn.resign {
            format!("resign {letter}")
        } else if turn.before {
            format!("T. {letter} {}", turn.text)
        } else {
            number += 1;
            format!("{number}. {letter} {}", turn.text)
        });
    }
    Ok(lines.join("\n") + "\n")
}

/// Reads Qilin's text format.
pub(super) fn read(text: &str) -> Result<GameRecord, RecordError> {
    let mut setup = Setup::default();
    let mut claim: Option<(Claimed, usize)> = None;
    let mut seen: Vec<String> = Vec::new();
    let mut reader: Option<Reader> = None;
    let mut number: u64 = 0;
    for (n, raw) in numbered_lines(text) {
        let trimmed = raw.trim();
        if reader.is_none() && trimmed.starts_with('[') {
            for (key, value) in parse_tags(trimmed, n)? {
                if seen.iter().any(|k| same_key(k, &key)) {
                    return Err(error(n, format!("the tag '{key}' is given twice")));
                }
                seen.push(key.clone());
                header_tag(&mut setup, &mut claim, &key, value, n)?;
            }
            continue;
        }
        let line = strip_comment(raw, Comments::Anywhere).trim();
        if line.is_empty() {
            continue;
        }
        let reader = match &mut reader {
            Some(reader) => reader,
            None => reader.insert(start(&setup)?),
        };
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        if first.eq_ignore_ascii_case("resign") {
            let seat = words
                .next()
                .and_then(|word| seat_from_word(reader.game(), word))
                .filter(|_| words.next().is_none())
                .ok_or_else(|| error(n, "expected 'resign R' or 'resign B'"))?;
            reader.resign(n, seat)?;
            continue;
        }
        reader.check_not_over(n)?;
        let transition = in_transition(reader.game());
        let label = first.strip_suffix('.').ok_or_else(|| {
            error(
                n,
                "expected a turn like '13. R a7 xd1' or 'T. B xa7', or 'resign R'",
            )
        })?;
        if transition {
            if !label.eq_ignore_ascii_case("T") {
                return Err(error(n, "this is a transition removal: number it 'T.'"));
            }
        } else {
            number += 1;
            if label.eq_ignore_ascii_case("T") {
                return Err(error(
                    n,
                    format!("not a transition turn: expected '{number}.'"),
                ));
            }
            if label.parse::<u64>().ok() != Some(number) {
                return Err(error(
                    n,
                    format!("turn number '{first}': expected '{number}.'"),
                ));
            }
        }
        let to_move = reader.game().to_move();
        let side = words
            .next()
            .and_then(|word| seat_from_word(reader.game(), word));
        if side.is_none() || side != to_move {
            let expected = to_move.map_or("", |seat| seat_letter(reader.game(), seat));
            return Err(error(
                n,
                format!("expected the side to act, {expected}, after '{first}'"),
            ));
        }
        let actions: Vec<&str> = words.collect();
        if actions.is_empty() {
            return Err(error(n, "expected the turn's actions after the side"));
        }
        reader.play(n, &actions.join(" "))?;
    }
    let reader = match reader {
        Some(reader) => reader,
        None => start(&setup)?,
    };
    reader.finish(claim)
}

fn start(setup: &Setup) -> Result<Reader, RecordError> {
    if setup.line == 0 {
        return Err(error(1, "missing the [Game \"Qilin XiaSanZi\"] tag"));
    }
    Reader::new("qilin", setup)
}

fn header_tag(
    setup: &mut Setup,
    claim: &mut Option<(Claimed, usize)>,
    key: &str,
    value: String,
    n: usize,
) -> Result<(), RecordError> {
    let seats = [(0, "Red"), (1, "Black")];
    if same_key(key, "Game") {
        if game_id(&value) != Some("qilin") {
            return Err(error(n, "expected [Game \"Qilin XiaSanZi\"]"));
        }
        setup.line = n;
    } else if let Some(&(seat, _)) = seats.iter().find(|(_, name)| same_key(key, name)) {
        setup.names.push((seat, value, n));
    } else if let Some(&(seat, _)) = seats
        .iter()
        .find(|(_, name)| same_key(key, &format!("{name}Kind")))
    {
        setup.kinds.push((seat, value, n));
    } else if same_key(key, "Options") {
        for pair in value.split(|c: char| c == ',' || c.is_whitespace()) {
            if !pair.is_empty() {
                setup.options.push((pair.to_string(), n));
            }
        }
    } else if same_key(key, "Position") {
        setup.position = Some((value, n));
    } else if same_key(key, "Result") {
        let claimed = match value.trim().to_ascii_lowercase().as_str() {
            "r" | "red" => Claimed::Win(Seat::FIRST),
            "b" | "black" => Claimed::Win(Seat::SECOND),
            "draw" | "=" => Claimed::Draw,
            "*" => Claimed::InProgress,
            _ => {
                return Err(error(
                    n,
                    format!("bad result '{value}': expected R, B, draw or * (not finished)"),
                ))
            }
        };
        *claim = Some((claimed, n));
    } else if !IGNORED_TAGS.iter().any(|t| same_key(key, t)) {
        return Err(error(
            n,
            format!(
                "unknown tag '{key}': expected Game, Red, Black, RedKind, BlackKind, Options, \
                 Position, Result (or Event, Site, Date, Round, Annotator)"
            ),
        ));
    }
    Ok(())
}
