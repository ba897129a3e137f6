//! Splut!'s text record (spec `splut.md` §8.2 "Game record").
//!
//! ```text
//! splut 1
//! size 9
//! seats south north          # turn order
//! options max_turns=1000 repetition=3 levitate_follow=false
//! player south Ann
//! kind north ai:greedy
//! 1 Sd2-d3
//! 2 Sf8-f7 De8-e7
//! 3 Tf2-f3 Tf3-f4 Sd3-d4
//! result south               # or: result draw turn-limit | result draw repetition
//! ```
//!
//! * Keyword lines: `splut 1` (the format version, first), `size N` (the option `size`),
//!   `seats …` (the sides in turn order, which set the option `players`: `south north`,
//!   `south west north`, `south west north east`), `options key=value …` (every other rules
//!   option), then one line per turn: the 1-based turn number, then the turn's steps in
//!   canonical notation separated by spaces (`--` for a turn with no legal step), and last
//!   `result <side>` or `result draw <reason>` (`turn-limit`, `repetition`).
//! * `#` starts a comment at the start of a line or after a space (a step's own `#` note,
//!   `Td4-e4*n#`, follows the step without a space).
//! * The turn number must be the game's: turn 1 has one step, turn 2 two, later turns three;
//!   a position's `turn=` field sets the count it starts from.
//! * **Our additions where §8.2 is silent:**
//!   * `player <side> <name>` when the name is not the seat's colour (`Blue`, `Red`, …), and
//!     `kind <side> <kind>` when the player is not `human`. A name is quoted (`"…"`, with `\"`
//!     and `\\` escapes) when it would not read back the same otherwise.
//!   * `position <line>`, once per line of the §8.3 start position (which spans several
//!     lines), for a game that did not start from the usual setup.
//!   * A resignation is its own line, `resign <side>`, with no turn number. In a 3–4 player
//!     game a seat may resign in the middle of another seat's turn: the steps before and after
//!     it are then two lines with the same turn number.
//!   * `result` is written only when the game is over. On reading, the draw reason, when
//!     given, must be the replayed one.
//!   * Keyword lines other than turns, `resign` and `result` must come before the first turn;
//!     nothing may follow `result`.

use ludus_engine::{AnyGame, GameRecord, RecordError, Seat, Verdict};

use super::tables::Side;
use crate::new_game;
use crate::records::{
    error, option_value, other_options, parse_value, players_of, quote_if_needed, read_lines,
    replay, Claimed, Comments, Ending, FormatNames, Line, Reader, Setup, TextFormat,
};

/// Splut!'s record format, as the registry lists it.
#[derive(Debug)]
pub(crate) struct SplutRecord;

static NAMES: FormatNames = FormatNames {
    format: "Splut! text record (keyword lines, one numbered turn a line; spec splut.md §8.2)",
    game: "Splut!",
    aliases: &["splut"],
    opening: "'splut 1'",
};

/// The one value of [`SplutRecord`].
pub(crate) static RECORD: SplutRecord = SplutRecord;

impl TextFormat for SplutRecord {
    fn names(&self) -> &FormatNames {
        &NAMES
    }
    fn opens(&self, first_line: &str) -> bool {
        first_line
            .split_whitespace()
            .next()
            .is_some_and(|word| word.eq_ignore_ascii_case("splut"))
    }
    fn read(&self, text: &str) -> Result<GameRecord, RecordError> {
        read(text)
    }
    fn write(&self, record: &GameRecord) -> Result<String, RecordError> {
        write(record)
    }
}

/// The sides of a game with `seats` seats, in turn order.
fn sides(seats: usize) -> &'static [Side] {
    Side::seated(seats as u32)
}

fn side_name(game: &AnyGame, seat: Seat) -> &'static str {
    sides(game.seat_count())
        .get(seat.to_usize())
        .map_or("?", |side| side.name())
}

/// The reason word of a draw (`turn limit` → `turn-limit`).
fn reason_word(reason: &str) -> String {
    reason.split_whitespace().collect::<Vec<_>>().join("-")
}

/// The record as Splut!'s text format.
fn write(record: &GameRecord) -> Result<String, RecordError> {
    let replayed = replay(record, |game: &AnyGame| game.turn())?;
    let (start, end) = (&replayed.start, &replayed.end);
    let seats: Vec<&str> = sides(start.seat_count()).iter().map(|s| s.name()).collect();
    let mut lines = vec![
        "splut 1".to_string(),
        format!("size {}", option_value(start, "size")),
        format!("seats {}", seats.join(" ")),
    ];
    let others = other_options(start, &["size", "players"]);
    if !others.is_empty() {
        lines.push(format!("options {}", others.join(" ")));
    }
    for (seat, player) in Seat::all(start.seat_count()).zip(players_of(record, start)) {
        let side = side_name(start, seat);
        if player.name != start.seat_name(seat) {
            lines.push(format!("player {side} {}", quote_if_needed(&player.name)));
        }
        if player.kind != "human" {
            lines.push(format!("kind {side} {}", quote_if_needed(&player.kind)));
        }
    }
    if let Some(position) = &record.position {
        lines.extend(position.lines().map(|line| format!("position {line}")));
    }
    for turn in &replayed.turns {
        if let Some(ending) = turn.ending {
            lines.push(ending.text(side_name(end, turn.seat)));
        } else {
            lines.push(format!("{} {}", turn.before + 1, turn.text));
        }
    }
    if let Some(outcome) = end.outcome() {
        lines.push(match outcome.verdict {
            Verdict::Win(seat) => format!("result {}", side_name(end, seat)),
            Verdict::Draw => format!("result draw {}", reason_word(&outcome.reason)),
        });
    }
    Ok(lines.join("\n") + "\n")
}

/// Header lines whose sides are resolved once the seats are known.
struct Named {
    side: String,
    value: String,
    line: usize,
    kind: bool,
}

/// A Splut! record being read: the header so far, then the game once the first turn comes.
#[derive(Default)]
struct Read {
    setup: Setup,
    named: Vec<Named>,
    position: Vec<String>,
    reader: Option<Reader>,
    claim: Option<(Claimed, usize)>,
    draw_reason: Option<(String, usize)>,
}

/// Reads Splut!'s text format.
fn read(text: &str) -> Result<GameRecord, RecordError> {
    let mut read = Read::default();
    for line in read_lines(text, Comments::AfterSpace) {
        if !line.text.is_empty() {
            read.line(line)?;
        }
    }
    read.finish()
}

impl Read {
    /// Reads one non-blank line.
    fn line(&mut self, line: Line) -> Result<(), RecordError> {
        let (keyword, rest) = line
            .text
            .split_once(char::is_whitespace)
            .unwrap_or((line.text, ""));
        let rest = rest.trim();
        let keyword = keyword.to_ascii_lowercase();
        if self.setup.line == 0 {
            return self.version(line, &keyword, rest);
        }
        if let Some((_, result_line)) = self.claim {
            return Err(line.error(format!(
                "nothing may follow the result (line {result_line})"
            )));
        }
        let header = matches!(
            keyword.as_str(),
            "splut" | "size" | "seats" | "options" | "player" | "kind" | "position"
        );
        if header && self.reader.is_some() {
            return Err(line.error(format!("'{keyword}' must come before the first turn")));
        }
        if header {
            self.header(line, &keyword, rest)
        } else {
            self.play(line, &keyword, rest)
        }
    }

    /// The first line: `splut 1`.
    fn version(&mut self, line: Line, keyword: &str, rest: &str) -> Result<(), RecordError> {
        if keyword != "splut" {
            return Err(line.error("expected 'splut 1' on the first line"));
        }
        if rest != "1" {
            return Err(line.error(format!("splut record format '{rest}': expected 1")));
        }
        self.setup.line = line.n;
        Ok(())
    }

    /// A keyword line before the turns.
    fn header(&mut self, line: Line, keyword: &str, rest: &str) -> Result<(), RecordError> {
        let n = line.n;
        match keyword {
            "size" => self.setup.options.push((format!("size={rest}"), n)),
            "seats" => self
                .setup
                .options
                .push((format!("players={}", players_for(rest, n)?), n)),
            "options" => self
                .setup
                .options
                .extend(rest.split_whitespace().map(|pair| (pair.to_string(), n))),
            "player" | "kind" => {
                // The line after the keyword with its comment, for values that may be quoted.
                let raw_rest = line
                    .raw
                    .trim_start()
                    .get(keyword.len()..)
                    .unwrap_or_default();
                let raw_rest = raw_rest.trim_start();
                let (side, value) = raw_rest
                    .split_once(char::is_whitespace)
                    .unwrap_or((raw_rest, ""));
                self.named.push(Named {
                    side: side.to_ascii_lowercase(),
                    value: parse_value(value, n, Comments::AfterSpace)?,
                    line: n,
                    kind: keyword == "kind",
                });
            }
            "position" => {
                if self.position.is_empty() {
                    self.setup.position = Some((String::new(), n));
                }
                self.position.push(rest.to_string());
            }
            _ => return Err(line.error("'splut' is given twice")),
        }
        Ok(())
    }

    /// A turn, `resign` or `result` line.
    fn play(&mut self, line: Line, keyword: &str, rest: &str) -> Result<(), RecordError> {
        let n = line.n;
        match keyword {
            "resign" | "flag" => {
                let reader = self.started()?;
                let seat = seat_of_side(reader.game(), rest).ok_or_else(|| {
                    line.error(format!(
                        "expected '{keyword}' and a side in play: {}",
                        side_list(reader.game())
                    ))
                })?;
                let ending = Ending::from_word(keyword).unwrap_or(Ending::Resign);
                reader.end(n, ending, seat)
            }
            "draw" if rest.eq_ignore_ascii_case("agreed") => {
                self.started()?.end(n, Ending::AgreedDraw, Seat::FIRST)
            }
            "result" => {
                let reader = self.started()?;
                let (claimed, reason) = parse_result(reader.game(), rest, n)?;
                if let Some(reason) = reason {
                    self.draw_reason = Some((reason, n));
                }
                self.claim = Some((claimed, n));
                Ok(())
            }
            number if number.starts_with(|c: char| c.is_ascii_digit()) => {
                let reader = self.started()?;
                reader.check_not_over(n)?;
                let expected = u64::from(reader.game().turn()) + 1;
                if number.parse::<u64>().ok() != Some(expected) {
                    return Err(line.error(format!("turn number '{number}': expected {expected}")));
                }
                if rest.is_empty() {
                    return Err(line.error("expected the turn's steps after its number"));
                }
                reader.play(n, rest)
            }
            _ => Err(line.error(format!(
                "unknown line '{keyword}': expected a numbered turn, resign, flag, draw agreed, result, or \
                 (before the turns) size, seats, options, player, kind, position"
            ))),
        }
    }

    /// The game, created from the header at the first turn.
    fn started(&mut self) -> Result<&mut Reader, RecordError> {
        if self.reader.is_none() {
            self.reader = Some(start(&mut self.setup, &self.named, &self.position)?);
        }
        self.reader
            .as_mut()
            .ok_or_else(|| error(self.setup.line, "the game did not start"))
    }

    /// Checks the draw reason and the claimed result, then gives the record.
    fn finish(mut self) -> Result<GameRecord, RecordError> {
        if self.setup.line == 0 {
            return Err(error(1, "expected 'splut 1' on the first line"));
        }
        let reader = match self.reader.take() {
            Some(reader) => reader,
            None => start(&mut self.setup, &self.named, &self.position)?,
        };
        if let (Some((word, n)), Some(outcome)) = (self.draw_reason, reader.game().outcome()) {
            let replayed = reason_word(&outcome.reason);
            if outcome.verdict == Verdict::Draw && !word.eq_ignore_ascii_case(&replayed) {
                return Err(error(
                    n,
                    format!("the draw reason is '{replayed}', not '{word}'"),
                ));
            }
        }
        reader.finish(self.claim)
    }
}

/// Creates the game once the header is complete: the position's lines joined, the sides of
/// `player` and `kind` lines resolved to seats.
fn start(setup: &mut Setup, named: &[Named], position: &[String]) -> Result<Reader, RecordError> {
    if let Some((text, _)) = &mut setup.position {
        *text = position.join("\n");
    }
    let pairs: Vec<String> = setup.options.iter().map(|(p, _)| p.clone()).collect();
    let seats = new_game("splut", &pairs, None, 0).map_or(2, |g| g.seat_count());
    for entry in named {
        let seat = sides(seats)
            .iter()
            .position(|s| s.name() == entry.side)
            .ok_or_else(|| {
                let names: Vec<&str> = sides(seats).iter().map(|s| s.name()).collect();
                error(
                    entry.line,
                    format!(
                        "side '{}': expected one of {}",
                        entry.side,
                        names.join(", ")
                    ),
                )
            })?;
        let list = if entry.kind {
            &mut setup.kinds
        } else {
            &mut setup.names
        };
        list.push((seat, entry.value.clone(), entry.line));
    }
    Reader::new("splut", setup)
}

/// The `players` option for a `seats` line.
fn players_for(seats: &str, n: usize) -> Result<usize, RecordError> {
    let given: Vec<String> = seats
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    (2..=4)
        .find(|&p| {
            sides(p)
                .iter()
                .map(|s| s.name())
                .eq(given.iter().map(String::as_str))
        })
        .ok_or_else(|| {
            error(
                n,
                "expected seats 'south north', 'south west north' or 'south west north east'",
            )
        })
}

/// `result <side>` or `result draw [reason]`: the claim and the draw's reason word.
fn parse_result(
    game: &AnyGame,
    rest: &str,
    n: usize,
) -> Result<(Claimed, Option<String>), RecordError> {
    let mut words = rest.split_whitespace();
    let first = words.next().unwrap_or_default();
    if first.eq_ignore_ascii_case("draw") {
        let reason: Vec<&str> = words.collect();
        return Ok((
            Claimed::Draw,
            (!reason.is_empty()).then(|| reason.join("-")),
        ));
    }
    let seat = seat_of_side(game, first)
        .filter(|_| words.next().is_none())
        .ok_or_else(|| {
            let sides = side_list(game);
            error(
                n,
                format!("expected 'result <side>' ({sides}) or 'result draw <reason>'"),
            )
        })?;
    Ok((Claimed::Win(seat), None))
}

fn seat_of_side(game: &AnyGame, word: &str) -> Option<Seat> {
    sides(game.seat_count())
        .iter()
        .position(|s| s.name().eq_ignore_ascii_case(word))
        .map(|i| Seat::new(i as u8))
}

fn side_list(game: &AnyGame) -> String {
    sides(game.seat_count())
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}
