//! Qilin's random playout (`Game::play_randomly`). Most decisions of a random game are quiet
//! slides of the movement stage; those run here in one tight loop with the board, key and
//! counters in registers, and every other decision (placements, presses, the transition,
//! removals) goes through [`Qilin::draw_action`] and [`Qilin::play`]. The loop draws exactly
//! as `draw_action` does and ends each turn as `play` does, so a playout makes the same
//! decisions, reaches the same state and leaves the generator in the same state as the plain
//! loop of `random_action` and `apply` (tested below); only the work per slide is smaller.

use ludus_engine::bits::draw_bit;
use rand::Rng;

use super::slide_mask::{slide_mask, EDGE_AT};
use super::state::{piece_key, Qilin, Stage, SIDE_FLIP};
use super::tables::{lines_through, neighbours, Point, ALL_POINTS};

/// For each side and each bit of the slide mask, the key change of a slide along that edge:
/// the same either way, since the piece leaves one end and arrives at the other.
const EDGE_KEYS: [[u64; 64]; 2] = {
    let mut keys = [[0; 64]; 2];
    let mut bit = 0;
    while bit < 64 {
        let ends = EDGE_AT[bit];
        if ends != 0 {
            let low = Point::new(ends.trailing_zeros() as u8);
            let high = Point::new(ends.ilog2() as u8);
            keys[0][bit] = piece_key(low, 0) ^ piece_key(high, 0);
            keys[1][bit] = piece_key(low, 1) ^ piece_key(high, 1);
        }
        bit += 1;
    }
    keys
};

/// Why a run of quiet slides stopped.
enum Stop {
    /// The last slide completed this many lines: its removals are owed.
    Line(u32),
    /// The game ended at the start of the next turn; the position has occurred this often.
    End(u32),
    /// The budget of decisions is spent.
    Budget,
}

impl Qilin {
    /// Plays random decisions until the game ends or `max_decisions` have been made; returns
    /// how many were made.
    pub(super) fn play_out<R: Rng + ?Sized>(&mut self, rng: &mut R, max_decisions: u64) -> u64 {
        let mut decisions = 0;
        while decisions < max_decisions {
            if self.stage == Stage::Move && self.pending == 0 && self.core.outcome.is_none() {
                decisions += self.slide_randomly(rng, max_decisions - decisions);
            } else if let Some(action) = self.draw_action(rng) {
                self.play(action);
                decisions += 1;
            } else {
                break;
            }
        }
        decisions
    }

    /// Random slides, the sides alternating, until one completes a line, the game ends or
    /// `budget` (at least 1) slides are made; returns how many were made. The game must be
    /// on, in the movement stage, with nothing owed.
    fn slide_randomly<R: Rng + ?Sized>(&mut self, rng: &mut R, budget: u64) -> u64 {
        // A slide changes no piece count, so the too-few test, passed at the start of this
        // turn, stays passed: only a side without a slide and the draw rules can end the game.
        let limit = self.core.options.draw_no_removal_plies;
        let repetition = u32::from(self.core.options.draw_repetition);
        let pressed = self.pressed;
        // The mover's pieces and the other side's, swapped at each turn: two registers
        // rather than an array indexed by the side, which would live in memory.
        let mut me = self.core.to_move.to_usize() & 1;
        let mut own = self.pieces[me];
        let mut theirs = self.pieces[1 - me];
        let mut key = self.key;
        let mut quiet = self.quiet;
        let mut turn = self.core.turn;
        let mut made = 0;
        let stop = loop {
            let empty = ALL_POINTS & !(own | theirs | pressed);
            let bit = draw_bit(slide_mask(own, empty), rng) as usize & 63;
            let edge = EDGE_AT[bit];
            own ^= edge;
            key ^= EDGE_KEYS[me][bit];
            quiet = quiet.saturating_add(1);
            made += 1;
            // The destination is the end of the edge that was empty.
            let to = Point::new((edge & empty).trailing_zeros() as u8 % 24);
            let lines = lines_through(own, to);
            if lines != 0 {
                break Stop::Line(lines);
            }
            // The turn ends (quiet is at least 1, so the history is kept).
            turn += 1;
            me ^= 1;
            (own, theirs) = (theirs, own);
            key ^= SIDE_FLIP;
            let count = self.history.push(key);
            if own & neighbours(ALL_POINTS & !(own | theirs | pressed)) == 0
                || (limit > 0 && quiet >= limit)
                || (repetition > 0 && count >= repetition)
            {
                break Stop::End(count);
            }
            if made == budget {
                break Stop::Budget;
            }
        };
        self.pieces[me] = own;
        self.pieces[1 - me] = theirs;
        self.key = key;
        self.quiet = quiet;
        self.core.turn = turn;
        if me != self.core.to_move.to_usize() {
            self.core.to_move = self.core.to_move.opponent();
        }
        match stop {
            Stop::Line(lines) => self.set_pending(lines as u8),
            Stop::End(count) => self.core.outcome = self.movement_outcome(count),
            Stop::Budget => {}
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};

    use super::super::rules::{NoPressRule, QilinOptions};
    use super::*;

    fn summary(state: &Qilin) -> (String, u64, u32, u16, Option<String>) {
        let outcome = state.outcome().map(ToString::to_string);
        (
            state.position(),
            state.key(),
            state.turn(),
            state.quiet,
            outcome,
        )
    }

    #[test]
    fn the_fast_loop_plays_the_same_games_as_draw_and_apply() {
        let variants = [
            QilinOptions::default(),
            QilinOptions {
                min_pieces: 3,
                protect_lines: true,
                ..QilinOptions::default()
            },
            QilinOptions {
                draw_repetition: 2,
                draw_no_removal_plies: 12,
                ..QilinOptions::default()
            },
            QilinOptions {
                draw_repetition: 0,
                draw_no_removal_plies: 0,
                no_press_rule: NoPressRule::FirstPlayerLoses,
                ..QilinOptions::default()
            },
        ];
        ludus_engine::testkit::check_playout_loop(&variants, 300, summary);
    }
}
