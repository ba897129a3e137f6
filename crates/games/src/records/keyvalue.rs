//! The `Key: value` record format that Qawale and Yoxii share (their spec §6): header lines,
//! a blank line, then one turn per line; `#` starts a comment.
//!
//! Each game describes its header keys in a [`KeyValueFormat`]; this file reads and writes
//! the common parts: `Game`, the players (`Dark: Ann`, `Dark-kind: ai:greedy`), the options,
//! `Seed`, `Position`, `Result` and the move lines (`resign L` for a resignation, `flag L`
//! for a seat out of time, `draw agreed`).

use ludus_engine::{AnyGame, GameRecord, RecordError, Seat};

use super::common::{
    error, game_named, option_pairs, parse_value, quote_if_needed, read_lines, same_key,
    seat_from_word, seat_key, seat_letter, Comments, Line,
};
use super::replay::{
    option_value, other_options, players_of, replay, Claimed, Ending, Reader, Setup,
};
use super::{FormatNames, TextFormat};
use crate::new_game;

/// A rules option written under its own header key.
#[derive(Debug)]
pub(crate) struct HeaderOption {
    /// The header key (`First`).
    pub key: &'static str,
    /// The option (`first_player`).
    pub option: &'static str,
    /// Written words for option values (`D` for `dark`); values not listed are written as is.
    pub words: &'static [(&'static str, &'static str)],
}

/// What differs between the games that use this format.
#[derive(Debug)]
pub(crate) struct KeyValueFormat {
    /// The registry id.
    pub id: &'static str,
    /// The format's and the game's names (the game's as in the `Game:` line).
    pub names: FormatNames,
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

impl TextFormat for KeyValueFormat {
    fn names(&self) -> &FormatNames {
        &self.names
    }
    fn read(&self, text: &str) -> Result<GameRecord, RecordError> {
        read(self, text)
    }
    fn write(&self, record: &GameRecord) -> Result<String, RecordError> {
        write(self, record)
    }
}

/// For games whose result mark stands alone: nothing may follow it.
pub(crate) fn no_detail(_: &AnyGame, detail: &str) -> Result<(), String> {
    if detail.is_empty() {
        Ok(())
    } else {
        Err(format!("unexpected '{detail}' after the result"))
    }
}

/// The record as text in this format.
fn write(format: &KeyValueFormat, record: &GameRecord) -> Result<String, RecordError> {
    let replayed = replay(record, |_| ())?;
    let (start, end) = (&replayed.start, &replayed.end);
    let mut lines = vec![format!("Game: {}", format.names.game)];
    lines.extend(player_lines(record, start));
    lines.extend(option_lines(format, record, start));
    if let Some(position) = &record.position {
        lines.push(format!("Position: {}", quote_if_needed(position)));
    }
    if let Some(outcome) = end.outcome() {
        let mark = match outcome.winner() {
            Some(seat) => format!("{}+", seat_letter(end, seat)),
            None => "=".to_string(),
        };
        let resigned = replayed.turns.last().is_some_and(|t| t.ending.is_some());
        lines.push(format!(
            "Result: {mark}{}",
            (format.result_detail)(end, resigned)
        ));
    }
    lines.push(String::new());
    for turn in &replayed.turns {
        if let Some(ending) = turn.ending {
            lines.push(ending.text(seat_letter(end, turn.seat)));
        } else {
            lines.push(turn.text.clone());
        }
    }
    Ok(lines.join("\n") + "\n")
}

/// `Dark: Ann` when the name is not the seat's, `Dark-kind: ai:greedy` when not `human`.
fn player_lines(record: &GameRecord, start: &AnyGame) -> Vec<String> {
    let mut lines = Vec::new();
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
    lines
}

/// The options with their own keys, `Options:` for the others, and `Seed:` when it matters.
fn option_lines(format: &KeyValueFormat, record: &GameRecord, start: &AnyGame) -> Vec<String> {
    let mut lines = Vec::new();
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
    lines
}

/// What the header says: the setup and the claimed result with what follows its mark.
struct Header<'f> {
    format: &'f KeyValueFormat,
    template: AnyGame,
    setup: Setup,
    claim: Option<(Claimed, String, usize)>,
    seen: Vec<String>,
}

impl Header<'_> {
    /// Reads one `Key: value` line.
    fn read_line(&mut self, line: Line) -> Result<(), RecordError> {
        let n = line.n;
        let Some((key, value)) = line.raw.split_once(':') else {
            return Err(
                line.error("expected a header line 'Key: value' (a blank line ends the header)")
            );
        };
        let key = key.trim();
        if self.seen.iter().any(|k| same_key(k, key)) {
            return Err(line.error(format!("the header has '{key}' twice")));
        }
        self.seen.push(key.to_string());
        let value = parse_value(value, n, Comments::Anywhere)?;
        if same_key(key, "Game") {
            if !game_named(&value, self.format.names.aliases) {
                return Err(line.error(format!("expected 'Game: {}'", self.format.names.game)));
            }
            self.setup.line = n;
        } else if let Some((seat, kind)) = seat_key(&self.template, key, "-kind") {
            let list = if kind {
                &mut self.setup.kinds
            } else {
                &mut self.setup.names
            };
            list.push((seat, value, n));
        } else {
            self.setting(line, key, value)?;
        }
        Ok(())
    }

    /// An option, `Options`, `Seed`, `Position` or `Result` line.
    fn setting(&mut self, line: Line, key: &str, value: String) -> Result<(), RecordError> {
        let n = line.n;
        if let Some(header) = self.format.options.iter().find(|h| same_key(key, h.key)) {
            let option = header
                .words
                .iter()
                .find(|(w, v)| w.eq_ignore_ascii_case(&value) || v.eq_ignore_ascii_case(&value))
                .map_or(value.as_str(), |(_, v)| v);
            self.setup
                .options
                .push((format!("{}={option}", header.option), n));
        } else if same_key(key, "Options") {
            self.setup.options.extend(option_pairs(&value, n));
        } else if same_key(key, "Seed") {
            self.setup.seed = value
                .parse()
                .map_err(|_| line.error(format!("bad seed '{value}': expected a whole number")))?;
        } else if same_key(key, "Position") {
            self.setup.position = Some((value, n));
        } else if same_key(key, "Result") {
            let (claimed, detail) = parse_result(&self.template, &value)
                .ok_or_else(|| line.error(result_expected(&self.template, &value)))?;
            self.claim = Some((claimed, detail, n));
        } else {
            return Err(line.error(unknown_key(self.format, &self.template, key)));
        }
        Ok(())
    }
}

/// Reads a record in this format.
fn read(format: &KeyValueFormat, text: &str) -> Result<GameRecord, RecordError> {
    let template = new_game(format.id, &[], None, 0).map_err(|e| error(1, e.to_string()))?;
    let mut header = Header {
        format,
        template,
        setup: Setup::default(),
        claim: None,
        seen: Vec::new(),
    };
    let mut lines = read_lines(text, Comments::Anywhere);
    let mut in_header = false;
    for line in lines.by_ref() {
        if line.raw.trim().is_empty() {
            if in_header {
                break;
            }
            continue;
        }
        if line.raw.trim().starts_with('#') {
            continue;
        }
        in_header = true;
        header.read_line(line)?;
    }
    if header.setup.line == 0 {
        return Err(error(
            1,
            format!("missing the 'Game: {}' line", format.names.game),
        ));
    }
    let mut reader = Reader::new(format.id, &header.setup)?;
    for line in lines.filter(|line| !line.text.is_empty()) {
        read_move_line(&mut reader, &header.template, line)?;
    }
    let claim = match header.claim {
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

/// Plays one move line: a turn, `resign [seat]`, `flag [seat]` or `draw agreed`.
fn read_move_line(reader: &mut Reader, template: &AnyGame, line: Line) -> Result<(), RecordError> {
    let mut words = line.text.split_whitespace();
    let Some(ending) = words.next().and_then(Ending::from_word) else {
        return reader.play(line.n, line.text);
    };
    if ending == Ending::AgreedDraw {
        return read_agreed_draw(reader, &line, words);
    }
    let seat = match words.next() {
        Some(word) => seat_from_word(reader.game(), word),
        None => reader.game().to_move(),
    };
    let seat = seat.filter(|_| words.next().is_none()).ok_or_else(|| {
        line.error(format!(
            "expected 'resign' or 'flag' and a seat: {}",
            seat_choices(template)
        ))
    })?;
    reader.end(line.n, ending, seat)
}

/// The rest of a `draw agreed` line after `draw`.
fn read_agreed_draw<'a>(
    reader: &mut Reader,
    line: &Line,
    mut words: impl Iterator<Item = &'a str>,
) -> Result<(), RecordError> {
    let agreed = words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("agreed"));
    if !agreed || words.next().is_some() {
        return Err(line.error("expected 'draw agreed'"));
    }
    reader.end(line.n, Ending::AgreedDraw, Seat::FIRST)
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

fn unknown_key(format: &KeyValueFormat, template: &AnyGame, key: &str) -> String {
    let mut known = vec!["Game".to_string()];
    for seat in Seat::all(template.seat_count()) {
        let name = template.seat_name(seat);
        known.push(name.to_string());
        known.push(format!("{name}-kind"));
    }
    known.extend(format.options.iter().map(|h| h.key.to_string()));
    known.extend(["Options", "Seed", "Position", "Result"].map(String::from));
    format!(
        "unknown header key '{key}': expected one of {} (a blank line ends the header)",
        known.join(", ")
    )
}
