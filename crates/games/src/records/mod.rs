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
//! Each game's folder holds its format (`<game>/record.rs`, a [`TextFormat`] that the registry
//! lists) and documents it with the choices made where the spec is silent. This folder holds
//! what formats share: the line reader and quoting (`common.rs`), the `Key: value` format of
//! Qawale and Yoxii (`keyvalue.rs`), the `[Key "value"]` tag header of Replica and Qilin
//! (`tags.rs`) and the replay that writing and reading go through (`replay.rs`).
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
//!   format names seats (`resign L`, `resign Black`, `resign west`). A seat whose clock ran
//!   out (`flag N`) is written the same way (`flag L`), and a draw the seats agreed on
//!   (`draw agreed`) as those two words, in every format.
//! * Values that would not read back the same (a name with a `#` or surrounding spaces) are
//!   written in double quotes with `\"` and `\\` escapes.
//!
//! [`load_record_file`] and [`save_record_file`] pick JSON or text: by content when loading
//! (JSON starts with `{`), by extension when saving (`.txt` is text).

mod common;
mod keyvalue;
mod replay;
mod tags;

use std::path::Path;

use ludus_engine::record::write_atomically;
use ludus_engine::{GameRecord, RecordError};

pub(crate) use common::{
    error, parse_value, quote_if_needed, read_lines, seat_from_word, seat_letter, Comments, Line,
};
use common::{game_named, numbered_lines, parse_tags, same_key, strip_comment};
pub(crate) use keyvalue::{no_detail, HeaderOption, KeyValueFormat};
pub(crate) use replay::{
    option_value, other_options, players_of, replay, Claimed, Ending, Reader, Setup, TurnToWrite,
};
pub(crate) use tags::{tag_header, TagFormat};

use crate::registry::ENTRIES;

/// How a record format names itself and its game: for recognising records and for messages.
#[derive(Debug)]
pub struct FormatNames {
    /// What the format is, for people (`Qawale text record (…; spec qawale.md §6)`).
    pub format: &'static str,
    /// The game's name as the header writes it (`Qilin XiaSanZi`).
    pub game: &'static str,
    /// The names a header may give for the game, lower case (`qilin`, `qilin chess`).
    pub aliases: &'static [&'static str],
    /// How a record in this format starts, for people (`a 'Game: Qawale' line`).
    pub opening: &'static str,
}

/// A game's plain-text record format, as its rules spec describes it: how to recognise a
/// record, read it and write it. Each game's folder has one; the registry lists them.
pub trait TextFormat: Sync {
    /// How the format names itself and its game.
    fn names(&self) -> &FormatNames;
    /// Reads a record; every move is replayed, errors are [`RecordError::Text`] with the line.
    fn read(&self, text: &str) -> Result<GameRecord, RecordError>;
    /// The record as text; the record is replayed first and refused as
    /// [`crate::load_record`] refuses it.
    fn write(&self, record: &GameRecord) -> Result<String, RecordError>;

    /// What the format is, for people.
    fn name(&self) -> &'static str {
        self.names().format
    }
    /// The file extension a record in this format is saved under, without the dot.
    fn extension(&self) -> &'static str {
        "txt"
    }
    /// Whether a header that names the game `name` (a `Game:` line, a `[Game "…"]` tag),
    /// compared ignoring case, runs of spaces and a final `!`, is this format's.
    fn recognises(&self, name: &str) -> bool {
        game_named(name, self.names().aliases)
    }
    /// Whether the first line alone marks a record of this format (`splut 1`).
    fn opens(&self, _first_line: &str) -> bool {
        false
    }
}

/// The record in its game's plain-text format (the game is `record.game`).
///
/// The record is replayed first: an unknown game, bad options or position, or a move the rules
/// refuse is the same error [`crate::load_record`] gives.
pub fn record_to_text(record: &GameRecord) -> Result<String, RecordError> {
    ENTRIES
        .iter()
        .find(|entry| entry.info.id.eq_ignore_ascii_case(&record.game))
        .ok_or_else(|| RecordError::UnknownGame(record.game.clone()))?
        .record
        .write(record)
}

/// Reads a record in any game's plain-text format; the header tells which game it is.
///
/// Every move is replayed while reading; errors are [`RecordError::Text`] with the line.
pub fn record_from_text(text: &str) -> Result<GameRecord, RecordError> {
    detect(text)?.read(text)
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

/// Writes a record file atomically: the game's text format when the extension is the
/// format's (`.txt`, any case), JSON otherwise.
pub fn save_record_file(path: &Path, record: &GameRecord) -> Result<(), RecordError> {
    let text_extension = ENTRIES
        .iter()
        .find(|entry| entry.info.id.eq_ignore_ascii_case(&record.game))
        .map_or("txt", |entry| entry.record.extension());
    let is_text = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case(text_extension));
    if is_text {
        write_atomically(path, record_to_text(record)?.as_bytes())
    } else {
        record.save(path)
    }
}

fn formats() -> impl Iterator<Item = &'static dyn TextFormat> {
    ENTRIES.iter().map(|entry| entry.record)
}

/// The format of a text record, told by its header.
fn detect(text: &str) -> Result<&'static dyn TextFormat, RecordError> {
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
                    return format_named(n, &value);
                }
            }
        }
        return Err(not_a_record(first_line));
    }
    if let Some(format) = formats().find(|format| format.opens(first)) {
        return Ok(format);
    }
    // Key: value formats: the Game line in the header (up to the first blank line).
    for (n, line) in numbered_lines(text).skip(first_line - 1) {
        if line.trim().is_empty() {
            break;
        }
        if let Some((key, value)) = line.split_once(':') {
            if same_key(key.trim(), "Game") {
                let value = strip_comment(value, Comments::Anywhere).trim();
                return format_named(n, value.trim_matches('"'));
            }
        }
    }
    Err(not_a_record(first_line))
}

/// The format whose game a header on `line` names.
fn format_named(line: usize, name: &str) -> Result<&'static dyn TextFormat, RecordError> {
    formats()
        .find(|format| format.recognises(name))
        .ok_or_else(|| {
            let names: Vec<&str> = formats().map(|format| format.names().game).collect();
            error(
                line,
                format!("unknown game '{name}': expected {}", or_list(&names)),
            )
        })
}

fn not_a_record(line: usize) -> RecordError {
    let openings: Vec<&str> = formats().map(|format| format.names().opening).collect();
    error(
        line,
        format!("cannot tell the game: expected {}", or_list(&openings)),
    )
}

/// `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
