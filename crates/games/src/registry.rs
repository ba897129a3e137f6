//! The registry: game names to game types, and erased constructors for user interfaces.
//!
//! Code that is generic over a game (perft, bench, agents) is written once as a
//! [`GameVisitor`] and run with [`dispatch`] on a name typed by the user.

use ludus_engine::{
    parse_options, AnyGame, Encoding, Game, GameInfo, GameRecord, Heuristic, OptionsError,
    PositionError, RecordError, Session,
};
use thiserror::Error;

/// Every game, in menu order.
pub const GAMES: &[&GameInfo] = &[
    &crate::qilin::Qilin::INFO,
    &crate::splut::Splut::INFO,
    &crate::qawale::Qawale::INFO,
    &crate::replica::Replica::INFO,
    &crate::yoxii::Yoxii::INFO,
];

/// A game name the registry does not know.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown game '{0}': expected one of qilin, splut, qawale, replica, yoxii")]
pub struct UnknownGame(pub String);

/// Generic code to run on the game a name designates.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with `G` as the game type. Every game also has action ids and observation
    /// tensors ([`Encoding`]); visitors that do not need them may leave the bound out.
    fn visit<G: Game + Heuristic + Encoding>(self) -> Self::Output;
}

/// Runs `visitor` with the game called `id`.
pub fn dispatch<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output, UnknownGame> {
    match id.to_ascii_lowercase().as_str() {
        "replica" => Ok(visitor.visit::<crate::replica::Replica>()),
        "yoxii" => Ok(visitor.visit::<crate::yoxii::Yoxii>()),
        "qawale" => Ok(visitor.visit::<crate::qawale::Qawale>()),
        "qilin" => Ok(visitor.visit::<crate::qilin::Qilin>()),
        "splut" => Ok(visitor.visit::<crate::splut::Splut>()),
        _ => Err(UnknownGame(id.to_string())),
    }
}

/// The description of the game called `id`.
pub fn game_info(id: &str) -> Result<&'static GameInfo, UnknownGame> {
    GAMES
        .iter()
        .copied()
        .find(|info| info.id.eq_ignore_ascii_case(id))
        .ok_or_else(|| UnknownGame(id.to_string()))
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
