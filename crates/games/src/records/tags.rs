//! The `[Key "value"]` tag format that Replica and Qilin share, in the manner of PGN: a header
//! of tags (keys ignore case; several tags may share a line), then the moves.
//!
//! Each game describes its tags and its movetext in a [`TagFormat`]; this file reads and
//! writes the header: `Game`, the players (`[White "Ann"]`, `[WhiteKind "ai:greedy"]`), the
//! options with their own tag, `Options`, `Position` and `Result`. PGN's informative tags
//! `Event`, `Site`, `Date`, `Round` and `Annotator` are read and ignored; other tags are
//! refused, so that a misspelt option is not silently dropped.

use ludus_engine::{AnyGame, GameRecord, RecordError, Seat};

use super::common::{
    error, game_named, option_pairs, parse_tags, quote, read_lines, same_key, seat_key, Comments,
    Line,
};
use super::replay::{players_of, Claimed, Reader, Setup};
use super::{FormatNames, TextFormat};
use crate::new_game;

const IGNORED_TAGS: [&str; 5] = ["Event", "Site", "Date", "Round", "Annotator"];

/// Plays a record's move lines (after the header) and may set the claimed result, with its
/// line.
pub(crate) type ReadMoves =
    fn(&mut Reader, &[Line], &mut Option<(Claimed, usize)>) -> Result<(), RecordError>;

/// What differs between the games that use this format.
#[derive(Debug)]
pub(crate) struct TagFormat {
    /// The registry id.
    pub id: &'static str,
    /// The format's and the game's names (the game's as in the `Game` tag).
    pub names: FormatNames,
    /// Options with their own tag: the tag, the option (`Sight`, `sight`).
    pub option_tags: &'static [(&'static str, &'static str)],
    /// Reads the `Result` tag's value.
    pub result: fn(&str) -> Option<Claimed>,
    /// What the `Result` tag takes, for errors (`1-0, 0-1 or * (not finished)`).
    pub results: &'static str,
    /// Plays the move lines (after the header) and may set the claimed result.
    pub read_moves: ReadMoves,
    /// Writes a whole record.
    pub write: fn(&GameRecord) -> Result<String, RecordError>,
}

impl TextFormat for TagFormat {
    fn names(&self) -> &FormatNames {
        &self.names
    }
    fn read(&self, text: &str) -> Result<GameRecord, RecordError> {
        let template = new_game(self.id, &[], None, 0).map_err(|e| error(1, e.to_string()))?;
        let mut header = Header {
            format: self,
            template,
            setup: Setup::default(),
            claim: None,
            seen: Vec::new(),
        };
        let mut moves = Vec::new();
        for line in read_lines(text, Comments::Anywhere) {
            let trimmed = line.raw.trim();
            if moves.is_empty() && trimmed.starts_with('[') {
                for (key, value) in parse_tags(trimmed, line.n)? {
                    header.tag(line, &key, value)?;
                }
            } else if !line.text.is_empty() {
                moves.push(line);
            }
        }
        if header.setup.line == 0 {
            return Err(error(
                1,
                format!("missing the [Game \"{}\"] tag", self.names.game),
            ));
        }
        let mut reader = Reader::new(self.id, &header.setup)?;
        (self.read_moves)(&mut reader, &moves, &mut header.claim)?;
        reader.finish(header.claim)
    }
    fn write(&self, record: &GameRecord) -> Result<String, RecordError> {
        (self.write)(record)
    }
}

/// What the tags say so far.
struct Header<'f> {
    format: &'f TagFormat,
    template: AnyGame,
    setup: Setup,
    claim: Option<(Claimed, usize)>,
    seen: Vec<String>,
}

impl Header<'_> {
    /// Reads one tag of `line`.
    fn tag(&mut self, line: Line, key: &str, value: String) -> Result<(), RecordError> {
        let n = line.n;
        if self.seen.iter().any(|k| same_key(k, key)) {
            return Err(line.error(format!("the tag '{key}' is given twice")));
        }
        self.seen.push(key.to_string());
        if same_key(key, "Game") {
            if !game_named(&value, self.format.names.aliases) {
                return Err(line.error(format!("expected [Game \"{}\"]", self.format.names.game)));
            }
            self.setup.line = n;
        } else if let Some((seat, kind)) = seat_key(&self.template, key, "Kind") {
            let list = if kind {
                &mut self.setup.kinds
            } else {
                &mut self.setup.names
            };
            list.push((seat, value, n));
        } else if let Some((_, option)) = self.option_tag(key) {
            self.setup.options.push((format!("{option}={value}"), n));
        } else if same_key(key, "Options") {
            self.setup.options.extend(option_pairs(&value, n));
        } else if same_key(key, "Position") {
            self.setup.position = Some((value, n));
        } else if same_key(key, "Result") {
            let claimed = (self.format.result)(&value).ok_or_else(|| {
                line.error(format!(
                    "bad result '{value}': expected {}",
                    self.format.results
                ))
            })?;
            self.claim = Some((claimed, n));
        } else if !IGNORED_TAGS.iter().any(|t| same_key(key, t)) {
            return Err(line.error(self.unknown_tag(key)));
        }
        Ok(())
    }

    fn option_tag(&self, key: &str) -> Option<&(&'static str, &'static str)> {
        self.format
            .option_tags
            .iter()
            .find(|(tag, _)| same_key(key, tag))
    }

    fn unknown_tag(&self, key: &str) -> String {
        let seats: Vec<&str> = Seat::all(self.template.seat_count())
            .map(|seat| self.template.seat_name(seat))
            .collect();
        let mut known = vec!["Game".to_string()];
        known.extend(seats.iter().map(ToString::to_string));
        known.extend(seats.iter().map(|name| format!("{name}Kind")));
        known.extend(
            self.format
                .option_tags
                .iter()
                .map(|(tag, _)| tag.to_string()),
        );
        known.extend(["Options", "Position", "Result"].map(String::from));
        format!(
            "unknown tag '{key}': expected {} (or {})",
            known.join(", "),
            IGNORED_TAGS.join(", ")
        )
    }
}

/// The header of a tag record: `Game`, the players' names (always) and kinds (when not
/// `human`), then `tags`, then `Position` when the record has one, then `Result`; a blank line
/// ends it.
pub(crate) fn tag_header(
    game_name: &str,
    record: &GameRecord,
    start: &AnyGame,
    tags: &[(&str, String)],
    result: &str,
) -> Vec<String> {
    let mut lines = vec![format!("[Game {}]", quote(game_name))];
    let players = players_of(record, start);
    for (seat, player) in Seat::all(start.seat_count()).zip(&players) {
        lines.push(format!(
            "[{} {}]",
            start.seat_name(seat),
            quote(&player.name)
        ));
    }
    for (seat, player) in Seat::all(start.seat_count()).zip(&players) {
        if player.kind != "human" {
            lines.push(format!(
                "[{}Kind {}]",
                start.seat_name(seat),
                quote(&player.kind)
            ));
        }
    }
    for (key, value) in tags {
        lines.push(format!("[{key} {}]", quote(value)));
    }
    if let Some(position) = &record.position {
        lines.push(format!("[Position {}]", quote(position)));
    }
    lines.push(format!("[Result {}]", quote(result)));
    lines.push(String::new());
    lines
}
