//! The Ludus game contract.
//!
//! Every game implements [`Game`]: one action is one decision, the same seat may decide again,
//! legal actions go into the caller's buffer, the outcome is cached, the key is an incremental
//! Zobrist hash, and notation and position strings round-trip. On top of it sit the
//! [`Session`] (history, undo, records), the erased [`AnyGame`] that user interfaces drive with
//! text, and the [`BoardView`] they draw.
//!
//! ```
//! use ludus_engine::demo::{Nim, NimOptions};
//! use ludus_engine::{perft, Notation, Rules, Seat, Verdict};
//!
//! let mut game = Nim::new(&NimOptions { pile: 4 }, 0);
//! let mut actions = Vec::new();
//! game.legal_actions(&mut actions);
//! assert_eq!(actions, [1, 2]);
//! // A turn is two decisions by the same seat.
//! game.apply(2);
//! assert_eq!(game.to_move(), Some(Seat::FIRST));
//! game.apply(1);
//! assert_eq!(game.to_move(), Some(Seat::SECOND));
//! game.apply(1);
//! assert_eq!(game.outcome().unwrap().verdict, Verdict::Win(Seat::SECOND));
//! // Sequences of decisions over one complete turn from a pile of 4: 1+1, 1+2, 2+1, 2+2.
//! assert_eq!(perft(&Nim::new(&NimOptions { pile: 4 }, 0), 1), 4);
//! ```
#![deny(missing_docs)]

mod any_game;
pub mod bits;
pub mod contrast;
mod core;
pub mod demo;
pub mod encoding;
mod endgame;
mod error;
mod game;
mod grid_names;
mod notation;
mod options;
mod outcome;
mod packed;
mod perft;
mod presentation;
pub mod printable;
pub mod record;
mod record_file;
mod seat;
mod session;
pub mod testkit;
mod turn_log;
mod view;
mod zobrist;

pub use any_game::{AnyGame, ErasedGame, LegalMove};
pub use core::Core;
pub use encoding::Encoding;
pub use endgame::{EndgameProbe, Endgames, Exit, Material, Successors};
pub use error::{MoveError, OptionsError, PositionError, RecordError};
pub use game::{weighted_sum, Game, Heuristic, Rules, WIN_SCORE};
pub use grid_names::grid_name;
pub use notation::{parse_decisions, Notation};
pub use options::{
    label_of, options_from_json, options_to_pairs, parse_options, GameInfo, GameOptions,
    OptionInfo, OptionValues,
};
pub use outcome::{Outcome, Verdict};
pub use packed::PackedAction;
pub use perft::{perft, random_playout};
pub use presentation::Presentation;
pub use record::{GameRecord, PlayerRecord, ResultRecord};
pub use record_file::{read_record_text, write_atomically, MAX_RECORD_BYTES};
pub use seat::{BySeat, Seat, MAX_SEATS};
pub use session::{Entry, Session, TurnText, AGREED_DRAW_REASON};
/// The small vector behind [`Stack`] and [`InputCells`], for the games that build them.
pub use smallvec;
pub use view::{
    ActionInput, BoardView, CellId, CellShape, CellView, HandView, Hue, InputCells, PieceView,
    SeatView, Stack,
};
pub use zobrist::{splitmix64, zobrist_table};
