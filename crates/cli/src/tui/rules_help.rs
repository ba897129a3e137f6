//! Short rules summaries, one per game, written from the specifications in `shared/rules/`,
//! and the list of keys. Shown on the rules page from the menu, the setup screen and the game.

/// The rules summary of the game `id`.
pub fn rules(id: &str) -> &'static str {
    match id {
        "qilin" => QILIN,
        "splut" => SPLUT,
        "qawale" => QAWALE,
        "replica" => REPLICA,
        "yoxii" => YOXII,
        _ => "No rules summary for this game.",
    }
}

const QILIN: &str = "\
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

const SPLUT: &str = "\
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

const QAWALE: &str = "\
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

const REPLICA: &str = "\
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

const YOXII: &str = "\
Yoxii on a 7x7 board with the corners cut off (37 squares). The neutral totem starts in the \
centre. Each player has pieces worth 1 (x5), 2 (x5), 3 (x5) and 4 (x3). White begins.

A turn has two parts, both compulsory:
1. Move the totem one square in any of the eight directions onto an empty square, or jump it over \
an unbroken line of your own pieces to the first empty square behind them.
2. Place one of your pieces, of any value you still hold, on an empty square next to the totem. If \
none is free, place it on any empty square.

The game ends when the player to move cannot move the totem. Each player then adds up the values \
of their pieces around the totem; the higher total wins. On equal totals, more pieces around the \
totem wins; if that is equal too, it is a draw (the tie-break is an option).

Playing here: select the totem's destination, then the square for your piece; a chooser asks for \
the value.";

/// The keys, for every rules page.
pub const KEYS: &str = "\
Keys
  arrows, mouse     move the cursor / click a cell
  Enter, space      select the cell under the cursor
  : or /            type a move in notation (a decision or a whole turn)
  Esc               clear the selection; otherwise back to the menu
  h                 hint (the move the level-4 computer would play)
  u / r             undo / redo (against a computer: back to your last decision)
  s                 save the game (asks for a file name)
  R                 resign
  p / n             pause the computers / let them play one decision
  + / -             computer moves faster / slower (a delay to watch them)
  m                 back to the menu
  ?                 this page
  q                 quit

At the end of a game: s save, v replay (arrows step, Home/End), a play again, m menu.";
