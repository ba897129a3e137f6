//! What Yoxii tells people about itself: the rules summary and the notation legend that
//! front ends show, and the computer player that plays its level 5. The registry reads all three
//! through [`GameInfo`](ludus_engine::GameInfo).

/// The rules in a few paragraphs, written from the spec, with how to play by pointing.
pub(super) const RULES: &str = "\
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

/// How moves are written, with examples.
pub(super) const NOTATION: &str = "\
Squares are `a1` to `g7` without the cut corners; `#` in a position is the totem.
- A turn: the totem's destination, a space, then the value and square of the piece placed: \
`d5 3@d4` moves the totem to d5 and places a 3 on d4.
- Also read: a comma instead of the space (`d5,3@d4`) and the original letters `O T Y X` for \
the values 1 to 4.";

/// Level 5: the configuration that scored best against level 4 in the arena at 100 ms a
/// decision, confirmed by an SPRT run and a ladder; `docs/STRENGTH.md` has the commands and
/// the numbers.
// Alpha-beta with quiescence on placements (the evaluation falls only between turns) and
// forward pruning of the middle values below the root (`Heuristic::is_pruned` in eval.rs):
// with placements of only the smallest and largest value held, the search goes about two
// decisions deeper in the same time. Against level 4, 200 games each: +52 and +96 on two
// seeds, and SPRT (elo0=0, elo1=50) accepted +50 after 127 games (+78 ± 58). Quiescence alone
// was +30 and -14 on the same seeds: level with level 4, whose tuned evaluation it shares.
pub(super) const STRONGEST: &str = "ai:alphabeta:quiesce=true,prune=true";
