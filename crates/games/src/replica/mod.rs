//! Replica (Alek Erickson, 2024): race to the far corner on an 8×8 board.
//!
//! The rules are the project's spec `shared/rules/replica.md` (section numbers below refer to
//! it); this module implements them exactly. Squares are named like chess squares, `a1` lower left:
//!
//! ```text
//! 8  a8 b8 c8 d8 e8 f8 g8 h8   ← Black's home corner h8 (White's target)
//! 7  a7 b7 c7 d7 e7 f7 g7 h7
//! 6  a6 b6 c6 d6 e6 f6 g6 h6
//! 5  a5 b5 c5 d5 e5 f5 g5 h5
//! 4  a4 b4 c4 d4 e4 f4 g4 h4
//! 3  a3 b3 c3 d3 e3 f3 g3 h3
//! 2  a2 b2 c2 d2 e2 f2 g2 h2
//! 1  a1 b1 c1 d1 e1 f1 g1 h1   ← White's home corner a1 (Black's target)
//!    a  b  c  d  e  f  g  h
//! ```
//!
//! White (seat 1, first to move) advances north, east and north-east; Black south, west and
//! south-west. A piece passes over friendly pieces and lands on the first square that is empty
//! or holds an enemy (captured). A friendly king seeing a non-king (only enemies block sight;
//! option `sight` = `forward3` | `all8`) may transform it into a king. Capturing any enemy king,
//! or having a king on the target corner, wins. Every action lowers the mover's potential
//! Σ(14 − file − rank) + non-kings, so a game lasts at most 302 plies (spec §4).
//!
//! Decisions of the spec that the text leaves open, as implemented here:
//! - "No legal move" loses for the side to move (spec §4 proves it unreachable).
//! - Position strings (§1) also accept `.` for one empty square and an upper-case side to move,
//!   and are refused when no game can reach them: more than 12 pieces a side, the side that
//!   acted last without a king, or the side to move with a king already on its target corner.
//!   A parsed position whose last mover has a king on its target corner, or whose side to move
//!   has no king, is a finished game.
//! - The seed's level-2 evaluation is scaled ×100, with `3/(D+1)` rounded to hundredths.
//!
//! ```
//! use ludus_engine::{perft, Notation, Rules};
//! use ludus_games::replica::{Replica, ReplicaOptions};
//!
//! let start = Replica::new(&ReplicaOptions::default(), 0);
//! assert_eq!(perft(&start, 1), 43);
//! let mut game = start.clone();
//! let action = game.parse_action("b4-c5").unwrap();
//! game.apply(action);
//! assert_eq!(game.position(), "4bbbB/4bbbb/6bb/2w3bb/w7/ww6/wwww4/Wwww4 b");
//! ```

mod docs;
mod encoding;
mod eval;
#[cfg(test)]
mod eval_reference;
mod moves;
mod notation;
mod playout;
mod random;
mod record;
mod roster;
mod rules;
mod state;
mod tables;
mod terms;
mod view;

pub(crate) use record::RECORD;

/// What the tests that run over every game play of Replica: every option changed at least once.
pub(crate) static TESTS: crate::TestData = crate::TestData {
    variants: &[&["sight=all8"]],
    // Spec R5: g7xh8 captures the king (1 of 7 moves).
    win_in_one: "7B/6w1/8/8/8/8/8/W7 w",
};

pub use moves::ReplicaAction;
pub use notation::Syntax;
pub use rules::{ReplicaOptions, Sight};
pub use state::Replica;
pub use tables::{BadCell, Dir, Square};
