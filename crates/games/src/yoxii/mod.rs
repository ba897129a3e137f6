//! Yoxii (Jérémy Partinico, Cosmoludo 2022): move the shared Totem, then place one of your
//! valued pieces next to it; when the player to move cannot move the Totem, the points of the
//! pieces around it decide. The rules are specified in `shared/rules/yoxii.md` (the Ludus
//! specs folder, next to the workspace); section numbers below refer to it.
//!
//! ```text
//!         a  b  c  d  e  f  g
//!     7         c7 d7 e7              rank 7 and 1: c-e
//!     6      b6 c6 d6 e6 f6           rank 6 and 2: b-f
//!     5   a5 b5 c5 d5 e5 f5 g5        ranks 3-5:    a-g
//!     4   a4 b4 c4 d4 e4 f4 g4        the Totem starts on d4
//!     3   a3 b3 c3 d3 e3 f3 g3
//!     2      b2 c2 d2 e2 f2           cut corners (off the board):
//!     1         c1 d1 e1              a1 b1 f1 g1 a2 g2 a6 g6 a7 b7 f7 g7
//! ```
//!
//! **Decisions.** A turn is two decisions by the same seat: the Totem move, written as its
//! destination (`d5`), then the placement, written `value@square` (`3@d4`; the seed's letters
//! `O T Y X` are read for 1–4). A turn reads `d5 3@d4` (also `d5,3@d4` on input).
//! [`Game::turn`](ludus_engine::Game::turn) counts placements, so one turn of perft from the
//! start counts 8 × 32 = 256 decision pairs.
//!
//! ```
//! use ludus_engine::{perft, Notation, Rules};
//! use ludus_games::yoxii::{Yoxii, YoxiiOptions};
//!
//! let start = Yoxii::new(&YoxiiOptions::default(), 0);
//! let mut game = start.clone();
//! for action in game.parse_turn("d5 3@d4").unwrap() {
//!     game.apply(action);
//! }
//! assert_eq!(game.position(), ".../...../...#.../...Y.../......./...../... r");
//! assert_eq!(game.turn(), 1);
//! // Complete turns from the start (spec §7, §8 Y1), then two and three turns.
//! assert_eq!(perft(&start, 1), 256);
//! assert_eq!(perft(&start, 2), 51_136);
//! ```
//!
//! **Position strings** are those of spec §6, plus our extension for a turn in progress: a
//! third field `place` when the Totem has moved and the placement is pending (§6 has no form
//! for it). The turn count of a position string is the number of pieces on the board.
//!
//! **Decisions of ours where the spec is silent.**
//! - §4.3's defensive rule (the player to move can move the Totem but holds no piece) ends the
//!   game with the reason "no pieces left: …"; it cannot arise from any valid position string
//!   (the piece-count checks rule it out), so it is only a safety net.
//! - The outcome reason is "totem surrounded: White 17 – Red 12", followed by
//!   ", tie-break: Red has more pieces around the totem (6 to 2)" when the count decided, or
//!   ", tie-break: 4 pieces each around the totem" for a draw with `tiebreak=adjacent_count`.
//! - A pending placement position is not checked for how the Totem got there (its origin is
//!   not recorded); it must have an empty square.

mod docs;
mod encoding;
mod ending;
mod eval;
#[cfg(test)]
mod eval_reference;
mod fixed_eval;
mod notation;
mod random;
mod record;
mod rules;
mod state;
mod symmetry;
mod tables;
mod turns;
mod view;

pub(crate) use record::RECORD;

/// What the tests that run over every game play of Yoxii: every option changed at least once.
pub(crate) static TESTS: crate::TestData = crate::TestData {
    variants: &[&["first_player=red", "tiebreak=none"]],
    // Only a5 2@b4 (1 of 28 turns) leaves Red no Totem move with White ahead.
    win_in_one: "tO./oY..t/.TtOyYO/t#YX.o./YXXxoyT/xt.Yy/... w",
};

pub use eval::greedy_turn;
pub use notation::{format_action, parse_syntax, Syntax};
pub use rules::{FirstPlayer, Tiebreak, YoxiiAction, YoxiiOptions};
pub use state::{Piece, Yoxii, INITIAL_HAND, RED, WHITE};
pub use tables::{BadCell, Square, NEIGHBOURS, ON_BOARD};
pub use view::cell_id;
