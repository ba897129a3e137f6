//! Plain-text game records: each game's own record format from its rules spec, next to the
//! JSON records of [`ludus_engine::record`].
//!
//! | Game    | Spec section       | Looks like                                              |
//! |---------|--------------------|---------------------------------------------------------|
//! | Qawale  | `qawale.md` §6     | `Game: Qawale`, `First: D`, … blank line, `a1:NEN`      |
//! | Yoxii   | `yoxii.md` §6      | `Game: Yoxii`, `Result: W+ 17-12`, … blank, `d5 3@d4`   |
//! | Replica | `replica.md` §6    | `[Game "Replica"]` tags, then `1. b4-c5 g5-f4 2. a1*`    |
//! | Qilin   | `qilin.md` §6      | `[Game "Qilin XiaSanZi"]` tags, then `13. R a7 xd1 xc3` |
//! | Splut!  | `splut.md` §8.2    | `splut 1`, `size 9`, `seats south north`, `2 Sf8-f7 …`  |
//!
//! Each game's module documents its format and the choices made where the spec is silent.
//! Common to all five:
//!
//! * **Writing** ([`record_to_text`]) replays the record through the rules first (so a record
//!   that does not replay is refused, as [`crate::load_record`] refuses it) and writes the
//!   turns in canonical turn notation, with the turn numbers and side letters the replay
//!   gives.
//! * **Reading** ([`record_from_text`]) tells the game from the header (a `Game:` line, a
//!   `[Game "…"]` tag, or `splut 1`), builds the game from the header's options and start
//!   position, and plays each move line at once, so that every error — a bad header value, an
//!   illegal move, a wrong turn number, a line holding more (or less) than one turn, a result
//!   the moves do not give — is a [`RecordError::Text`] naming the 1-based line.
//! * **What round-trips:** write → read gives back the record's game, options (all of them,
//!   defaults filled in), start position, players' names and kinds, moves and result winner.
//!   The result's reason is recomputed by the replay. The seed is carried only where it
//!   matters (Qawale with `First: random`); elsewhere a read record has seed 0, which those
//!   games ignore. A record read from text has one entry per seat in `players`.
//! * **Resignations** (`resign N` in JSON) are lines or tokens naming the seat the way the
//!   format names seats (`resign L`, `resign Black`, `resign west`).
//! * Values that would not read back the same (a name with a `#` or surrounding spaces) are
//!   written in double quotes with `\"` and `\\` escapes.
//!
//! [`load_record_file`] and [`save_record_file`] pick JSON or text: by content when loading
//! (JSON starts with `{`), by extension when saving (`.txt` is text).

mod common;
mod keyvalue;
mod qawale;
mod qilin;
mod replay;
mod replica;
mod splut;
mod yoxii;

use std::path::Path;

use ludus_engine::record::write_atomically;
use ludus_engine::{GameRecord, RecordError};

use common::{error, game_id, numbered_lines, parse_tags, same_key, strip_comment, Comments};

/// The record in its game's plain-text format (the game is `record.game`).
///
/// The record is replayed first: an unknown game, bad options or position, or a move the rules
/// refuse is the same error [`crate::load_record`] gives.
pub fn record_to_text(record: &GameRecord) -> Result<String, RecordError> {
    match record.game.to_ascii_lowercase().as_str() {
        "qawale" => qawale::write(record),
        "yoxii" => yoxii::write(record),
        "replica" => replica::write(record),
        "qilin" => qilin::write(record),
        "splut" => splut::write(record),
        _ => Err(RecordError::UnknownGame(record.game.clone())),
    }
}

/// Reads a record in any game's plain-text format; the header tells which game it is.
///
/// Every move is replayed while reading; errors are [`RecordError::Text`] with the line.
pub fn record_from_text(text: &str) -> Result<GameRecord, RecordError> {
    match detect(text)? {
        "qawale" => qawale::read(text),
        "yoxii" => yoxii::read(text),
        "replica" => replica::read(text),
        "qilin" => qilin::read(text),
        _ => splut::read(text),
    }
}

/// Reads a record file: JSON when the content starts with `{` (after white space), otherwise
/// the game's text format.
pub fn load_record_file(path: &Path) -> Result<GameRecord, RecordError> {
    let text = ludus_engine::read_record_text(path)?;
    let content = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if content.trim_start().starts_with('{') {
        GameRecord::from_json(content)
    } else {
        record_from_text(content)
    }
}

/// Writes a record file atomically: the game's text format when the extension is `.txt` (any
/// case), JSON otherwise.
pub fn save_record_file(path: &Path, record: &GameRecord) -> Result<(), RecordError> {
    let is_text = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("txt"));
    if is_text {
        write_atomically(path, record_to_text(record)?.as_bytes())
    } else {
        record.save(path)
    }
}

const NOT_A_RECORD: &str = "cannot tell the game: expected a 'Game: Qawale' or 'Game: Yoxii' \
                            line, a [Game \"Replica\"] or [Game \"Qilin XiaSanZi\"] tag, or \
                            'splut 1'";

/// The registry id of the game a text record is for.
fn detect(text: &str) -> Result<&'static str, RecordError> {
    let mut lines = numbered_lines(text).filter(|(_, line)| {
        let line = strip_comment(line, Comments::AfterSpace).trim();
        !line.is_empty()
    });
    let Some((first_line, first)) = lines.next() else {
        return Err(error(1, "an empty record"));
    };
    let first = first.trim();
    if first.starts_with('[') {
        // Tag formats: the Game tag among the leading tag lines.
        let tag_lines = std::iter::once((first_line, first))
            .chain(lines.map(|(n, line)| (n, line.trim())))
            .take_while(|(_, line)| line.starts_with('['));
        for (n, line) in tag_lines {
            for (key, value) in parse_tags(line, n)? {
                if same_key(&key, "Game") {
                    return game_id(&value).ok_or_else(|| unknown_game(n, &value));
                }
            }
        }
        return Err(error(first_line, NOT_A_RECORD));
    }
    if first
        .split_whitespace()
        .next()
        .is_some_and(|word| word.eq_ignore_ascii_case("splut"))
    {
        return Ok("splut");
    }
    // Key: value formats: the Game line in the header (up to the first blank line).
    for (n, line) in numbered_lines(text).skip(first_line - 1) {
        if line.trim().is_empty() {
            break;
        }
        if let Some((key, value)) = line.split_once(':') {
            if same_key(key.trim(), "Game") {
                let value = strip_comment(value, Comments::Anywhere).trim();
                let value = value.trim_matches('"');
                return game_id(value).ok_or_else(|| unknown_game(n, value));
            }
        }
    }
    Err(error(first_line, NOT_A_RECORD))
}

fn unknown_game(line: usize, name: &str) -> RecordError {
    error(
        line,
        format!("unknown game '{name}': expected Qawale, Yoxii, Replica, Qilin XiaSanZi or Splut!"),
    )
}
