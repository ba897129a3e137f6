//! Replaying records through the rules: for writing, the turns with what the writer needs to
//! know about the state before each; for reading, the [`Reader`] that plays a text record line
//! by line so that every error names its line, and checks the claimed result.

use ludus_engine::{AnyGame, GameRecord, PlayerRecord, RecordError, Seat, TurnText, Verdict};

use super::common::error;
use crate::{load_record, new_game, NewGameError};

// ----------------------------------------------------------------------------------------
// Writing

/// How a history entry ends play outside the moves: a seat resigns or runs out of time (it
/// leaves the game), or the seats agree on a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ending {
    Resign,
    Flag,
    AgreedDraw,
}

impl Ending {
    /// The ending a history entry stands for (`resign 2`, `flag 2`, `draw agreed`), if any.
    pub fn of_history(text: &str) -> Option<Ending> {
        let first = text.split_whitespace().next()?;
        match first {
            "resign" => Some(Ending::Resign),
            "flag" => Some(Ending::Flag),
            "draw" if text == "draw agreed" => Some(Ending::AgreedDraw),
            _ => None,
        }
    }

    /// The ending a record line or token starts with: `resign`, `flag` or `draw` (which
    /// `agreed` must follow), in any case.
    pub fn from_word(word: &str) -> Option<Ending> {
        [
            ("resign", Ending::Resign),
            ("flag", Ending::Flag),
            ("draw", Ending::AgreedDraw),
        ]
        .into_iter()
        .find(|(name, _)| word.eq_ignore_ascii_case(name))
        .map(|(_, ending)| ending)
    }

    /// The line or tokens a text record writes: `resign L`, `flag L`, `draw agreed`.
    pub fn text(self, seat_word: &str) -> String {
        match self {
            Ending::Resign => format!("resign {seat_word}"),
            Ending::Flag => format!("flag {seat_word}"),
            Ending::AgreedDraw => "draw agreed".to_string(),
        }
    }

    fn apply(self, game: &mut AnyGame, seat: Seat) {
        match self {
            Ending::Resign => game.resign(seat),
            Ending::Flag => game.flag(seat),
            Ending::AgreedDraw => {
                game.agree_draw();
            }
        }
    }
}

/// One turn of a record to write: who played it, its turn notation (or how it ended play),
/// and what the writer asked about the state before it.
pub(crate) struct TurnToWrite<T> {
    pub seat: Seat,
    pub text: String,
    pub ending: Option<Ending>,
    pub before: T,
}

/// A record replayed for writing: the start, the end, and every turn.
pub(crate) struct Replayed<T> {
    pub start: AnyGame,
    pub end: AnyGame,
    pub turns: Vec<TurnToWrite<T>>,
}

/// Replays `record` through the rules (refusing it as `load_record` does) and lists its turns
/// in canonical notation, with `probe` asked about the state before each turn.
pub(crate) fn replay<T>(
    record: &GameRecord,
    mut probe: impl FnMut(&AnyGame) -> T,
) -> Result<Replayed<T>, RecordError> {
    let end = load_record(record)?;
    let start = load_record(&GameRecord {
        moves: Vec::new(),
        result: None,
        ..record.clone()
    })?;
    let mut state = start.clone();
    let mut turns = Vec::new();
    for (i, TurnText { seat, text, .. }) in end.history().iter().cloned().enumerate() {
        let before = probe(&state);
        let ending = Ending::of_history(&text);
        if let Some(ending) = ending {
            ending.apply(&mut state, seat);
        } else {
            state.play(&text).map_err(|source| RecordError::Move {
                index: i + 1,
                entry: text.clone(),
                source,
            })?;
        }
        turns.push(TurnToWrite {
            seat,
            text,
            ending,
            before,
        });
    }
    Ok(Replayed { start, end, turns })
}

/// The players of `record` as the game names them by default (seat name, `human`) where the
/// record has none.
pub(crate) fn players_of(record: &GameRecord, game: &AnyGame) -> Vec<PlayerRecord> {
    Seat::all(game.seat_count())
        .map(|seat| {
            record
                .players
                .get(seat.to_usize())
                .cloned()
                .unwrap_or_else(|| default_player(game, seat))
        })
        .collect()
}

fn default_player(game: &AnyGame, seat: Seat) -> PlayerRecord {
    PlayerRecord {
        name: game.seat_name(seat).to_string(),
        kind: "human".to_string(),
    }
}

/// The options of `game` as `key=value` in the game's menu order, leaving out those in
/// `named`.
pub(crate) fn other_options(game: &AnyGame, named: &[&str]) -> Vec<String> {
    let order = |key: &str| {
        game.info()
            .options
            .iter()
            .position(|o| o.name == key)
            .unwrap_or(usize::MAX)
    };
    let mut options: Vec<(String, String)> = game
        .options()
        .into_iter()
        .filter(|(key, _)| !named.contains(&key.as_str()))
        .collect();
    options.sort_by_key(|(key, _)| order(key));
    options
        .into_iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect()
}

/// The value of option `name` in `game`.
pub(crate) fn option_value(game: &AnyGame, name: &str) -> String {
    game.options()
        .into_iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value)
        .unwrap_or_default()
}

// ----------------------------------------------------------------------------------------
// Reading

/// What a header sets up, each piece with its line for errors.
#[derive(Default)]
pub(crate) struct Setup {
    /// The line to blame when no better one is known (the `Game` line).
    pub line: usize,
    /// `key=value` options.
    pub options: Vec<(String, usize)>,
    /// The start position.
    pub position: Option<(String, usize)>,
    /// The seed for random rules choices.
    pub seed: u64,
    /// Players' names by 0-based seat.
    pub names: Vec<(usize, String, usize)>,
    /// Players' kinds by 0-based seat.
    pub kinds: Vec<(usize, String, usize)>,
}

/// The result a text record claims.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Claimed {
    /// The game goes on (`*`).
    InProgress,
    /// This seat won.
    Win(Seat),
    /// A draw.
    Draw,
}

/// Lines that played one history entry each, with the entry counts around them.
struct Span {
    line: usize,
    before: usize,
    after: usize,
}

/// A game being read from text: each move line is played at once, so errors name the line.
pub(crate) struct Reader {
    start: AnyGame,
    game: AnyGame,
    players: Vec<PlayerRecord>,
    spans: Vec<Span>,
}

impl Reader {
    /// Creates the game `id` from the header.
    pub fn new(id: &str, setup: &Setup) -> Result<Reader, RecordError> {
        let pairs: Vec<String> = setup.options.iter().map(|(p, _)| p.clone()).collect();
        let position = setup.position.as_ref().map(|(p, _)| p.as_str());
        let start = new_game(id, &pairs, position, setup.seed).map_err(|e| {
            // Blame the position's line, or the line of the option that fails on its own.
            let line = match (&e, &setup.position) {
                (NewGameError::Position(_), Some((_, line))) => *line,
                _ => setup
                    .options
                    .iter()
                    .find(|(pair, _)| new_game(id, std::slice::from_ref(pair), None, 0).is_err())
                    .or(setup.options.first())
                    .map_or(setup.line, |(_, line)| *line),
            };
            error(line, e.to_string())
        })?;
        let mut players: Vec<PlayerRecord> = Seat::all(start.seat_count())
            .map(|seat| default_player(&start, seat))
            .collect();
        for (seat, name, line) in &setup.names {
            players
                .get_mut(*seat)
                .ok_or_else(|| error(*line, format!("this game has no seat {}", seat + 1)))?
                .name
                .clone_from(name);
        }
        for (seat, kind, line) in &setup.kinds {
            players
                .get_mut(*seat)
                .ok_or_else(|| error(*line, format!("this game has no seat {}", seat + 1)))?
                .kind
                .clone_from(kind);
        }
        Ok(Reader {
            game: start.clone(),
            start,
            players,
            spans: Vec::new(),
        })
    }

    /// The game as read so far.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// An error on `line` if the game is over: no move may follow the end.
    pub fn check_not_over(&self, line: usize) -> Result<(), RecordError> {
        let Some(outcome) = self.game.outcome() else {
            return Ok(());
        };
        let verdict = match outcome.winner() {
            Some(seat) => format!("{} won", self.game.seat_name(seat)),
            None => "a draw".to_string(),
        };
        Err(error(
            line,
            format!("the game is already over: {verdict} ({})", outcome.reason),
        ))
    }

    /// Plays the turn (or the start of a turn) on `line`.
    pub fn play(&mut self, line: usize, text: &str) -> Result<(), RecordError> {
        self.check_not_over(line)?;
        let before = self.game.entry_count();
        self.game
            .play(text)
            .map_err(|e| error(line, e.to_string()))?;
        self.spans.push(Span {
            line,
            before,
            after: self.game.entry_count(),
        });
        Ok(())
    }

    /// `ending` on `line`: `seat` resigns or runs out of time, or the seats agree on a draw
    /// (`seat` is then not used).
    pub fn end(&mut self, line: usize, ending: Ending, seat: Seat) -> Result<(), RecordError> {
        self.check_not_over(line)?;
        let before = self.game.entry_count();
        ending.apply(&mut self.game, seat);
        if self.game.entry_count() == before {
            let name = self.game.seat_name(seat);
            return Err(error(line, format!("{name} cannot leave the game here")));
        }
        self.spans.push(Span {
            line,
            before,
            after: before + 1,
        });
        Ok(())
    }

    /// Checks that every line held exactly one turn and that the claimed result is the
    /// replayed one, then gives the record.
    pub fn finish(mut self, claim: Option<(Claimed, usize)>) -> Result<GameRecord, RecordError> {
        self.check_one_turn_per_line()?;
        if let Some((claimed, line)) = claim {
            let replayed = match self.game.outcome().map(|o| o.verdict) {
                None => Claimed::InProgress,
                Some(Verdict::Win(seat)) => Claimed::Win(seat),
                Some(Verdict::Draw) => Claimed::Draw,
            };
            if claimed != replayed {
                let describe = |c: Claimed| match c {
                    Claimed::InProgress => "the game goes on".to_string(),
                    Claimed::Win(seat) => format!("{} wins", self.game.seat_name(seat)),
                    Claimed::Draw => "a draw".to_string(),
                };
                let why = self
                    .game
                    .outcome()
                    .map_or_else(String::new, |o| format!(" ({})", o.reason));
                return Err(error(
                    line,
                    format!(
                        "the result says {}, but the moves give {}{why}",
                        describe(claimed),
                        describe(replayed)
                    ),
                ));
            }
        }
        self.game.set_players(self.players);
        Ok(self.game.record())
    }

    /// Each line must be one turn of the history: not two, not half of one that the next line
    /// finishes.
    fn check_one_turn_per_line(&self) -> Result<(), RecordError> {
        let mut state = self.start.clone();
        let mut bounds = vec![0];
        for turn in self.game.history() {
            if let Some(ending) = Ending::of_history(&turn.text) {
                ending.apply(&mut state, turn.seat);
            } else if state.play(&turn.text).is_err() {
                // Cannot happen (the history is canonical); skip the check rather than fail.
                return Ok(());
            }
            bounds.push(state.entry_count());
        }
        for span in &self.spans {
            let (Ok(start), Ok(end)) = (
                bounds.binary_search(&span.before),
                bounds.binary_search(&span.after),
            ) else {
                return Err(error(
                    span.line,
                    "this line stops in the middle of a turn that the next line goes on with: \
                     write one whole turn per line",
                ));
            };
            if end != start + 1 {
                return Err(error(
                    span.line,
                    "this line holds more than one turn: write one turn per line",
                ));
            }
        }
        Ok(())
    }
}
