//! Qawale: two players, a 4x4 board, stacks of stones sown Mancala-style, and four tops in a
//! row to win. The rules are [`shared/rules/qawale.md`](../../../../../shared/rules/qawale.md).
//!
//! ```text
//!     a    b    c    d
//! 4 | a4 | b4 | c4 | d4 |     N (rank + 1)
//! 3 | a3 | b3 | c3 | d3 |   W   E
//! 2 | a2 | b2 | c2 | d2 |     S (rank - 1)
//! 1 | a1 | b1 | c1 | d1 |
//! ```
//!
//! Square index = rank * 4 + file (a1 = 0, d1 = 3, a4 = 12, d4 = 15). The start has two
//! neutral stones on each corner; each player holds 8 stones.
//!
//! A turn is several decisions by the same seat: the stack (its square), then one direction per
//! stone sown. `turn()` grows when the last stone is dropped; only then are lines and the draw
//! checked. Seat 1 is Dark and seat 2 Light, whoever starts (option `first_player`).
//!
//! ```
//! use ludus_engine::{perft, Notation, Rules, Seat};
//! use ludus_games::qawale::{Qawale, QawaleOptions};
//!
//! let mut game = Qawale::new(&QawaleOptions::default(), 0);
//! assert_eq!(perft(&game, 1), 40); // 4 corners x 10 sowing paths
//! assert_eq!(perft(&game, 2), 2176);
//! for action in game.parse_turn("a1:NEN").unwrap() {
//!     game.apply(action); // the stack, then three steps
//! }
//! assert_eq!(game.position(), "NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L");
//! assert_eq!((game.turn(), game.to_move()), (1, Some(Seat::SECOND)));
//! ```
//!
//! Decisions taken where the spec left room:
//! - A position string in the middle of a turn carries the pending sowing (see [`notation`]).
//! - With `first_player = random`, a position string may have either side's stone counts
//!   consistent with either starting player.
//! - A position string whose board already shows a line is a finished game, judged as if the
//!   side not to move had just completed its turn (§4.2 applied to that turn).
//! - A turn text shorter than the stack (`b2:NEE` for 4 stones) is an unfinished turn for
//!   [`Game::parse_turn`](ludus_engine::Game::parse_turn), as saves need;
//!   [`Qawale::parse_complete_turn`] refuses it as §6 demands of a canonical move.

mod docs;
mod encoding;
mod eval;
#[cfg(test)]
mod eval_reference;
pub mod notation;
mod playout;
mod record;
mod rules;
mod state;
mod symmetry;
pub mod tables;
mod terms;
mod view;

pub(crate) use record::RECORD;

/// What the tests that run over every game play of Qawale: every option changed at least once.
pub(crate) static TESTS: crate::TestData = crate::TestData {
    variants: &[
        &["first_player=random"],
        &["first_player=light", "both_lines=draw"],
    ],
    // Spec Q4: d3:SS completes four Light tops on rank 1 (a stack, then two steps).
    win_in_one: "NN,NN,-,NN/-,-,-,D/-,-,-,-/NNDL,DL,DL,- L",
};

pub use rules::{BothLines, FirstPlayer, QawaleAction, QawaleOptions};
pub use state::{Qawale, Stone, DARK, LIGHT};
pub use tables::{BadCell, Dir, Square};
pub use terms::LATE_FROM_TURN;
