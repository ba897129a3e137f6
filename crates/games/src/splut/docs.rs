//! What Splut! tells people about itself: the rules summary and the notation legend that
//! front ends show, and the computer player that plays its level 5. The registry reads all three
//! through [`GameInfo`](ludus_engine::GameInfo).

/// The rules in a few paragraphs, written from the spec, with how to play by pointing.
pub(super) const RULES: &str = "\
Splut! for 2, 3 or 4 players on a diamond board (9 across by default; the original program \
allowed any odd size from 9). A rock stands on each of the four tips. Every player has a \
Sorcerer (S), a Dwarf (D) and a Stonetroll (T).

Turns go clockwise. The very first turn has 1 step, the second 2, every later turn 3. A step \
moves one of your pieces one square north, east, south or west; steps may be split among your \
pieces, and all of them must be used.

Sorcerer: moves to an empty square and may levitate one rock anywhere on the board one square in \
the same direction, onto an empty square. Not a rock moved during the previous turn (marked as \
locked), and only one rock per turn, in one unbroken run of steps.

Dwarf: moves, or pushes the whole line of pieces in front of it one square, if the far end is \
not the edge of the board.

Stonetroll: moves to an empty square and may pull a rock from right behind it. Stepping onto a \
rock makes it throw the rock in a direction you choose; the throw ends the turn. The rock flies \
over dwarves and stops before another rock, a troll or the edge. A Sorcerer in its path is hit \
and its whole team leaves the game. A dwarf under the spot where it stops is crushed.

The last player with a Sorcerer wins.

Playing here: select a piece, then the square it steps to; a small chooser asks whether to pull, \
which way to throw, or which rock to levitate.";

/// How moves are written, with examples.
pub(super) const NOTATION: &str = "\
Squares are named by file and rank, `e1` to `e9` on the official board.
- A step: the piece (`S` Sorcerer, `D` Dwarf, `T` Stonetroll), its square, `-`, the square it \
steps to: `Sd2-d3`, `De2-e3`.
- Troll pull: `Td4-d5p`. Troll throw: `Td4-e4*n` (the direction `n`, `e`, `s` or `w`). Sorcerer \
levitation: `Sd3-d4@b5` (the rock on b5 moves too).
- The writer adds notes: `#` a sorcerer was killed, `!` a dwarf was crushed (`Td4-e4*n#`).
- Short form for typing: the piece and a direction, `Sn`, `Te*n`, `Sn@b5`. `--` passes when no \
step is legal.
- A turn is its steps separated by spaces: `Tf2-f3 Tf3-f4 Sd3-d4`.";

/// Level 5: the configuration that scored best against level 4 in the arena at 100 ms a
/// decision (30-40 games), confirmed by a 400-game ladder; `docs/STRENGTH.md` has the commands
/// and the numbers.
// Quiescence on throws: 53 %; MCTS lost every game to level 4.
pub(super) const STRONGEST: &str = "ai:alphabeta:quiesce=true";
