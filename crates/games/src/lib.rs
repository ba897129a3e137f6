//! The five Ludus games and the registry that names them.
//!
//! Each game lives in its own folder with the same files: `rules.rs` (state and rules),
//! `notation.rs` (actions and position strings), `view.rs` (the board view), `eval.rs`
//! (heuristics for computer players) and `tables.rs` (precomputed geometry). The registry
//! maps a name (`qawale`) to the game type, for code that picks a game at run time. The
//! [`records`] module reads and writes each game's plain-text record format.
#![warn(missing_docs)]

pub mod qawale;
pub mod qilin;
pub mod records;
pub mod registry;
pub mod replica;
pub mod splut;
pub mod yoxii;

pub use records::{load_record_file, record_from_text, record_to_text, save_record_file};
pub use registry::{
    dispatch, game_info, load_record, new_game, GameVisitor, NewGameError, UnknownGame, GAMES,
};
