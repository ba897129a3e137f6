//! What Replica tells people about itself: the rules summary and the notation legend that
//! front ends show, and the computer player that plays its level 5. The registry reads all three
//! through [`GameInfo`](ludus_engine::GameInfo).

/// The rules in a few paragraphs, written from the spec, with how to play by pointing.
pub(super) const RULES: &str = "\
Replica on an 8x8 board. Each player has 12 pieces in a corner block; the piece on the very \
corner is a king. White begins from a1, Black from h8.

A turn is one action:
- Step: move a piece one square forward (towards the enemy corner: straight, sideways towards it, \
or diagonally) onto a square without a friendly piece, capturing an enemy there.
- Jump: a piece behind a line of friendly pieces jumps along that line to the first square without \
a friendly piece, capturing an enemy there. It cannot pass enemies or empty squares.
- Transform: turn one of your ordinary pieces into a king, if one of your kings sees it. By \
default a king sees along its three forward lines (an option allows all eight); only enemy pieces \
block the view.

You win by bringing a king to the opposite corner or by capturing any enemy king. There are no \
draws.

Playing here: select a piece, then the square it moves to; to transform a piece, select it \
twice.";

/// How moves are written, with examples.
pub(super) const NOTATION: &str = "\
Squares are named like a chessboard's, `a1` to `h8`.
- A move (step or jump): `b4-c5`; a capture may be written with `x`, `f6xe5`.
- A transform: the square and `*`, `b2*`.
- Also read: the original program's form, the square and a direction mark (`A1|`, `C3/`, `B2x`).";

/// Level 5: the configuration that scored best against level 4 in the arena at 100 ms a
/// decision (30-40 games), confirmed by a 400-game ladder; `docs/STRENGTH.md` has the commands
/// and the numbers.
// Quiescence on captures and corner wins: 70 % against level 4 (MCTS: 5-25 %). `fill=false`
// keeps the half-time stop even with helper threads (where alpha-beta otherwise fills its
// time): at 100 ms, two threads gained +73 over one without `fill` and +32 with it.
pub(super) const STRONGEST: &str = "ai:alphabeta:quiesce=true,fill=false";
