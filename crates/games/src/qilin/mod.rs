//! Qilin Chess XiaSanZi (麒麟棋 · 下三子): a morris game with presses during placement.
//! The rules are the spec `shared/rules/qilin.md` of the Ludus project; section numbers (§)
//! and scenario ids (Q-1…Q-9) below refer to it.
//!
//! ```text
//! 7  a7-----------d7-----------g7
//!    | \          |          / |
//! 6  |  b6--------d6--------f6 |
//!    |  | \       |       / |  |
//! 5  |  |  c5-----d5-----e5  |  |
//!    |  |  |             |  |  |
//! 4  a4-b4-c4            e4-f4-g4
//!    |  |  |             |  |  |
//! 3  |  |  c3-----d3-----e3  |  |
//!    |  | /       |       \ |  |
//! 2  |  b2--------d2--------f2 |
//!    | /          |          \ |
//! 1  a1-----------d1-----------g1
//!    a  b  c      d      e  f  g
//! ```
//!
//! 24 points in the canonical order `a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6
//! d6 f6 a7 d7 g7` (bits 0..23 of a `u32`), 40 edges, 20 lines of three (8 horizontal, 8
//! vertical, 4 corner diagonals).
//!
//! Red places first (stage 1, 18 pieces each, a press per completed line); the transition
//! clears pressed points (or each side removes an own piece); Black slides first in stage 2,
//! with a removal per completed line.
//!
//! ```
//! use ludus_engine::{perft, Notation, Rules};
//! use ludus_games::qilin::{Qilin, QilinOptions};
//!
//! let options = QilinOptions::default();
//! let start = Qilin::new(&options, 0);
//! assert_eq!(start.position(), "........................ place R 18/18 0");
//! assert_eq!((perft(&start, 1), perft(&start, 2)), (24, 552));
//! // Q-2: a7 completes two lines, so Red presses twice in the same turn.
//! let mut game = Qilin::from_position("RB..B.B.BR.....R..R..... place R 14/14 0", &options).unwrap();
//! for action in game.parse_turn("a7 xd1 xc3").unwrap() {
//!     game.apply(action);
//! }
//! assert_eq!(game.position(), "RP..B.P.BR.....R..R..R.. place B 11/14 0");
//! assert_eq!(game.turn(), 1);
//! ```
//!
//! **Decisions where the spec is silent** (also in the report on the issue):
//! * `protect_lines` applies to presses in stage 1 as well as to removals in stage 2 (§5 B5
//!   says "pressed or removed"); it never applies to the transition's own removals.
//! * QPN (§2) is used unchanged. In the `transition` stage the side to act owes exactly one
//!   own removal, written as pending `1`. A finished game is written with the stage it ended
//!   in (QPN has no field for the result); reading such a string gives back the result when
//!   the board shows it (no pieces, no legal move, `first_player_loses`). The draw counters
//!   (turns without removal, earlier positions) are not part of QPN and start afresh.
//! * An automatic pass (empty hand, §3.1 (b)) is not a turn; presses and removals owed are
//!   part of the turn of the placement or slide that earned them.
//! * The repetition rule remembers the last 128 movement positions since a removal, which is
//!   every one of them while `draw_no_removal_plies` ≤ 127 (default 100).
//! * Turns may be typed with the record's prefix (`13. R a7 xd1 xc3`, `T. B xa7`); the side
//!   letter must name the side to act. Records store turns without it.

mod docs;
mod encoding;
mod eval;
#[cfg(test)]
mod eval_reference;
mod notation;
mod playout;
mod random;
mod record;
mod rules;
mod slide_mask;
mod state;
mod tablebase;
mod tables;
mod terms;
mod view;

pub(crate) use record::RECORD;

/// What the tests that run over every game play of Qilin: every option changed at least once.
pub(crate) static TESTS: crate::TestData = crate::TestData {
    variants: &[
        &["min_pieces=3", "protect_lines=true"],
        &[
            "no_press_rule=first_player_loses",
            "draw_no_removal_plies=12",
            "draw_repetition=2",
        ],
    ],
    // Spec Q-6: one of 8 slides makes a line, and its removal takes Red's last piece.
    win_in_one: "...B.R...B...........B.. move B 0/0 0",
};

pub use notation::{parse_syntax, Syntax};
pub use rules::{NoPressRule, QilinAction, QilinOptions, BLACK, RED};
pub use state::{Qilin, Stage};
pub use tables::{
    BadCell, Point, Points, ADJACENT, EDGES, LINES, LINE_POINTS, POINT_COUNT, POINT_NAMES,
};

impl Qilin {
    /// The stage of the game.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Pieces in hand: Red's, Black's.
    pub fn hands(&self) -> ludus_engine::BySeat<u8, 2> {
        self.hands
    }

    /// Presses, removals or (in the transition) own removals the side to act still owes.
    pub fn pending(&self) -> u8 {
        self.pending
    }
}
