//! Qawale's random playout (`Rules::play_randomly`): whole turns drawn and played in one loop,
//! without building an action per decision and without the per-decision bookkeeping of the
//! pending sowing and of the stones in hand, whose key terms cancel over a complete turn. It
//! makes the same decisions from the same generator as draw-then-apply.

use ludus_engine::bits::{below, select_bit16};
use ludus_engine::Rules;
use rand::Rng;

use super::state::{side_key, stone_key_code, Qawale, Sowing, Stone};
use super::tables::{lines_of, NEIGHBOUR, NEXT_DIRS, NO_DIR};

/// The most decisions one turn takes: the stack, then one step per stone of the tallest
/// stack (all 24 stones, the placed one included).
const LONGEST_TURN: u64 = 1 + 24;

/// A square's bit in each of the three top sets packed 16 bits apart.
const EVERY_COLOUR: u64 = 1 | 1 << 16 | 1 << 32;

/// The allowed steps from a square after a previous direction, listed by rank among the
/// allowed directions (lowest direction index first, the order `draw_bit` ranks them in).
/// 16 bytes, so that the table is indexed by a shift.
#[derive(Clone, Copy)]
struct Steps {
    /// How many steps are allowed (always at least one: a square has two neighbours or more).
    count: u32,
    /// The direction index of each rank.
    dirs: [u8; 4],
    /// The square each rank's step drops on.
    targets: [u8; 4],
    /// The [`STEPS`] index after each rank's step, so that the walk's next look-up waits on
    /// one load rather than on arithmetic as well.
    next: [u8; 4],
}

/// The [`STEPS`] index of a square and a previous direction (or `NO_DIR`).
const fn steps_index(square: usize, last: usize) -> usize {
    square * 8 + last
}

/// [`Steps`] by [`steps_index`], so that a step is one draw and one look-up instead of a
/// population count, a selection and a neighbour look-up.
const STEPS: [Steps; 128] = {
    let empty = Steps {
        count: 0,
        dirs: [0; 4],
        targets: [0; 4],
        next: [0; 4],
    };
    let mut table = [empty; 128];
    let mut square = 0;
    while square < 16 {
        let mut last = 0;
        while last < 5 {
            let entry = &mut table[steps_index(square, last)];
            let mut dir = 0;
            while dir < 4 {
                if NEXT_DIRS[square][last] & (1 << dir) != 0 {
                    if let Some(to) = NEIGHBOUR[square][dir] {
                        let rank = entry.count as usize;
                        entry.dirs[rank] = dir as u8;
                        entry.targets[rank] = to.to_usize() as u8;
                        entry.next[rank] = steps_index(to.to_usize(), dir) as u8;
                        entry.count += 1;
                    }
                }
                dir += 1;
            }
            last += 1;
        }
        square += 1;
    }
    table
};

/// The three top sets packed 16 bits apart.
fn packed(tops: [u16; 3]) -> u64 {
    u64::from(tops[0]) | u64::from(tops[1]) << 16 | u64::from(tops[2]) << 32
}

/// The three top sets of [`packed`].
fn unpacked(tops: u64) -> [u16; 3] {
    [tops as u16, (tops >> 16) as u16, (tops >> 32) as u16]
}

impl Qawale {
    /// Plays uniformly random decisions until the game ends or `max_decisions` are made;
    /// returns how many were made. Whole turns go through [`Qawale::play_random_turn`] while
    /// the budget holds the longest turn; a pending sowing and the last decisions of a budget
    /// go through draw-then-apply.
    pub(super) fn play_out<R: Rng + ?Sized>(&mut self, rng: &mut R, max_decisions: u64) -> u64 {
        let mut made = 0;
        while self.core.outcome.is_none() && made < max_decisions {
            if !self.is_sowing() && max_decisions - made >= LONGEST_TURN {
                // The top sets and the key stay in registers from turn to turn, written
                // back only when the run of whole turns stops or a judgement reads them.
                let (mut tops, mut key) = (packed(self.tops), self.key);
                while self.core.outcome.is_none() && max_decisions - made >= LONGEST_TURN {
                    made += self.play_random_turn(rng, &mut tops, &mut key);
                }
                self.tops = unpacked(tops);
                self.key = key;
            } else if let Some(action) = self.random_action(rng, &mut Vec::new()) {
                self.apply(action);
                made += 1;
            }
        }
        made
    }

    /// Plays one whole random turn from a turn boundary (game not over); returns its number of
    /// decisions (the stack, then one step per stone). Over a complete turn the key terms of
    /// the stones in hand and of the pending sowing cancel, so the key only loses the lifted stones, gains the dropped ones and
    /// changes side; the sowing is left as the last step leaves it.
    fn play_random_turn<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        packed_tops: &mut u64,
        packed_key: &mut u64,
    ) -> u64 {
        let occupied = unpacked(*packed_tops);
        let occupied = occupied[0] | occupied[1] | occupied[2];
        let origin = select_bit16(occupied, below(rng, occupied.count_ones())) as usize & 15;
        let height = self.heights[origin] as usize;
        let mover = self.core.to_move;
        let mut stones = self.stacks[origin] | (Stone::of(mover) as u64) << (2 * height);
        self.stacks[origin] = 0;
        self.heights[origin] = 0;
        self.hands[mover] -= 1;
        // The three top sets packed 16 bits apart in one register: a drop clears the square
        // in all of them and sets it in its stone's with no store and reload through memory.
        let mut tops = *packed_tops & !(EVERY_COLOUR << origin);
        // Each stone's term at its origin level is taken out as it is dropped; the placed
        // stone (level `height`) was never on the board, so its term goes in first and
        // cancels, with no test inside the loop.
        let placed = Stone::of(mover) as usize;
        let mut key = *packed_key ^ side_key() ^ stone_key_code(origin, height, placed);
        let (mut walk, mut path) = (steps_index(origin, NO_DIR as usize), 0u64);
        for i in 0..=height {
            let stone = (stones & 3) as usize;
            stones >>= 2;
            key ^= stone_key_code(origin, i, stone);
            let steps = &STEPS[walk & 127];
            let rank = below(rng, steps.count) as usize & 3;
            let (dir, to) = (steps.dirs[rank] as usize, steps.targets[rank] as usize & 15);
            walk = steps.next[rank] as usize;
            path |= (dir as u64) << (2 * i);
            let level = self.heights[to] as usize;
            self.stacks[to] |= (stone as u64) << (2 * level);
            self.heights[to] += 1;
            key ^= stone_key_code(to, level, stone);
            tops = tops & !(EVERY_COLOUR << to) | 1 << (16 * stone + to);
        }
        *packed_tops = tops;
        *packed_key = key;
        let tops = unpacked(tops);
        self.sowing = Sowing {
            origin: origin as u8,
            at: (walk / 8) as u8,
            last: (walk % 8) as u8,
            stones: 0,
            left: 0,
            path,
            steps: height as u8 + 1,
        };
        self.core.turn += 1;
        self.core.to_move = mover.opponent();
        // Most turns make no line and leave stones in hand: one test without a branch per
        // line, and the full judgement only when something may have ended the game.
        if lines_of(tops[1]) | lines_of(tops[2]) != 0 || self.hands[mover.opponent()] == 0 {
            self.tops = tops;
            self.core.outcome = self.judge(mover);
        }
        height as u64 + 2
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};

    use super::super::rules::{BothLines, FirstPlayer, QawaleOptions};
    use super::*;

    fn summary(state: &Qawale) -> (String, u64, u32, Option<String>, Sowing) {
        let outcome = state.outcome().map(ToString::to_string);
        let at = (state.position(), state.key(), state.turn());
        (at.0, at.1, at.2, outcome, state.sowing)
    }

    fn variants() -> Vec<QawaleOptions> {
        let with = |first_player, both_lines| QawaleOptions {
            first_player,
            both_lines,
        };
        vec![
            QawaleOptions::default(),
            with(FirstPlayer::Light, BothLines::Draw),
            with(FirstPlayer::Random, BothLines::MoverWins),
            with(FirstPlayer::Random, BothLines::Draw),
        ]
    }

    #[test]
    fn the_fast_loop_plays_the_same_games_as_draw_and_apply() {
        ludus_engine::testkit::check_playout_loop(&variants(), 400, summary);
    }
}
