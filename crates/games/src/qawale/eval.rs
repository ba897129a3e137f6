//! Heuristics for computer players.
//!
//! [`Heuristic::evaluate`] is the terms of `terms.rs` times their weights in `weights.txt`
//! (fitted by `ludus tune qawale`, then tuned for strength by `ludus spsa qawale`), or from
//! turn 11 on in `weights_late.txt` (fitted to positions of the last turns with their exact
//! values).
//! [`Heuristic::evaluate_v1`] (`eval=v1`), the evaluation before tuning, scores the tops of
//! the 10 lines (only the tops count, spec §4.2): open lines weighted by how many of a
//! colour's tops they hold, a bonus for lines one top short (larger for the side to move, who
//! can act on it first), and a small weight for every own top and for stones buried in tall
//! stacks that a later sowing can spread.
//!
//! [`Heuristic::seed_action_score`] is the original program's level 2 (its README, "Computer
//! Placement & Movement"): place on the stack holding most of one's own stones; for each
//! sowing step, drop on the square whose rank plus file hold most of one's own stones (the
//! square itself counts twice), or fewest when the stone being dropped is not one's own. The
//! seed swapped row and column when counting; we count the intended ones.

use ludus_engine::{Heuristic, Rules, Seat};

use super::rules::QawaleAction;
use super::state::{Qawale, Stone};
use super::tables::{Square, FILE_OF, LINES, RANK_OF};

/// Weight of an open line by the number of a colour's tops on it.
pub(super) const LINE_WEIGHT: [i32; 5] = [0, 4, 20, 80, 0];
/// Extra for a line three tops long, when its owner moves next.
pub(super) const THREAT_TO_MOVE: i32 = 150;
/// Extra for a line three tops long, when the other side moves next.
pub(super) const THREAT_WAITING: i32 = 40;
/// Each top stone of one's colour.
pub(super) const TOP: i32 = 10;
/// Each own stone under the top of a stack.
pub(super) const BURIED: i32 = 2;
/// What the seed adds to a row-and-column count when the stone to drop is not its own.
const SEED_OFFSET: i32 = 100;

impl Qawale {
    /// The score of the tops for `seat`, without the side-to-move terms.
    fn line_score(&self, seat: Seat) -> (i32, u32) {
        let mine = self.tops[Stone::of(seat) as usize];
        let theirs = self.tops[Stone::of(seat.opponent()) as usize];
        let mut score = 0;
        let mut threats = 0;
        for line in LINES {
            let (own, other) = ((mine & line).count_ones(), (theirs & line).count_ones());
            if other == 0 {
                score += LINE_WEIGHT[own as usize];
                threats += u32::from(own == 3);
            }
        }
        (score + TOP * mine.count_ones() as i32, threats)
    }

    /// How many of `stone`'s colour stand on `square`, tops included.
    fn count_on(&self, square: Square, stone: Stone) -> i32 {
        (0..self.height(square))
            .filter(|&level| self.stone_at(square, level) == stone)
            .count() as i32
    }

    /// How many of `stone`'s colour stand in the square set `squares`.
    fn count_in(&self, squares: u16, stone: Stone) -> i32 {
        Square::ALL
            .iter()
            .filter(|s| squares & s.bit() != 0)
            .map(|&s| self.count_on(s, stone))
            .sum()
    }

    /// How many stones of `stone`'s colour lie under the top of their stack. Each stack is a
    /// list of 2-bit codes, so the stones of one colour are the fields equal to its code:
    /// one XOR and one popcount per stack rather than a loop over its levels.
    pub(super) fn buried(&self, stone: Stone) -> i32 {
        const LOW_BITS: u64 = 0x5555_5555_5555_5555;
        let code = stone as u64;
        let pattern = LOW_BITS * code;
        let mut buried = 0;
        for (&stack, &height) in self.stacks.iter().zip(&self.heights) {
            let height = u32::from(height);
            // The stack's fields (at most 24, so 48 bits); a field equal to the code is 00.
            let fields = (1u64 << (2 * height)) - 1;
            let differ = (stack ^ pattern) & fields;
            let same = !(differ | differ >> 1) & LOW_BITS & fields;
            let on_top = height > 0 && (stack >> (2 * (height - 1))) & 3 == code;
            buried += same.count_ones() - u32::from(on_top);
        }
        buried as i32
    }
}

impl Heuristic for Qawale {
    /// Sowing steps: lines count only once the turn is over, so no evaluation should fall in
    /// the middle of a sowing.
    fn is_tactical(&self, action: QawaleAction) -> bool {
        matches!(action, QawaleAction::Step(_))
    }

    const TERMS: &'static [&'static str] = super::terms::TERMS;

    fn terms(&self, seat: Seat, out: &mut [f64]) {
        super::terms::terms(self, seat, out);
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        super::terms::weights(self).evaluate(self, seat)
    }

    fn evaluate_v1(&self, seat: Seat) -> i32 {
        let (mine, my_threats) = self.line_score(seat);
        let (theirs, their_threats) = self.line_score(seat.opponent());
        let threat = |threats: u32, moves: bool| {
            threats.min(2) as i32
                * if moves {
                    THREAT_TO_MOVE
                } else {
                    THREAT_WAITING
                }
        };
        let moving = self.core.to_move == seat;
        let buried = self.buried(Stone::of(seat)) - self.buried(Stone::of(seat.opponent()));
        mine - theirs + threat(my_threats, moving) - threat(their_threats, !moving)
            + BURIED * buried
    }

    fn seed_action_score(&self, action: QawaleAction) -> i32 {
        let Some(seat) = self.to_move() else {
            return 0;
        };
        let own = Stone::of(seat);
        match action {
            QawaleAction::Stack(square) => self.count_on(square, own),
            QawaleAction::Step(dir) => {
                let Some(to) = self.step_target(dir) else {
                    return i32::MIN;
                };
                let s = to.to_usize();
                let count = self.count_in(RANK_OF[s], own) + self.count_in(FILE_OF[s], own);
                if self.next_stone() == Some(own) {
                    count
                } else {
                    SEED_OFFSET - count
                }
            }
        }
    }
}
