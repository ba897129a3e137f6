//! What Qilin Chess XiaSanZi tells people about itself: the rules summary and the notation legend that
//! front ends show, and the computer player that plays its level 5. The registry reads all three
//! through [`GameInfo`](ludus_engine::GameInfo).

/// The rules in a few paragraphs, written from the spec, with how to play by pointing.
pub(super) const RULES: &str = "\
Qilin Chess, XiaSanZi: a mill game on three nested squares joined by their midpoints and by four \
corner diagonals (24 points, 20 lines of three).

Stage 1, placing. Red begins. Each player has 18 pieces and puts one on an empty point per turn. \
Every line of three of your colour that the new piece completes lets you press one opposing piece: \
it is pinned under one of yours and belongs to nobody from then on. Pressed points cannot be used.

Transition. When the board is full, every pressed point is cleared. If nothing was pressed, Red \
then Black each remove one of their own pieces (an option can make Red lose instead).

Stage 2, moving. Black begins. Slide one of your pieces along a line to an adjacent empty point. \
Each line of three the move completes removes one opposing piece of your choice.

The end. You lose with no pieces left, or when you cannot move. Long games without removals and \
repeated positions are drawn (both rules can be switched off).

Playing here: select a point to place; select a piece, then its destination to slide; select an \
opposing piece to press or remove it.";

/// How moves are written, with examples.
pub(super) const NOTATION: &str = "\
Points are named like a chessboard's squares, `a1` to `g7` (24 of them; input ignores case).
- Placement: `d1`. Slide: `a1-a4` (also `a1a4`).
- Press (placing), removal (moving) or own-piece removal (transition): `x` and the point, `xd2`.
- A turn is its decisions in a row: `a7 xd1 xc3` places on a7 and presses d1 and c3.";

/// Level 5: the configuration that scored best against level 4 in the arena at 100 ms a
/// decision (30-40 games), confirmed by a 400-game ladder; `docs/STRENGTH.md` has the commands
/// and the numbers.
// Quiescence on the removals owed in the movement stage only: 65 % (MCTS: 10-25 %).
pub(super) const STRONGEST: &str = "ai:alphabeta:quiesce=true";
