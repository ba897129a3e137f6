//! What Qawale tells people about itself: the rules summary and the notation legend that
//! front ends show, and the computer player that plays its level 5. The registry reads all three
//! through [`GameInfo`](ludus_engine::GameInfo).

/// The rules in a few paragraphs, written from the spec, with how to play by pointing.
pub(super) const RULES: &str = "\
Qawale on a 4x4 board. Neutral stacks of two stones start on the corners; each player holds 8 \
stones of their colour. Dark begins by default.

A turn: put one of your stones on top of any stack, lift the whole stack, and sow it: drop its \
stones one by one, bottom first, on a path of orthogonally adjacent squares, one stone per step. \
The path may turn and may come back to squares already visited, but it may never step straight \
back to the square it just left. Every stone must be dropped.

Only the top stones count. After a complete turn, four tops of one colour in a row, column or long \
diagonal win. A line made for the opponent counts for them; if both colours have a line, the mover \
wins (or it is a draw, by option). When both players have placed all 8 stones without a line, the \
game is drawn.

Playing here: select the stack to place on, then each square of the path in turn. The list beside \
the board shows every stack from bottom to top.";

/// How moves are written, with examples.
pub(super) const NOTATION: &str = "\
Squares are `a1` to `d4`; directions are `N`, `E`, `S`, `W`.
- A turn: the stack's square, `:`, then one direction per stone sown: `a1:NEN` places on a1's \
stack (two stones, so three with yours) and sows north, east, north.
- Also read: the squares of the path, `a1 a2 b2 b3`.";

/// Level 5: the configuration that scored best against level 4 in the arena at 100 ms a
/// decision (30-40 games), confirmed by a 400-game ladder; `docs/STRENGTH.md` has the commands
/// and the numbers.
// Deepening until the time is up: 57 % in a game where most strong games are drawn.
pub(super) const STRONGEST: &str = "ai:alphabeta:fill=true";
