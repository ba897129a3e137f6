//! Search scores shared by minimax and alpha-beta: paranoid sides, terminal scores adjusted by
//! distance, and clamped static evaluations.
//!
//! Scores are from the **root seat's side**: in a 3–4 seat game the searching seat plays
//! against the coalition of all others (paranoid search); with two seats that is ordinary
//! minimax. A won game scores `WIN_SCORE - ply`, so a faster win scores higher and a slower
//! loss scores higher than a faster one.

use ludus_engine::{Game, Heuristic, Seat, Verdict, WIN_SCORE};

/// Deeper than any search goes, in decisions.
pub(crate) const MAX_PLY: i32 = 4096;

/// Scores at or beyond this are forced wins (or losses, negated).
pub(crate) const MATE_BOUND: i32 = WIN_SCORE - MAX_PLY;

/// Above every score a search returns.
pub(crate) const INFINITY: i32 = WIN_SCORE + 1;

/// A static evaluation: how good the state is for a seat.
pub(crate) type EvalFn<G> = fn(&G, Seat) -> i32;

/// Which of a game's heuristics a search uses at its horizon.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EvalKind {
    /// [`Heuristic::evaluate`], the game's strongest evaluation.
    Evaluate,
    /// [`Heuristic::seed_evaluate`], the original programs' level-2 heuristic.
    Seed,
    /// [`Heuristic::evaluate_v1`], the evaluation before it was tuned from self-play.
    V1,
    /// The game's terms times the weights an SPSA run set for the thread
    /// ([`crate::tuning::spsa`]); no spec names it.
    Trial,
}

impl EvalKind {
    /// The function to call.
    pub(crate) fn function<G: Heuristic>(self) -> EvalFn<G> {
        match self {
            EvalKind::Evaluate => G::evaluate,
            EvalKind::Seed => G::seed_evaluate,
            EvalKind::V1 => G::evaluate_v1,
            EvalKind::Trial => crate::tuning::trial_evaluate::<G>,
        }
    }

    /// Reads `evaluate`, `seed` or `v1`.
    pub(crate) fn parse(text: &str) -> Option<EvalKind> {
        match text {
            "evaluate" | "eval" => Some(EvalKind::Evaluate),
            "seed" | "greedy" => Some(EvalKind::Seed),
            "v1" => Some(EvalKind::V1),
            _ => None,
        }
    }
}

/// The score of a finished game for `root`'s side, `ply` decisions below the root.
pub(crate) fn terminal_score(verdict: Option<Verdict>, root: Seat, ply: usize) -> i32 {
    let distance = WIN_SCORE - (ply as i32).min(MAX_PLY);
    match verdict {
        Some(Verdict::Win(winner)) if winner == root => distance,
        Some(Verdict::Win(_)) => -distance,
        Some(Verdict::Draw) | None => 0,
    }
}

/// The static evaluation for `root`, kept strictly inside the range of forced results.
pub(crate) fn static_score<G: Game>(eval: EvalFn<G>, state: &G, root: Seat) -> i32 {
    eval(state, root).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_score_higher() {
        let win = Some(Verdict::Win(Seat::FIRST));
        assert!(terminal_score(win, Seat::FIRST, 1) > terminal_score(win, Seat::FIRST, 3));
        assert_eq!(terminal_score(win, Seat::SECOND, 2), -(WIN_SCORE - 2));
        assert_eq!(terminal_score(Some(Verdict::Draw), Seat::FIRST, 2), 0);
        assert!(terminal_score(win, Seat::FIRST, 5) >= MATE_BOUND);
    }
}
