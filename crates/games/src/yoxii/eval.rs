//! Heuristics for computer players.
//!
//! - [`Heuristic::evaluate`]: for alpha-beta horizons, the [`TERMS`] times their weights in
//!   `weights.txt` (fitted by `ludus tune yoxii`, read at build time), summed in fixed point
//!   by `fixed_eval.rs`. The plain `points` term is held at 0 (`--drop points`): fitted
//!   beside `points_filled`, it made a point around the Totem worth −208 + 240 × the share
//!   of the Totem's neighbours filled, less than nothing until the neighbourhood was nearly
//!   full, and the searches over those swings were about a third larger for no gain in play
//!   (nodes at depth 8: 140,961 with it, 104,650 refitted without). The terms, each ours
//!   minus theirs: the points around the Totem, the same scaled by how full its neighbourhood
//!   is, the piece count there (the tie-break), the best value the side to move is about to
//!   place next to it (plain and scaled), the Totem mobility, and the value still in hand;
//!   then (see `turns.rs`) the most points each side can have after its next turn, whether
//!   the side that moves the Totem next, or the other, can end the game at once with a win,
//!   and who moves the Totem next.
//! - [`Heuristic::evaluate_v1`]: the same terms with the hand-set weights they had before
//!   tuning (`eval=v1`), computed exactly as then.
//! - [`Heuristic::seed_action_score`]: the seed's level 2 (`choose_move_greedy`,
//!   `find_best_move`, spec §9). A complete turn is rated by playing it, letting the opponent
//!   answer greedily (its Totem move, value and square that give it the most points around the
//!   Totem), and taking our points minus theirs; a turn that ends the game rates as a win, a
//!   loss or a draw. A placement decision rates as its turn; a Totem decision rates as its best
//!   placement. The seed only examined, per Totem move, the placement that scored most at once;
//!   we rate every placement the same way (a superset of its candidates), so the greedy agent
//!   picks the best complete turn by the seed's own criterion. Ties in the opponent's greedy
//!   reply go to the first one in legal-action order (the seed took the last of a `setof`).

use ludus_engine::{Heuristic, Rules, Seat, Verdict, WIN_SCORE};

use super::rules::YoxiiAction;
use super::state::Yoxii;
use super::tables::NEIGHBOURS;
use super::turns::next_turn;
use crate::weights::TunedWeights;

/// Weight of one point around the Totem when the Totem is surrounded (hundredths).
const POINT: i32 = 100;
/// Weight of one piece around the Totem (the tie-break).
const PIECE: i32 = 10;
/// Weight of one Totem move available to a side.
const MOBILITY: i32 = 8;
/// Weight of one point of value still in hand.
const HAND: i32 = 4;

/// The names of the evaluation's terms, as in `weights.txt`.
pub const TERMS: &[&str] = &[
    "points",
    "points_filled",
    "pieces",
    "pending",
    "pending_filled",
    "mobility",
    "hand",
    "best_turn",
    "closing_win_next",
    "closing_win_other",
    "totem_next",
];

/// The weights of v1, in the order of [`TERMS`].
const V1_WEIGHTS: [f64; 11] = [50.0, 50.0, 10.0, 50.0, 50.0, 8.0, 4.0, 0.0, 0.0, 0.0, 0.0];

/// The tuned weights, read from `weights.txt`.
pub(super) static WEIGHTS: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights.txt"), TERMS, V1_WEIGHTS);

impl Heuristic for Yoxii {
    /// Placements: the second half of a turn, so that no evaluation falls between the totem
    /// move and the piece it earns.
    fn is_tactical(&self, action: YoxiiAction) -> bool {
        matches!(action, YoxiiAction::Place { .. })
    }

    /// Placements of a value between the smallest and the largest the mover holds: a value
    /// counts only around the totem at the end, so a square is mostly worth either the most
    /// or the least the mover can put there.
    fn is_pruned(&self, action: YoxiiAction) -> bool {
        let YoxiiAction::Place { value, .. } = action else {
            return false;
        };
        let hand = &self.hands[self.core.to_move];
        let held = |v: &u8| hand[usize::from(*v) - 1] > 0;
        let smallest = (1..=4).find(held);
        let largest = (1..=4).rev().find(held);
        smallest.is_some_and(|s| s < value) && largest.is_some_and(|l| value < l)
    }

    const TERMS: &'static [&'static str] = TERMS;

    fn terms(&self, seat: Seat, out: &mut [f64]) {
        // The Totem's destinations for each side, computed once for two terms.
        let targets = |s: Seat| self.totem_targets(s);
        let (our_targets, their_targets) = (targets(seat), targets(seat.opponent()));
        let ours = side_features(self, seat, our_targets);
        let theirs = side_features(self, seat.opponent(), their_targets);
        for (term, (a, b)) in out.iter_mut().zip(ours.iter().zip(theirs)) {
            *term = a - b;
        }
        // Who moves the Totem next: the side to move, unless it has moved it already.
        let next = if self.is_placing() {
            self.core.to_move.opponent()
        } else {
            self.core.to_move
        };
        let sign = if next == seat { 1.0 } else { -1.0 };
        let of = |s: Seat| {
            if s == seat {
                our_targets
            } else {
                their_targets
            }
        };
        let first = next_turn(self, next, of(next));
        let second = next_turn(self, next.opponent(), of(next.opponent()));
        let sign_of = |s: Seat| if s == seat { 1.0 } else { -1.0 };
        out[SIDE_TERMS] = sign_of(next) * f64::from(first.best_points)
            + sign_of(next.opponent()) * f64::from(second.best_points);
        out[SIDE_TERMS + 1] = sign * f64::from(u8::from(first.closing_win));
        out[SIDE_TERMS + 2] = -sign * f64::from(u8::from(second.closing_win));
        out[SIDE_TERMS + 3] = sign;
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        super::fixed_eval::evaluate(self, seat)
    }

    fn evaluate_v1(&self, seat: Seat) -> i32 {
        side_terms(self, seat) - side_terms(self, seat.opponent())
    }

    fn seed_evaluate(&self, seat: Seat) -> i32 {
        points(self, seat) - points(self, seat.opponent())
    }

    fn seed_action_score(&self, action: YoxiiAction) -> i32 {
        let Some(seat) = self.to_move() else {
            return 0;
        };
        match action {
            YoxiiAction::Place { .. } => turn_rating(self, action, seat),
            YoxiiAction::Totem(_) => {
                let mut moved = self.clone();
                moved.apply(action);
                let mut placements = Vec::new();
                moved.legal_actions(&mut placements);
                placements
                    .iter()
                    .map(|&p| turn_rating(&moved, p, seat))
                    .max()
                    .unwrap_or(0)
            }
        }
    }
}

/// The terms that are one side's feature minus the other's: the first 7.
const SIDE_TERMS: usize = 7;

/// One side's features, in the order of [`TERMS`].
/// `targets` are the Totem's destinations when `seat` moves it.
fn side_features(state: &Yoxii, seat: Seat, targets: u64) -> [f64; SIDE_TERMS] {
    let (points, pieces) = state.around(seat);
    let neighbours = NEIGHBOURS[state.totem().to_usize()];
    let filled = f64::from((neighbours & !state.empty()).count_ones())
        / f64::from(neighbours.count_ones().max(1));
    let pending =
        if state.is_placing() && state.core.to_move == seat && neighbours & state.empty() != 0 {
            f64::from(best_value(state, seat))
        } else {
            0.0
        };
    let hand: u32 = (1..=4u8)
        .map(|v| u32::from(v) * u32::from(state.in_hand(seat, v)))
        .sum();
    [
        f64::from(points),
        f64::from(points) * filled,
        f64::from(pieces),
        pending,
        pending * filled,
        f64::from(targets.count_ones()),
        f64::from(hand),
    ]
}

/// One side's share of [`Heuristic::evaluate_v1`].
fn side_terms(state: &Yoxii, seat: Seat) -> i32 {
    let (points, pieces) = state.around(seat);
    let neighbours = NEIGHBOURS[state.totem().to_usize()];
    let filled = (neighbours & !state.empty()).count_ones() as i32;
    let weight = POINT / 2 + POINT / 2 * filled / neighbours.count_ones() as i32;
    let mut score = weight * points as i32 + PIECE * pieces as i32;
    if state.is_placing() && state.core.to_move == seat && neighbours & state.empty() != 0 {
        // The side to move is about to put its best piece next to the Totem.
        score += weight * i32::from(best_value(state, seat));
    }
    score += MOBILITY * state.totem_targets(seat).count_ones() as i32;
    let hand: i32 = (1..=4)
        .map(|v| i32::from(v) * i32::from(state.in_hand(seat, v)))
        .sum();
    score + HAND * hand
}

/// The highest value `seat` holds, 0 if none.
pub(super) fn best_value(state: &Yoxii, seat: Seat) -> u8 {
    let hand = state.hand_mask(seat);
    if hand == 0 {
        0
    } else {
        8 - hand.leading_zeros() as u8
    }
}

/// `seat`'s points around the Totem, in evaluation units.
fn points(state: &Yoxii, seat: Seat) -> i32 {
    POINT * state.around(seat).0 as i32
}

/// The seed's rating of the turn that ends with `placement` (the Totem has moved), for `seat`.
fn turn_rating(state: &Yoxii, placement: YoxiiAction, seat: Seat) -> i32 {
    let mut next = state.clone();
    next.apply(placement);
    if let Some(score) = final_score(&next, seat) {
        return score;
    }
    let (totem, place) = greedy_turn(&next);
    next.apply(totem);
    next.apply(place);
    final_score(&next, seat).unwrap_or_else(|| next.seed_evaluate(seat))
}

fn final_score(state: &Yoxii, seat: Seat) -> Option<i32> {
    state.outcome().map(|o| match o.verdict {
        Verdict::Win(winner) if winner == seat => WIN_SCORE,
        Verdict::Win(_) => -WIN_SCORE,
        Verdict::Draw => 0,
    })
}

/// The seed's greedy turn (`choose_move_greedy` with `last_move`): the Totem move, value and
/// square that give the side to move the most points around the Totem. The game is not over.
pub fn greedy_turn(state: &Yoxii) -> (YoxiiAction, YoxiiAction) {
    let seat = state.core.to_move;
    let mut totems = Vec::new();
    let mut placements = Vec::new();
    state.legal_actions(&mut totems);
    let mut best = None;
    for &totem in &totems {
        let mut moved = state.clone();
        moved.apply(totem);
        let base = moved.around(seat).0;
        let near = NEIGHBOURS[moved.totem().to_usize()];
        moved.legal_actions(&mut placements);
        for &place in &placements {
            let YoxiiAction::Place { value, square } = place else {
                continue;
            };
            let gain = if near & square.bit() != 0 { value } else { 0 };
            let score = base + u32::from(gain);
            if best.is_none_or(|(s, _, _)| score > s) {
                best = Some((score, totem, place));
            }
        }
    }
    let (_, totem, place) = best.expect("a game in progress has a complete turn");
    (totem, place)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_file_gives_every_term_and_v1_weights_match_v1() {
        let weights = WEIGHTS.read();
        assert_eq!(weights.map(|w| w.len()), Ok(TERMS.len()));
        // With v1's weights the terms give v1's evaluation, up to its integer rounding.
        let mut state = Yoxii::new(&<Yoxii as Rules>::Options::default(), 4);
        let mut actions = Vec::new();
        for _ in 0..30 {
            let Some(seat) = state.to_move() else { break };
            let mut terms = [0.0; TERMS.len()];
            state.terms(seat, &mut terms);
            let linear: f64 = terms.iter().zip(V1_WEIGHTS).map(|(t, w)| t * w).sum();
            let v1 = f64::from(state.evaluate_v1(seat));
            assert!((linear - v1).abs() <= 60.0, "{linear} vs {v1}");
            state.legal_actions(&mut actions);
            state.apply(actions[actions.len() / 2]);
        }
    }
}
