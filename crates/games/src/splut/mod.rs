//! **Splut!** (Tommy De Coninck, 2009) for 2, 3 and 4 players, on the official 9×9 diamond or
//! any odd size up to 25. The rules are `shared/rules/splut.md` (the spec): section numbers
//! below (§4.2, §8.3) are that file's.
//!
//! ```text
//! 9         e9                  North (2p: seat 2; 3p/4p: seat 3)
//! 8       d8 e8 f8
//! 7     c7 d7 e7 f7 g7
//! 6   b6 c6 d6 e6 f6 g6 h6
//! 5 a5 b5 c5 d5 e5 f5 g5 h5 i5   West (3p/4p: seat 2) on a5, East (4p: seat 4) on i5
//! 4   b4 c4 d4 e4 f4 g4 h4
//! 3     c3 d3 e3 f3 g3
//! 2       d2 e2 f2
//! 1         e1                  South (seat 1, plays first)
//!   a  b  c  d  e  f  g  h  i
//! ```
//!
//! On an N×N board the diamond is |x − c| + |y − c| ≤ c with c = (N − 1) / 2, files `a..`,
//! ranks `1..N`. Turn order is clockwise, South → West → North → East, over the seats in play;
//! colours follow turn order: Blue, Red, Green, Yellow.
//!
//! * **Turns** (§3): the first turn of the game has 1 step, the second 2, every later turn 3.
//!   Every step is one decision. A throw ends the turn at once; a seat with no legal step
//!   passes the rest of its turn (`--`, then its only legal action). [`Game::turn`] counts
//!   completed turns, so `perft` counts whole-turn step sequences as §10 does.
//! * **Steps** (§4): [`Step`] = piece kind, direction and [`Extra`] (pull, throw direction,
//!   levitated rock). Rocks keep an identity ([`RockId`], by starting tip) so the levitation
//!   lock of §4.2 follows the rock.
//! * **End** (§5): a killed sorcerer removes its team, eliminated seats are skipped, the last
//!   sorcerer standing wins. `resign(seat)` removes that seat's team the same way. Draws (our
//!   addition): `max_turns` (1000) and `repetition` (3).
//! * **Notation** (§8): steps `Sd3-d4@b5`, `Td4-e4*n#`, `Td4-d5p`, `Dc5-d5`, `--`, and the
//!   typed short form `Sn`, `Te*n`, `Sn@b5`; a turn is its steps separated by spaces; the
//!   position string of §8.3 (see `position.rs`).
//!
//! ```
//! use ludus_engine::{perft, Notation, Rules, Seat};
//! use ludus_games::splut::{Splut, SplutOptions};
//!
//! let start = Splut::new(&SplutOptions::default(), 0);
//! // §10: 3 first steps (Sd2-d3, De2-e3, Tf2-f3), 79 sequences over two turns.
//! assert_eq!(perft(&start, 1), 3);
//! assert_eq!(perft(&start, 2), 79);
//! let mut game = start.clone();
//! game.apply(game.parse_action("Sn").unwrap()); // the short form of Sd2-d3
//! assert_eq!((game.turn(), game.to_move()), (1, Some(Seat::SECOND)));
//! assert_eq!(game.parse_turn("Sf8-f7 Sf7-f6").unwrap().len(), 2);
//! ```
//!
//! Decisions where the spec left a hole, taken here:
//! * A position string needs the rocks already moved in the current turn to round-trip in the
//!   middle of a turn: they are written `moved=c6,e4` after `locked=` when there are any.
//! * The repetition draw compares the keys of the last 64 turn starts since the last kill,
//!   crush or resignation (a fixed ring, so clones stay cheap); the turn limit still ends any
//!   longer cycle.
//! * When the seat to move resigns, its turn ends there (the turn counter moves on and the
//!   rocks it moved are locked for the next seat).
//! * A step's written note (`#`, `!`) is checked: a wrong note is refused.
//! * §6.1's pass in the middle of a turn is implemented but cannot occur: every step leaves
//!   the mover next to the square it came from, which is empty (or holds the rock it just
//!   pulled, which it may step onto and throw). A `--` only happens at a turn start.
//! * A position string must agree with the options (`size=`, `seats=`): the options are
//!   never changed by a position.
//! * Squares are a `u16` newtype: a 25×25 board has more than 255 cells.

mod around;
mod docs;
mod encoding;
mod eval;
mod moves;
mod notation;
mod playout;
mod position;
mod random;
mod record;
mod rules;
mod slots;
mod state;
mod tables;
mod terms;
mod view;

pub(crate) use record::RECORD;

/// What the tests that run over every game play of Splut!: every option changed at least once.
pub(crate) static TESTS: crate::TestData = crate::TestData {
    variants: &[
        &["players=3", "max_turns=40"],
        &[
            "players=4",
            "size=11",
            "repetition=2",
            "levitate_follow=true",
        ],
        &["size=11", "max_turns=25"],
    ],
    // Spec 9.1: Td4-e4*n throws the rock onto North's sorcerer.
    win_in_one: "size=9 seats=south,north tomove=south turn=5 used=0 lev=unused locked=-\n\
                 south: Sd2 De2 Td4\nnorth: Se7 Df7 Td8\nrocks: e4 e1 a5 i5",
};

pub use moves::{Extra, SplutAction, Step};
pub use notation::{parse_syntax, Suffix, Syntax, Target};
pub use rules::SplutOptions;
pub use state::{Kind, Lev, RockId, Splut};
pub use tables::{squares, BadCell, Dir, Side, Square, MAX_SIZE, MIN_SIZE};

#[cfg(doc)]
use ludus_engine::Game;
