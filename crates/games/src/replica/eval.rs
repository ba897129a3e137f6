//! Heuristics for Replica's computer players, in hundredths of a piece.
//!
//! - [`Heuristic::evaluate`]: the terms of `terms.rs` times their weights in `weights.txt`
//!   (fitted by `ludus tune replica`).
//! - [`Heuristic::evaluate_v1`] (`eval=v1`), the evaluation before tuning: material and
//!   progress toward the target corner (a king counts like a man far from the corner, since
//!   it is also a target, and much more near it),
//!   immediate wins and threats (capturing a king, a king reaching the corner, a transform on
//!   the corner), and the best capture available to the side to move. Against the seed's
//!   evaluation at equal search depth (1–3 plies) it wins about 60–85% of games.
//! - [`Heuristic::seed_evaluate`]: the seed's level 2 (spec §9): each piece counts
//!   `2 + 3/(D+1)` for its owner, D its Manhattan distance to its owner's target corner, and a
//!   won position ±60; scaled ×100 with `300/(D+1)` rounded to the nearest integer.

use ludus_engine::{Heuristic, Rules, Seat, Verdict};

use super::moves::{ReplicaAction, FORWARD};
use super::state::{Replica, TARGET};
use super::tables::{sight_ray, Square};

/// `SEED_VALUE[D]` = 100 × (2 + 3/(D+1)), rounded, for D = 0..=14.
const SEED_VALUE: [i32; 15] = seed_values();

const fn seed_values() -> [i32; 15] {
    let mut table = [0; 15];
    let mut d = 0;
    while d < 15 {
        // Round 300/(d+1) to the nearest integer.
        table[d] = 200 + (600 / (d as i32 + 1) + 1) / 2;
        d += 1;
    }
    table
}

/// The seed's score of a won position, ×100.
const SEED_WIN: i32 = 6000;

/// Value of a piece, and the progress bonuses of men and kings by Chebyshev distance (moves
/// needed with diagonal steps) to the target corner, index 0..=7. Extra kings are no material
/// gain: each one is a piece whose capture loses the game.
pub(super) const PIECE: i32 = 100;
pub(super) const MAN_PROGRESS: [i32; 8] = [40, 36, 30, 24, 18, 12, 6, 0];
pub(super) const KING_PROGRESS: [i32; 8] = [0, 400, 200, 100, 50, 20, 0, 0];

/// Scores of threats: the side to move wins at once; the side that just moved threatens.
pub(super) const WIN_NOW: i32 = 50_000;
pub(super) const ONE_THREAT: i32 = 250;
pub(super) const MANY_THREATS: i32 = 1_500;

/// Manhattan distance from `square` to `side`'s target corner.
fn manhattan(square: Square, side: usize) -> usize {
    let target = TARGET[side];
    (square.file().abs_diff(target.file()) + square.rank().abs_diff(target.rank())) as usize
}

/// Chebyshev distance from `square` to `side`'s target corner.
pub(super) fn chebyshev(square: Square, side: usize) -> usize {
    let target = TARGET[side];
    square
        .file()
        .abs_diff(target.file())
        .max(square.rank().abs_diff(target.rank())) as usize
}

/// The squares of a bitboard, lowest first.
pub(super) fn squares(mut set: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let square = Square::from_index(set.trailing_zeros() as u8);
            set &= set - 1;
            square
        })
    })
}

/// Every square one step forward (for `side`) from a square of `set`, in any of the side's
/// three forward directions; steps off the board are dropped.
fn forward_steps(set: u64, side: usize) -> u64 {
    const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
    const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;
    if side == 0 {
        // N, E, NE.
        (set << 8) | ((set & NOT_FILE_H) << 1) | ((set & NOT_FILE_H) << 9)
    } else {
        // S, W, SW.
        (set >> 8) | ((set & NOT_FILE_A) >> 1) | ((set & NOT_FILE_A) >> 9)
    }
}

/// What one side can do next move, as far as evaluation cares.
pub(super) struct Prospects {
    /// Distinct squares on which an action of this side would win at once.
    pub(super) wins: u32,
    /// The best enemy piece value it could capture.
    pub(super) best_capture: i32,
}

impl Replica {
    fn material(&self, side: usize) -> i32 {
        squares(self.pieces[side])
            .map(|square| {
                let c = chebyshev(square, side);
                if self.kings[side] & square.bit() != 0 {
                    PIECE + KING_PROGRESS[c]
                } else {
                    PIECE + MAN_PROGRESS[c]
                }
            })
            .sum()
    }

    /// What `side` can do next move; `transformable` is [`Replica::transformable`] of
    /// `side`, which the caller computes once. Bitboards throughout: every landing square of
    /// every forward advance is one shift of the side's pieces (a piece lands on the first
    /// square past its own pieces, so a landing square is one that holds no own piece and has
    /// one just behind it), and only the target corner, where a king's landing wins, asks
    /// which pieces land there.
    pub(super) fn prospects(&self, side: usize, transformable: u64) -> Prospects {
        let own = self.pieces[side];
        let enemy = 1 - side;
        let corner = TARGET[side];
        let landings = forward_steps(own, side) & !own;
        let mut winning = (transformable & corner.bit()) | (landings & self.kings[enemy]);
        let mut captures = landings & self.pieces[enemy] & !self.kings[enemy];
        if landings & corner.bit() != 0 {
            // The runs of own pieces that end next to the corner, looking back from it.
            let runs = FORWARD[enemy]
                .iter()
                .fold(0, |runs, &d| runs | sight_ray(corner, d, !own));
            if runs & self.kings[side] != 0 {
                winning |= corner.bit();
            }
            if runs & !self.kings[side] == 0 {
                // Only kings land there: a win, not a capture.
                captures &= !corner.bit();
            }
        }
        let best_capture = squares(captures)
            .map(|to| PIECE + MAN_PROGRESS[chebyshev(to, enemy)])
            .max()
            .unwrap_or(0);
        Prospects {
            wins: winning.count_ones(),
            best_capture,
        }
    }

    /// The evaluation from the side to move's point of view.
    fn evaluate_for_mover(&self) -> i32 {
        let side = self.side();
        let other = 1 - side;
        let mine = self.prospects(side, self.transformable(side));
        if mine.wins > 0 {
            return WIN_NOW;
        }
        let theirs = self.prospects(other, self.transformable(other));
        let threat = match theirs.wins {
            0 => 0,
            1 => ONE_THREAT,
            _ => MANY_THREATS,
        };
        self.material(side) - self.material(other) + mine.best_capture / 2 - threat
    }
}

impl Heuristic for Replica {
    /// Captures, a king reaching the target corner, and a transform on the target corner.
    fn is_tactical(&self, action: ReplicaAction) -> bool {
        let side = self.side();
        match action {
            ReplicaAction::Advance { from, to } => {
                self.pieces[1 - side] & to.bit() != 0
                    || (to == TARGET[side] && self.kings[side] & from.bit() != 0)
            }
            ReplicaAction::Transform(square) => square == TARGET[side],
        }
    }

    const TERMS: &'static [&'static str] = super::terms::TERMS;

    fn terms(&self, seat: Seat, out: &mut [f64]) {
        super::terms::terms(self, seat, out);
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        super::terms::WEIGHTS.evaluate(self, seat)
    }

    fn evaluate_v1(&self, seat: Seat) -> i32 {
        let score = self.evaluate_for_mover();
        if seat == self.core.to_move {
            score
        } else {
            -score
        }
    }

    fn seed_evaluate(&self, seat: Seat) -> i32 {
        match self.outcome().map(|o| o.verdict) {
            Some(Verdict::Win(winner)) if winner == seat => return SEED_WIN,
            Some(Verdict::Win(_)) => return -SEED_WIN,
            Some(Verdict::Draw) => return 0,
            None => {}
        }
        let side = seat.to_usize();
        let total = |s: usize| -> i32 {
            squares(self.pieces[s])
                .map(|square| SEED_VALUE[manhattan(square, s)])
                .sum()
        };
        total(side) - total(1 - side)
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, WIN_SCORE};

    use super::*;
    use crate::replica::ReplicaOptions;

    const WHITE: Seat = Seat::FIRST;
    const BLACK: Seat = Seat::SECOND;

    #[test]
    fn seed_values_round_three_over_d_plus_one() {
        assert_eq!(SEED_VALUE[0], 500);
        assert_eq!(SEED_VALUE[1], 350);
        assert_eq!(SEED_VALUE[2], 300);
        assert_eq!(SEED_VALUE[6], 243); // 2 + 3/7 = 2.4286
        assert_eq!(SEED_VALUE[14], 220);
    }

    #[test]
    fn the_start_is_balanced() {
        let state = Replica::new(&ReplicaOptions::default(), 0);
        for seat in [Seat::FIRST, Seat::SECOND] {
            assert_eq!(state.seed_evaluate(seat), 0);
        }
        assert_eq!(state.evaluate(Seat::FIRST), -state.evaluate(Seat::SECOND));
    }

    #[test]
    fn seed_evaluation_follows_the_original() {
        // White K a1 (D 14) and w g7 (D 2); Black K h8 (D 14): 2+3/15 + 2+3/3 − (2+3/15) = 3.
        let state = at("7B/6w1/8/8/8/8/8/W7 w");
        assert_eq!(state.seed_evaluate(WHITE), 300);
        assert_eq!(state.seed_evaluate(BLACK), -300);
        let won = play(&state, "g7xh8");
        assert_eq!(won.seed_evaluate(WHITE), 6000);
        assert_eq!(won.seed_evaluate(BLACK), -6000);
        let capture = state.parse_action("g7xh8").unwrap();
        assert_eq!(state.seed_action_score(capture), WIN_SCORE);
        let start = Replica::new(&ReplicaOptions::default(), 0);
        assert_eq!(start.seed_evaluate(WHITE), 0);
    }

    #[test]
    fn evaluation_sees_wins_threats_and_material() {
        // White to move can capture the king: a near-win score for White.
        let state = at("7B/6w1/8/8/8/8/8/W7 w");
        assert!(state.evaluate(WHITE) >= 10_000);
        assert_eq!(state.evaluate(BLACK), -state.evaluate(WHITE));
        // Same board, Black to move: Black faces the threat and is worse.
        let threatened = at("7B/6w1/8/8/8/8/8/W7 b");
        assert!(threatened.evaluate(BLACK) < 0);
        assert!(threatened.evaluate(BLACK).abs() < WIN_SCORE / 10);
        // An extra piece is better than none.
        let more = at("7B/8/8/8/8/8/1w6/W7 b");
        assert!(more.evaluate(WHITE) > 50);
        assert_eq!(
            Replica::new(&ReplicaOptions::default(), 0).evaluate(WHITE),
            0,
            "the start is symmetric"
        );
    }

    #[test]
    fn tactical_decisions_are_captures_and_corner_wins() {
        // R5: g7xh8 captures the king; the other advances are quiet.
        let state = at("7B/6w1/8/8/8/8/8/W7 w");
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let tactical: Vec<String> = actions
            .iter()
            .filter(|&&a| state.is_tactical(a))
            .map(|&a| state.format_action(a))
            .collect();
        assert_eq!(tactical, ["g7xh8"]);
        // R4: the king f6 jumps to h8, a win though no capture; R7: a transform on the corner.
        let r4 = at("8/6w1/5W2/8/8/2B5/8/8 w");
        assert!(r4.is_tactical(r4.parse_action("f6-h8").unwrap()));
        assert!(!r4.is_tactical(r4.parse_action("f6-f7").unwrap()));
        let r7 = at("B6w/8/8/4W3/8/8/8/8 w");
        assert!(r7.is_tactical(r7.parse_action("h8*").unwrap()));
    }

    fn at(position: &str) -> Replica {
        Replica::from_position(position, &ReplicaOptions::default()).unwrap()
    }

    fn play(state: &Replica, text: &str) -> Replica {
        let mut next = state.clone();
        next.apply(state.parse_action(text).unwrap());
        next
    }
}
