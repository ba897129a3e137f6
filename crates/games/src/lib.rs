//! The five Ludus games and the registry that names them.
//!
//! A game is its folder plus one row of the registry ([`registry`]). Every folder follows the
//! same map, with the same public names:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the board diagram, the decisions taken where the spec is silent, a runnable example, the public names |
//! | `state.rs` | the state type `<Game>` and the mechanics of a decision |
//! | `rules.rs` | the rules options `<Game>Options` (described once, as `GameOptions::DESCRIPTIONS`), the decision type `<Game>Action`, and `impl Rules` (the state machine) with its [`GameInfo`](ludus_engine::GameInfo) |
//! | `notation.rs` | `impl Notation`: actions and position strings in the spec's notation |
//! | `view.rs` | `impl Presentation`: the [`BoardView`](ludus_engine::BoardView) and what a person clicks |
//! | `eval.rs` | the heuristics for computer players |
//! | `tables.rs` | precomputed geometry: the cell type, directions, lines |
//! | `docs.rs` | for people: the rules summary, the notation legend, the strongest player |
//! | `record.rs` | the plain-text record format (a [`TextFormat`]) |
//! | `encoding.rs` | action ids and observation tensors for learning libraries (an [`Encoding`](ludus_engine::Encoding)) |
//!
//! Where a concern outgrows its file it gets its own: `moves.rs` (Splut!, Replica: the
//! decision type with its generation) and `position.rs` (Splut!'s position strings); a
//! game whose evaluation was rewritten for speed keeps the evaluation as first written in
//! `eval_reference.rs` (tests only), which the fast one must reproduce bit for bit. The
//! public names are the same in every folder: `<Game>`, `<Game>Action`, `<Game>Options`,
//! the cell type with its parse error `BadCell`, `Syntax` for the position-free first stage
//! of parsing notation (Qilin, Splut!, Replica, Yoxii) and `Dir` for a direction (Splut!,
//! Qawale, Replica).
//!
//! The registry maps a name (`qawale`) to the game type, for code that picks a game at run
//! time, and gives front ends everything about a game (see [`rules_summary`],
//! [`notation_legend`], [`strongest_spec`], [`record_format`]). The [`records`] module reads
//! and writes the text records through each game's format. `docs/ADDING_A_GAME.md` lists what
//! a new game touches.
#![warn(missing_docs)]

#[cfg(feature = "extra-game")]
pub mod nim;
pub mod qawale;
pub mod qilin;
pub mod records;
pub mod registry;
pub mod replica;
pub mod splut;
pub mod weights;
pub mod yoxii;

pub use records::{
    load_record_file, record_from_text, record_to_text, save_record_file, TextFormat,
};
pub use registry::{
    dispatch, game_count_in_words, game_entry, game_ids, game_info, load_record, new_game,
    notation_legend, record_format, rules_summary, strongest_spec, test_setups, GameEntry,
    GameVisitor, NewGameError, TestData, UnknownGame, ENTRIES, GAMES,
};
