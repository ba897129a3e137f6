//! The text that the five formats share: the line reader (numbered lines, comments), quoted
//! values, `[Key "value"]` tags, header keys, game names and seat words. Replaying records to
//! write and read them is in `replay.rs`.

use std::fmt::Write as _;

use ludus_engine::{AnyGame, RecordError, Seat};

/// A `RecordError::Text` for `line`.
pub(crate) fn error(line: usize, reason: impl Into<String>) -> RecordError {
    RecordError::Text {
        line,
        reason: reason.into(),
    }
}

/// The lines of `text`, numbered from 1 (a leading byte-order mark is dropped).
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
}

/// One line of a record as the readers see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    /// The 1-based line number, for errors.
    pub n: usize,
    /// The line as written.
    pub raw: &'a str,
    /// The line without its comment, trimmed (empty for a blank or comment line).
    pub text: &'a str,
}

impl Line<'_> {
    /// A `RecordError::Text` for this line.
    pub(crate) fn error(&self, reason: impl Into<String>) -> RecordError {
        error(self.n, reason)
    }
}

/// The shared line reader: every line of `text`, numbered, with its comment cut off.
pub(crate) fn read_lines(text: &str, comments: Comments) -> impl Iterator<Item = Line<'_>> {
    numbered_lines(text).map(move |(n, raw)| Line {
        n,
        raw,
        text: strip_comment(raw, comments).trim(),
    })
}

/// Where a `#` starts a comment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Comments {
    /// Any `#` (Qawale, Yoxii, Replica, Qilin: their notation has none).
    Anywhere,
    /// A `#` at the start of the line or after a space (Splut!, whose steps end in `#` notes).
    AfterSpace,
}

/// `text` without its comment.
pub(crate) fn strip_comment(text: &str, comments: Comments) -> &str {
    let mut previous = None;
    for (i, c) in text.char_indices() {
        if c == '#' && (comments == Comments::Anywhere || previous.is_none_or(char::is_whitespace))
        {
            return &text[..i];
        }
        previous = Some(c);
    }
    text
}

/// Whether a value must be quoted to read back the same.
fn needs_quotes(value: &str) -> bool {
    value.is_empty()
        || value.trim() != value
        || value.starts_with('"')
        || value.contains('#')
        || value.chars().any(char::is_control)
}

/// `value` in double quotes, with `\"`, `\\` and control characters escaped.
pub(crate) fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `value` as it is, or quoted when it would not read back the same.
pub(crate) fn quote_if_needed(value: &str) -> String {
    if needs_quotes(value) {
        quote(value)
    } else {
        value.to_string()
    }
}

/// Reads a quoted string at the start of `text` (which starts with `"`); returns it and the
/// text after the closing quote.
fn unquote(text: &str, line: usize) -> Result<(String, &str), RecordError> {
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &text[i + 1..])),
            '\\' => {
                let escaped = match chars.next().map(|(_, e)| e) {
                    Some('"') => '"',
                    Some('\\') => '\\',
                    Some('n') => '\n',
                    Some('r') => '\r',
                    Some('t') => '\t',
                    Some('u') => read_unicode_escape(&mut chars)
                        .ok_or_else(|| error(line, "bad \\u{…} escape in a quoted value"))?,
                    _ => return Err(error(
                        line,
                        "bad escape in a quoted value: expected \\\" \\\\ \\n \\r \\t or \\u{…}",
                    )),
                };
                out.push(escaped);
            }
            c => out.push(c),
        }
    }
    Err(error(line, "a quoted value has no closing '\"'"))
}

fn read_unicode_escape(chars: &mut impl Iterator<Item = (usize, char)>) -> Option<char> {
    if chars.next()?.1 != '{' {
        return None;
    }
    let mut hex = String::new();
    loop {
        let c = chars.next()?.1;
        if c == '}' {
            break;
        }
        if hex.len() >= 6 {
            return None;
        }
        hex.push(c);
    }
    char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
}

/// A header value: quoted (`"Ann #1"`) or plain up to the comment, trimmed.
pub(crate) fn parse_value(
    text: &str,
    line: usize,
    comments: Comments,
) -> Result<String, RecordError> {
    let text = text.trim_start();
    if text.starts_with('"') {
        let (value, rest) = unquote(text, line)?;
        if !strip_comment(rest, comments).trim().is_empty() {
            return Err(error(line, "unexpected text after the closing '\"'"));
        }
        return Ok(value);
    }
    Ok(strip_comment(text, comments).trim().to_string())
}

/// Reads the `[Key "value"]` tags of one line (there may be several); a `#` comment may
/// follow the last one.
pub(crate) fn parse_tags(text: &str, line: usize) -> Result<Vec<(String, String)>, RecordError> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start();
    while let Some(inner) = rest.strip_prefix('[') {
        let inner = inner.trim_start();
        let key_len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(inner.len());
        let key = &inner[..key_len];
        if key.is_empty() {
            return Err(error(line, "expected a tag like [Key \"value\"]"));
        }
        let after_key = inner[key_len..].trim_start();
        if !after_key.starts_with('"') {
            return Err(error(
                line,
                format!("tag [{key} …]: expected a quoted value"),
            ));
        }
        let (value, after_value) = unquote(after_key, line)?;
        let Some(after_tag) = after_value.trim_start().strip_prefix(']') else {
            return Err(error(
                line,
                format!("tag [{key} …]: expected ']' after the value"),
            ));
        };
        tags.push((key.to_string(), value));
        rest = after_tag.trim_start();
    }
    if !strip_comment(rest, Comments::Anywhere).trim().is_empty() {
        return Err(error(
            line,
            "expected only [Key \"value\"] tags on a header line",
        ));
    }
    Ok(tags)
}

/// Whether a header key `given` is `key`, ignoring case and `-`/`_`.
pub(crate) fn same_key(given: &str, key: &str) -> bool {
    let normal = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c == '_' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    normal(given) == normal(key)
}

/// Whether a header's game name `given` is one of `names` (lower case), ignoring case, runs
/// of spaces and a final `!` (`Qilin  XiaSanZi`, `SPLUT!`).
pub(crate) fn game_named(given: &str, names: &[&str]) -> bool {
    let normal = given
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    names.contains(&normal.trim_end_matches('!'))
}

/// The seat a word names: its number (`2`), its name (`Light`) or the name's first letter
/// (`L`), ignoring case.
pub(crate) fn seat_from_word(game: &AnyGame, word: &str) -> Option<Seat> {
    if let Ok(number) = word.parse::<usize>() {
        return Seat::from_number(number, game.seat_count());
    }
    Seat::all(game.seat_count()).find(|&seat| {
        let name = game.seat_name(seat);
        name.eq_ignore_ascii_case(word)
            || (word.chars().count() == 1
                && name.get(..1).is_some_and(|l| l.eq_ignore_ascii_case(word)))
    })
}

/// The seat (0-based) a player key names (`Dark`), and whether it is the kind's key: the
/// seat's name followed by `kind_suffix` (`Dark-kind`, `WhiteKind`).
pub(crate) fn seat_key(game: &AnyGame, key: &str, kind_suffix: &str) -> Option<(usize, bool)> {
    Seat::all(game.seat_count()).find_map(|seat| {
        let name = game.seat_name(seat);
        if same_key(key, name) {
            Some((seat.to_usize(), false))
        } else {
            same_key(key, &format!("{name}{kind_suffix}")).then_some((seat.to_usize(), true))
        }
    })
}

/// The `key=value` pairs of an `Options` value (separated by commas or white space), each
/// with the line it is on.
pub(crate) fn option_pairs(value: &str, line: usize) -> impl Iterator<Item = (String, usize)> + '_ {
    value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|pair| !pair.is_empty())
        .map(move |pair| (pair.to_string(), line))
}

/// The first letter of a seat's name (`D` for Dark).
pub(crate) fn seat_letter(game: &AnyGame, seat: Seat) -> &'static str {
    let name = game.seat_name(seat);
    name.get(..1).unwrap_or(name)
}
