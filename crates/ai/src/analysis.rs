//! What a search found: the decision, an evaluation from the side to move's view, and how far
//! it looked. User interfaces show it as a hint and as an evaluation bar.

use std::fmt;

use ludus_engine::WIN_SCORE;

use crate::score::MATE_BOUND;
use crate::solver::Proved;

/// How good the position is for the seat to move, as a search sees it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Evaluation {
    /// A heuristic score in the game's evaluation units (hundredths of a piece); positive is
    /// good for the side to move.
    Score(i32),
    /// The side to move wins by force within this many decisions.
    Win(u32),
    /// The side to move loses by force within this many decisions.
    Loss(u32),
    /// The expected reward of the side to move in `[0, 1]` (Monte Carlo search).
    Reward(f64),
    /// The exact result for the side to move, proved by the solver: win, draw or loss and
    /// the distance in turns.
    Proved(Proved),
}

impl Evaluation {
    /// Reads a search score: scores near [`WIN_SCORE`] are forced wins or losses, the distance
    /// in decisions being `WIN_SCORE - |score|`.
    pub fn from_score(score: i32) -> Evaluation {
        if score >= MATE_BOUND {
            Evaluation::Win((WIN_SCORE - score).max(0) as u32)
        } else if score <= -MATE_BOUND {
            Evaluation::Loss((WIN_SCORE + score).max(0) as u32)
        } else {
            Evaluation::Score(score)
        }
    }

    /// The score as UGI's `info` lines write it after `score`: `cp S` (hundredths of a piece),
    /// `mate N` (a forced win in N decisions), `mate -N` (a forced loss); an MCTS reward `r`
    /// as `cp 182·ln(r/(1−r))`, the inverse of [`Evaluation::bar`]'s curve; a solved result
    /// as `proved win N`, `proved draw` or `proved loss N` (turns).
    pub fn ugi_score(self) -> String {
        match self {
            Evaluation::Score(cp) => format!("cp {cp}"),
            Evaluation::Win(n) => format!("mate {}", n.max(1)),
            Evaluation::Loss(n) => format!("mate -{}", n.max(1)),
            Evaluation::Reward(r) => {
                let r = r.clamp(0.001, 0.999);
                format!("cp {:.0}", 182.0 * (r / (1.0 - r)).ln())
            }
            Evaluation::Proved(proved) => match proved {
                Proved::Win(n) => format!("proved win {n}"),
                Proved::Draw => "proved draw".to_string(),
                Proved::Loss(n) => format!("proved loss {n}"),
            },
        }
    }

    /// The evaluation on a bar from -1 (lost) to +1 (won) for the side to move.
    ///
    /// Scores pass through a logistic curve where 200 units (two pieces) fill three quarters
    /// of the way to one side; rewards map linearly (`2r - 1`).
    /// A proved result sits at the end of the bar (a draw in the middle).
    pub fn bar(self) -> f64 {
        match self {
            Evaluation::Score(score) => 2.0 / (1.0 + (-f64::from(score) / 182.0).exp()) - 1.0,
            Evaluation::Win(_) => 1.0,
            Evaluation::Loss(_) => -1.0,
            Evaluation::Reward(reward) => (2.0 * reward - 1.0).clamp(-1.0, 1.0),
            Evaluation::Proved(proved) => f64::from(proved.score().signum()),
        }
    }
}

impl fmt::Display for Evaluation {
    /// `+1.25` (a score in pieces), `win in 3`, `loss in 2`, `62%` (a reward), `wins in 3
    /// turns` or `draw` (proved).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Evaluation::Score(score) => write!(f, "{:+.2}", f64::from(score) / 100.0),
            Evaluation::Win(n) => write!(f, "win in {n}"),
            Evaluation::Loss(n) => write!(f, "loss in {n}"),
            Evaluation::Reward(reward) => write!(f, "{:.0}%", reward * 100.0),
            Evaluation::Proved(proved) => write!(f, "{proved}"),
        }
    }
}

/// The result of a search for the seat to move.
#[derive(Clone, PartialEq, Debug)]
pub struct Analysis<A> {
    /// The decision the agent plays.
    pub action: A,
    /// The position's value for the seat to move, if the agent has one.
    pub evaluation: Option<Evaluation>,
    /// How deep the last completed search went: decisions for alpha-beta, turns for minimax,
    /// the deepest tree node for MCTS, 1 for greedy, 0 for random.
    pub depth: u32,
    /// Nodes searched (alpha-beta, minimax, greedy) or iterations (MCTS).
    pub nodes: u64,
    /// The expected line of play, starting with `action` (may hold only `action`).
    pub pv: Vec<A>,
}

impl<A: Copy> Analysis<A> {
    /// An analysis that only names a decision.
    pub fn bare(action: A) -> Self {
        Analysis {
            action,
            evaluation: None,
            depth: 0,
            nodes: 0,
            pv: vec![action],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_wins_losses_and_units() {
        assert_eq!(Evaluation::from_score(WIN_SCORE - 3), Evaluation::Win(3));
        assert_eq!(Evaluation::from_score(-WIN_SCORE + 2), Evaluation::Loss(2));
        assert_eq!(Evaluation::from_score(125), Evaluation::Score(125));
        assert_eq!(Evaluation::Score(125).to_string(), "+1.25");
        assert_eq!(Evaluation::Win(3).to_string(), "win in 3");
        assert_eq!(Evaluation::Reward(0.625).to_string(), "62%");
        let proved = Evaluation::Proved(Proved::Win(2));
        assert_eq!(proved.to_string(), "wins in 2 turns");
        assert!((proved.bar() - 1.0).abs() < 1e-9);
        assert!(Evaluation::Proved(Proved::Draw).bar().abs() < 1e-9);
    }

    #[test]
    fn the_bar_is_signed_and_bounded() {
        assert!(Evaluation::Score(0).bar().abs() < 1e-9);
        assert!((Evaluation::Score(200).bar() - 0.5).abs() < 0.01);
        assert!(Evaluation::Score(-200).bar() < 0.0);
        assert!(Evaluation::Score(i32::MAX / 2).bar() <= 1.0);
        assert!((Evaluation::Loss(1).bar() + 1.0).abs() < 1e-9);
        assert!((Evaluation::Reward(0.75).bar() - 0.5).abs() < 1e-9);
    }
}
