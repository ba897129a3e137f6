//! The registry: one row per game, and everything front ends learn about the games from it.
//!
//! A row names the game's type (its [`GameInfo`]: id, names, seats, options, rules summary,
//! notation legend, strongest player) and its text record format. Every list of games and
//! every "expected one of …" is generated from the rows. Code that is generic over a game
//! (perft, bench, agents) is written once as a [`GameVisitor`] and run with [`dispatch`] on a
//! name typed by the user.

use std::fmt;

use ludus_engine::{
    parse_options, AnyGame, Encoding, Game, GameInfo, GameRecord, Heuristic, OptionsError,
    PositionError, RecordError, Rules, Session,
};
use thiserror::Error;

use crate::records::TextFormat;

/// What the registry knows of one game.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// The game's static description.
    pub info: &'static GameInfo,
    /// Its plain-text record format.
    pub record: &'static dyn TextFormat,
    /// What the tests that run over every game need of it.
    pub tests: &'static TestData,
}

/// What the workspace's tests that run over every game need of a game, declared in the
/// game's folder (`TESTS` in its `mod.rs`) so that those tests keep no list of games.
#[derive(Debug)]
pub struct TestData {
    /// Option sets to play besides the defaults, as `key=value` texts: together they change
    /// every option at least once, and cover every seat count.
    pub variants: &'static [&'static [&'static str]],
    /// A position (from the usual options) whose side to move can win within its turn, by
    /// some of its turns but not all: a search that misses the win is caught.
    pub win_in_one: &'static str,
}

impl fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameEntry")
            .field("info", &self.info.id)
            .field("record", &self.record.name())
            .field("tests", self.tests)
            .finish()
    }
}

/// The rows: `folder::Type`, in menu order, each optionally under a `#[cfg]`. A new game is
/// one more row here.
macro_rules! registry {
    ($($(#[$when:meta])* $folder:ident :: $game:ident),+ $(,)?) => {
        /// Every game, in menu order.
        pub const GAMES: &[&GameInfo] = &[$($(#[$when])* &<crate::$folder::$game as Rules>::INFO),+];

        /// Every game with its record format and test data, in menu order.
        pub static ENTRIES: &[GameEntry] = &[$($(#[$when])* GameEntry {
            info: &<crate::$folder::$game as Rules>::INFO,
            record: &crate::$folder::RECORD,
            tests: &crate::$folder::TESTS,
        }),+];

        /// Runs `visitor` with the game called `id` (ignoring case).
        pub fn dispatch<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            $(
                $(#[$when])*
                if id.eq_ignore_ascii_case(<crate::$folder::$game as Rules>::INFO.id) {
                    return Ok(visitor.visit::<crate::$folder::$game>());
                }
            )+
            Err(UnknownGame(id.to_string()))
        }
    };
}

registry!(
    qilin::Qilin,
    splut::Splut,
    qawale::Qawale,
    replica::Replica,
    yoxii::Yoxii,
    // The engine's demo game, for CI only: the suite run with a game it was not written for.
    #[cfg(feature = "extra-game")]
    nim::Nim,
);

/// Every game with the option sets the tests play: each game at its defaults (no options),
/// then each of its [`TestData::variants`], in menu order.
pub fn test_setups() -> impl Iterator<Item = (&'static GameInfo, &'static [&'static str])> {
    ENTRIES.iter().flat_map(|entry| {
        std::iter::once(&[][..])
            .chain(entry.tests.variants.iter().copied())
            .map(|options| (entry.info, options))
    })
}

/// How many games there are, as a word for a sentence ("five"), or in digits past twelve.
pub fn game_count_in_words() -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(GAMES.len())
        .map_or_else(|| GAMES.len().to_string(), |word| (*word).to_string())
}

/// A game name the registry does not know.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown game '{0}': expected one of {ids}", ids = game_ids())]
pub struct UnknownGame(pub String);

/// The ids of every game, in menu order, joined by `, ` (for "expected one of …").
pub fn game_ids() -> String {
    GAMES
        .iter()
        .map(|info| info.id)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Generic code to run on the game a name designates.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with `G` as the game type. Every game also has action ids and observation
    /// tensors ([`Encoding`]); visitors that do not need them may leave the bound out.
    fn visit<G: Game + Heuristic + Encoding>(self) -> Self::Output;
}

/// The registry's row for the game called `id` (ignoring case).
pub fn game_entry(id: &str) -> Result<&'static GameEntry, UnknownGame> {
    ENTRIES
        .iter()
        .find(|entry| entry.info.id.eq_ignore_ascii_case(id))
        .ok_or_else(|| UnknownGame(id.to_string()))
}

/// The description of the game called `id`.
pub fn game_info(id: &str) -> Result<&'static GameInfo, UnknownGame> {
    Ok(game_entry(id)?.info)
}

/// The rules summary of the game `id` for people: a few paragraphs of plain text that also
/// reads as Markdown, ending with how to play by pointing at cells.
pub fn rules_summary(id: &str) -> Result<&'static str, UnknownGame> {
    Ok(game_entry(id)?.info.rules)
}

/// The notation legend of the game `id`: how moves are written, with examples (plain text,
/// Markdown lists).
pub fn notation_legend(id: &str) -> Result<&'static str, UnknownGame> {
    Ok(game_entry(id)?.info.notation)
}

/// The agent spec that plays level 5 for the game `id` (`ai:alphabeta:quiesce=true`), as the
/// game's arena measurements chose it. `ludus_ai::best_spec` reads the same entry.
pub fn strongest_spec(id: &str) -> Result<&'static str, UnknownGame> {
    Ok(game_entry(id)?.info.strongest)
}

/// The plain-text record format of the game `id` (its name, file extension, reader, writer).
pub fn record_format(id: &str) -> Result<&'static dyn TextFormat, UnknownGame> {
    Ok(game_entry(id)?.record)
}

/// Why a game could not be created.
#[derive(Debug, Error)]
pub enum NewGameError {
    /// No such game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// Bad rules options.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// A bad start position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A new game called `id` with `key=value` options, from the usual setup or from `position`.
pub fn new_game(
    id: &str,
    options: &[String],
    position: Option<&str>,
    seed: u64,
) -> Result<AnyGame, NewGameError> {
    struct New<'a> {
        id: &'a str,
        options: &'a [String],
        position: Option<&'a str>,
        seed: u64,
    }
    impl GameVisitor for New<'_> {
        type Output = Result<AnyGame, NewGameError>;
        fn visit<G: Game + Heuristic>(self) -> Self::Output {
            let options: G::Options = parse_options(self.id, self.options)?;
            Ok(match self.position {
                Some(text) => Session::<G>::from_position(text, &options)?.into(),
                None => Session::<G>::new(&options, self.seed).into(),
            })
        }
    }
    dispatch(
        id,
        New {
            id,
            options,
            position,
            seed,
        },
    )?
}

/// Replays a record of any registered game.
pub fn load_record(record: &GameRecord) -> Result<AnyGame, RecordError> {
    struct Load<'a>(&'a GameRecord);
    impl GameVisitor for Load<'_> {
        type Output = Result<AnyGame, RecordError>;
        fn visit<G: Game + Heuristic>(self) -> Self::Output {
            Ok(Session::<G>::from_record(self.0)?.into())
        }
    }
    dispatch(&record.game, Load(record)).map_err(|e| RecordError::UnknownGame(e.0))?
}
