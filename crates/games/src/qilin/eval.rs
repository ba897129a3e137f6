//! Heuristics for computer players.
//!
//! * [`Heuristic::seed_evaluate`] is the seed's level-2 score (spec §8, README "Computer Move"):
//!   `10·lines − 5·opp_potential + 2·own_potential`, plus `own_mobility − opp_mobility` in the
//!   movement stage; a transition own-removal is rated without the lines term. The seed's
//!   press quirk (scoring as if its own piece stood on the pressed point, with a −2 weight on
//!   own potential) is simplified as the spec allows: a press is rated on the board after it.
//! * [`Heuristic::evaluate`] is the terms of `terms.rs` times their weights in `weights.txt`
//!   (fitted by `ludus tune qilin`).
//! * [`Heuristic::evaluate_v1`] (`eval=v1`) is the evaluation before tuning, in hundredths of a piece: the material each side will
//!   have in the movement stage (pieces on the board plus the placements still to come),
//!   presses or removals owed, lines one move from completion (worth most to the side to act),
//!   lines that will open when pressed points are cleared, mobility, and complete lines whose
//!   pieces can step out and back.

use ludus_engine::{Heuristic, Rules, Seat, Verdict, WIN_SCORE};

use super::rules::QilinAction;
use super::state::Qilin;
use super::state::Stage;
use super::tables::{slide_count, Points, ADJACENT, LINES, LINES_THROUGH};

/// Complete lines and potential lines (two own pieces and an empty point) of `own`.
pub(super) fn lines_and_potential(own: u32, empty: u32) -> (i32, i32) {
    let mut lines = 0;
    let mut potential = 0;
    for &line in &LINES {
        let mine = (own & line).count_ones();
        if mine == 3 {
            lines += 1;
        } else if mine == 2 && empty & line != 0 {
            potential += 1;
        }
    }
    (lines, potential)
}

/// The seed's level-2 score of `state` for `seat`, with the formula of `stage`.
fn seed_score(state: &Qilin, seat: Seat, stage: Stage) -> i32 {
    let empty = state.empty();
    let (own, theirs) = (state.own(seat), state.own(seat.opponent()));
    let (own_lines, own_potential) = lines_and_potential(own, empty);
    let (_, their_potential) = lines_and_potential(theirs, empty);
    let mobility = || slide_count(own, empty) as i32 - slide_count(theirs, empty) as i32;
    match stage {
        Stage::Place => 10 * own_lines - 5 * their_potential + 2 * own_potential,
        Stage::Transition => -5 * their_potential + 2 * own_potential + mobility(),
        Stage::Move => 10 * own_lines - 5 * their_potential + 2 * own_potential + mobility(),
    }
}

pub(super) const PIECE: i32 = 100;

/// Empty points where `own` would complete lines, and the most lines one point completes.
pub(super) fn completion_points(own: u32, empty: u32) -> (u32, u32) {
    let mut points = 0;
    let mut best = 0;
    for point in Points(empty) {
        let with = own | point.bit();
        let lines = LINES_THROUGH[point.to_usize()]
            .iter()
            .filter(|&&line| with & line == line)
            .count() as u32;
        if lines > 0 {
            points |= point.bit();
            best = best.max(lines);
        }
    }
    (points, best)
}

/// Threats in the placement stage: the side to act completes its best point now; the other
/// side gets one of its points if it has two or more (one can be blocked).
fn placement_threats(own: u32, empty: u32, to_act: bool) -> i32 {
    let (points, best) = completion_points(own, empty);
    let count = points.count_ones() as i32;
    if to_act {
        90 * best as i32 + 15 * (count - 1).max(0)
    } else if count >= 2 {
        60 + 15 * (count - 2)
    } else {
        15 * count
    }
}

/// Lines with two own pieces whose third point is pressed: they open when the stage ends.
pub(super) fn lines_behind_presses(own: u32, pressed: u32) -> i32 {
    LINES
        .iter()
        .filter(|&&line| (own & line).count_ones() == 2 && pressed & line != 0)
        .count() as i32
}

/// Movement-stage lines of `own`: those one slide from completion (2 each when no enemy
/// piece next to the hole can block, 1 otherwise), complete lines a piece can step out of
/// (and back into), and (in the same pass, for the tuned terms) the potential lines of
/// [`lines_and_potential`].
pub(super) fn movement_lines(own: u32, theirs: u32, empty: u32) -> (i32, i32, i32) {
    let mut closable = 0;
    let mut open_lines = 0;
    let mut potential = 0;
    for &line in &LINES {
        let mine = own & line;
        match mine.count_ones() {
            2 if empty & line != 0 => {
                potential += 1;
                let hole = (empty & line).trailing_zeros() as usize;
                let helpers = ADJACENT[hole] & own & !line;
                if helpers != 0 {
                    let blockers = ADJACENT[hole] & theirs;
                    closable += if blockers == 0 { 2 } else { 1 };
                }
            }
            3 => {
                let exits = Points(line).any(|p| ADJACENT[p.to_usize()] & empty & !line != 0);
                open_lines += i32::from(exits);
            }
            _ => {}
        }
    }
    (closable, open_lines, potential)
}

/// Movement-stage shape: [`movement_lines`] and mobility.
fn movement_shape(own: u32, theirs: u32, empty: u32, to_act: bool) -> i32 {
    let (closable, open_lines, _) = movement_lines(own, theirs, empty);
    let threat = if to_act && closable > 0 { 60 } else { 0 };
    threat + 20 * closable + 15 * open_lines + 6 * slide_count(own, empty) as i32
}

impl Qilin {
    fn evaluate_side(&self, seat: Seat) -> i32 {
        let empty = self.empty();
        let (own, theirs) = (self.own(seat), self.own(seat.opponent()));
        let to_act = seat == self.core.to_move;
        let owed = i32::from(self.pending) * if to_act { PIECE } else { -PIECE };
        match self.stage {
            Stage::Place => {
                // Each side fills about half of the empty points; the side to act one more.
                let spaces = empty.count_ones() as i32;
                let share = if to_act { (spaces + 1) / 2 } else { spaces / 2 };
                let placements = share.min(i32::from(self.hands[seat]));
                let threats = if self.pending == 0 {
                    placement_threats(own, empty, to_act)
                } else {
                    0
                };
                PIECE * (own.count_ones() as i32 + placements)
                    + threats
                    + 10 * lines_behind_presses(own, self.pressed)
                    + owed / 2
            }
            Stage::Transition | Stage::Move => {
                let count = own.count_ones() as i32;
                let scarce = 60 * (4 - count).max(0);
                PIECE * count - scarce
                    + movement_shape(own, theirs, empty, to_act && self.pending == 0)
                    + owed / 2
            }
        }
    }
}

impl Heuristic for Qilin {
    /// The removals owed in the movement stage, so that no evaluation falls between a line
    /// and the piece it takes. Measured against level 4 (docs/STRENGTH.md), following
    /// placement-stage presses or the slides that complete lines as well made the search
    /// weaker: they are many, and they ate the time of the main search.
    fn is_tactical(&self, action: QilinAction) -> bool {
        if self.stage != Stage::Move {
            return false;
        }
        matches!(action, QilinAction::Take(_))
    }

    const TERMS: &'static [&'static str] = super::terms::TERMS;

    fn terms(&self, seat: Seat, out: &mut [f64]) {
        super::terms::terms(self, seat, out);
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        super::terms::WEIGHTS.evaluate(self, seat)
    }

    fn evaluate_v1(&self, seat: Seat) -> i32 {
        self.evaluate_side(seat) - self.evaluate_side(seat.opponent())
    }

    fn seed_evaluate(&self, seat: Seat) -> i32 {
        seed_score(self, seat, self.stage)
    }

    /// Plays `action` and rates the result with the formula of the stage the decision was
    /// made in (so Black's own removal ending the transition is still rated as one).
    fn seed_action_score(&self, action: QilinAction) -> i32 {
        let Some(seat) = self.to_move() else {
            return 0;
        };
        let mut next = self.clone();
        next.apply(action);
        match next.outcome().map(|o| o.verdict) {
            Some(Verdict::Win(winner)) if winner == seat => WIN_SCORE,
            Some(Verdict::Win(_)) => -WIN_SCORE,
            Some(Verdict::Draw) => 0,
            None => seed_score(&next, seat, self.stage),
        }
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::Notation;

    use super::*;
    use crate::qilin::QilinOptions;

    fn state(position: &str) -> Qilin {
        Qilin::from_position(position, &QilinOptions::default()).unwrap()
    }

    #[test]
    fn seed_terms() {
        // Q-2 before a7: Red a1 a4 c5 b6 (potentials a1-a4-a7, a7-b6-c5), Black d1 d2 c3 e3
        // (potential d1-d2-d3 and c3-d3-e3).
        let q2 = state("RB..B.B.BR.....R..R..... place R 14/14 0");
        let red = crate::qilin::RED;
        assert_eq!(q2.seed_evaluate(red), -5 * 2 + 2 * 2);
        let a7 = QilinAction::Place("a7".parse().unwrap());
        // After a7: 2 lines, Black potential 2, Red potential 0.
        assert_eq!(q2.seed_action_score(a7), 10 * 2 - 5 * 2);
    }

    #[test]
    fn tactical_decisions_are_movement_stage_removals() {
        let slide =
            |from: &str, to: &str| QilinAction::Slide(from.parse().unwrap(), to.parse().unwrap());
        // no slide is tactical, not even b2-a1, which completes two lines...
        let q7 = state(".RRR..BBBR....B......R.. move R 0/0 0");
        let mut actions = Vec::new();
        q7.legal_actions(&mut actions);
        assert_eq!(actions.len(), 10);
        assert!(actions.iter().all(|&a| !q7.is_tactical(a)));
        // ...but the removals it earns are.
        let mut after = q7.clone();
        after.apply(slide("b2", "a1"));
        after.legal_actions(&mut actions);
        assert!(!actions.is_empty());
        assert!(actions.iter().all(|&a| after.is_tactical(a)), "removals");
        // presses in the placement stage are not followed.
        let mut q2 = state("RB..B.B.BR.....R..R..... place R 14/14 0");
        q2.apply(QilinAction::Place("a7".parse().unwrap()));
        q2.legal_actions(&mut actions);
        assert!(actions.iter().all(|&a| !q2.is_tactical(a)), "presses");
    }

    #[test]
    fn evaluation_is_antisymmetric_and_prefers_material() {
        let q7 = state(".RRR..BBBR....B......R.. move R 0/0 0");
        let red = crate::qilin::RED;
        assert_eq!(q7.evaluate(red), -q7.evaluate(red.opponent()));
        assert!(q7.evaluate(red) > 0);
    }

    #[test]
    fn seed_heuristic_prefers_lines() {
        let q2 = state("RB..B.B.BR.....R..R..... place R 14/14 0");
        let mut actions = Vec::new();
        q2.legal_actions(&mut actions);
        let best = actions
            .iter()
            .copied()
            .max_by_key(|&a| q2.seed_action_score(a))
            .unwrap();
        assert_eq!(best, QilinAction::Place("a7".parse().unwrap()));
        let q6 = state("...B.R...B...........B.. move B 0/0 0");
        let slide = q6.parse_action("b2-a1").unwrap();
        assert!(
            q6.seed_action_score(slide) > q6.seed_action_score(q6.parse_action("a7-d7").unwrap())
        );
        assert!(q6.evaluate(crate::qilin::BLACK) > 0);
    }
}
