//! The `Key: value` record format that Qawale and Yoxii share (their spec §6): header lines,
//! a blank line, then one turn per line; `#` starts a comment.
//!
//! Each game describes its header keys in a [`KeyValueFormat`]; this file reads and writes
//! the common parts: `Game`, the players (`Dark: Ann`, `Dark-kind: ai:greedy`), the options,
//! `Seed`, `Position`, `Result` and the move lines (`resign L` for a resignation).

use ludus_engine::{AnyGame, GameRecord, RecordError, Seat};

use super::common::{
    error, game_id, numbered_lines, parse_value, quote_if_needed, same_key, seat_from_word,
    seat_letter, strip_comment, Comments,
};
use super::replay::{option_value, other_options, players_of, replay, Claimed, Reader, Setup};
use crate::new_game;

/// A rules option written under its own header key.
pub(super) struct HeaderOption {
    /// The header key (`First`).
    pub key: &'static str,
    /// The option (`first_player`).
    pub option: &'static str,
    /// Written words for option values (`D` for `dark`); values not listed are written as is.
    pub words: &'static [(&'static str, &'static str)],
}

/// What differs between the games that use this format.
pub(super) struct KeyValueFormat {
    /// The registry id.
    pub id: &'static str,
    /// The name in the `Game:` line.
    pub name: &'static str,
    /// The options with their own key; any other option goes in `Options: k=v …`.
    pub options: &'static [HeaderOption],
    /// `Seed:` is written when this option has this value (a random first player).
    pub seed_when: Option<(&'static str, &'static str)>,
    /// What follows the result mark for a finished game (` 17-12`), given the final game and
    /// whether it ended by a resignation.
    pub result_detail: fn(&AnyGame, bool) -> String,
    /// Checks what follows the result mark against the final game.
    pub check_detail: fn(&AnyGame, &str) -> Result<(), String>,
}

/// For games whose result mark stands alone: nothing may follow it.
pub(super) fn no_detail(_: &AnyGame, detail: &str) -> Result<(), String> {
    if detail.is_empty() {
        Ok(())
    } else {
        Err(format!("unexpected '{detail}' after the result"))
    }
}

/// The record as text in this format.
pub(super) fn write(format: &KeyValueFormat, record: &GameRecord) -> Result<String, RecordError> {
    let replayed = replay(record, |_| ())?;
    let (start, end) = (&replayed.start, &replayed.end);
    let mut lines = vec![format!("Game: {}", format.name)];
    for (seat, player) in Seat::all(start.seat_count()).zip(players_of(record, start)) {
        let seat_name = start.seat_name(seat);
        if player.name != seat_name {
            lines.push(format!("{seat_name}: {}", quote_if_needed(&player.name)));
        }
        if player.kind != "human" {
            lines.push(format!(
                "{seat_name}-kind: {}",
                quote_if_needed(&player.kind)
            ));
        }
    }
    for header in format.options {
        let value = option_value(start, header.option);
        let word = header
            .words
            .iter()
            .find(|(_, v)| *v == value)
            .map_or(value.as_str(), |(w, _)| w);
        lines.push(format!("{}: {word}", header.key));
    }
    let named: Vec<&str> = format.options.iter().map(|h| h.option).collect();
    let others = other_options(start, &named);
    if !others.is_empty() {
        lines.push(format!("Options: {}", others.join(" ")));
    }
    if let Some((option, value)) = format.seed_when {
        if option_value(start, option) == value {
            lines.push(format!("Seed: {}", record.seed));
        }
    }
    if let Some(position) = &record.position {
        lines.push(format!("Position: {}", quote_if_needed(position)));
    }
    if let Some(outcome) = end.outcome() {
        let mark = match outcome.winner() {
            Some(seat) => format!("{}+", seat_letter(end, seat)),
            None => "=".to_string(),
        };
        let resigned = replayed.turns.last().is_some_and(|t| t.resign);
        lines.push(format!(
            "Result: {mark}{}",
            (format.result_detail)(end, resigned)
        ));
    }
    lines.push(String::new());
    for turn in &replayed.turns {
        if turn.resign {
            lines.push(format!("resign {}", seat_letter(end, turn.seat)));
        } else {
            lines.push(turn.text.clone());
        }
    }
    Ok(lines.join("\n") + "\n")
}

/// Reads a record in this format.
pub(super) fn read(format: &KeyValueFormat, text: &str) -> Result<GameRecord, RecordError> {
    let template = new_game(format.id, &[], None, 0).map_err(|e| error(1, e.to_string()))?;
    let seats: Vec<(usize, &str)> = Seat::all(template.seat_count())
        .map(|seat| (seat.to_usize(), template.seat_name(seat)))
        .collect();
    let mut setup = Setup::default();
    let mut claim: Option<(Claimed, String, usize)> = None;
    let mut seen: Vec<String> = Vec::new();
    let mut lines = numbered_lines(text);
    let mut in_header = false;
    for (n, raw) in lines.by_ref() {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            if in_header {
                break;
            }
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        in_header = true;
        let Some((key, value)) = raw.split_once(':') else {
            return Err(error(
                n,
                "expected a header line 'Key: value' (a blank line ends the header)",
            ));
        };
        let key = key.trim();
        if seen.iter().any(|k| same_key(k, key)) {
            return Err(error(n, format!("the header has '{key}' twice")));
        }
        seen.push(key.to_string());
        let value = parse_value(value, n, Comments::Anywhere)?;
        if same_key(key, "Game") {
            if game_id(&value) != Some(format.id) {
                return Err(error(n, format!("expected 'Game: {}'", format.name)));
            }
            setup.line = n;
        } else if let Some(&(seat, _)) = seats.iter().find(|(_, name)| same_key(key, name)) {
            setup.names.push((seat, value, n));
        } else if let Some(&(seat, _)) = seats
            .iter()
            .find(|(_, name)| same_key(key, &format!("{name}-kind")))
        {
            setup.kinds.push((seat, value, n));
        } else if let Some(header) = format.options.iter().find(|h| same_key(key, h.key)) {
            let option = header
                .words
                .iter()
                .find(|(w, v)| w.eq_ignore_ascii_case(&value) || v.eq_ignore_ascii_case(&value))
                .map_or(value.as_str(), |(_, v)| v);
            setup
                .options
                .push((format!("{}={option}", header.option), n));
        } else if same_key(key, "Options") {
            for pair in value.split(|c: char| c == ',' || c.is_whitespace()) {
                if !pair.is_empty() {
                    setup.options.push((pair.to_string(), n));
                }
            }
        } else if same_key(key, "Seed") {
            setup.seed = value
                .parse()
                .map_err(|_| error(n, format!("bad seed '{value}': expected a whole number")))?;
        } else if same_key(key, "Position") {
            setup.position = Some((value, n));
        } else if same_key(key, "Result") {
            let (claimed, detail) = parse_result(&template, &value)
                .ok_or_else(|| error(n, result_expected(&template, &value)))?;
            claim = Some((claimed, detail, n));
        } else {
            return Err(error(n, unknown_key(format, &seats, key)));
        }
    }
    if setup.line == 0 {
        return Err(error(
            1,
            format!("missing the 'Game: {}' line", format.name),
        ));
    }
    let mut reader = Reader::new(format.id, &setup)?;
    for (n, raw) in lines {
        let line = strip_comment(raw, Comments::Anywhere).trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        if words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("resign"))
        {
            let seat = match words.next() {
                Some(word) => seat_from_word(reader.game(), word),
                None => reader.game().to_move(),
            };
            let seat = seat.filter(|_| words.next().is_none()).ok_or_else(|| {
                error(
                    n,
                    format!("expected 'resign' and a seat: {}", seat_choices(&template)),
                )
            })?;
            reader.resign(n, seat)?;
        } else {
            reader.play(n, line)?;
        }
    }
    let claim = match claim {
        Some((claimed, detail, n)) => {
            if claimed == Claimed::InProgress && !detail.is_empty() {
                return Err(error(n, format!("unexpected '{detail}' after the result")));
            }
            if claimed != Claimed::InProgress {
                (format.check_detail)(reader.game(), &detail).map_err(|e| error(n, e))?;
            }
            Some((claimed, n))
        }
        None => None,
    };
    reader.finish(claim)
}

/// `D+ 17-12`, `=`, `*`: the claimed result and what follows its mark.
fn parse_result(game: &AnyGame, value: &str) -> Option<(Claimed, String)> {
    if let Some(rest) = value.strip_prefix('=') {
        return Some((Claimed::Draw, rest.trim().to_string()));
    }
    if let Some(rest) = value.strip_prefix('*') {
        return Some((Claimed::InProgress, rest.trim().to_string()));
    }
    let (seat, rest) = value.split_once('+')?;
    let seat = seat_from_word(game, seat.trim())?;
    Some((Claimed::Win(seat), rest.trim().to_string()))
}

fn result_expected(game: &AnyGame, value: &str) -> String {
    let marks: Vec<String> = Seat::all(game.seat_count())
        .map(|seat| format!("{}+", seat_letter(game, seat)))
        .collect();
    format!(
        "bad result '{value}': expected {}, = (a draw) or * (not finished)",
        marks.join(", ")
    )
}

fn seat_choices(game: &AnyGame) -> String {
    Seat::all(game.seat_count())
        .map(|seat| seat_letter(game, seat))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn unknown_key(format: &KeyValueFormat, seats: &[(usize, &str)], key: &str) -> String {
    let mut known = vec!["Game".to_string()];
    for (_, name) in seats {
        known.push((*name).to_string());
        known.push(format!("{name}-kind"));
    }
    known.extend(format.options.iter().map(|h| h.key.to_string()));
    known.extend(["Options", "Seed", "Position", "Result"].map(String::from));
    format!(
        "unknown header key '{key}': expected one of {} (a blank line ends the header)",
        known.join(", ")
    )
}
