//! `Proved`: an exact result for the seat to move (win, draw or loss and the distance in
//! turns with best play), and `Bounds`, what a search that ran out of budget did prove.
//!
//! Both read the solver's scores: a win in `n` turns scores `WIN_SCORE - n`, a loss in `n`
//! turns `-(WIN_SCORE - n)`, a draw 0, so a faster win and a slower loss score higher and
//! alpha-beta on these scores plays the fastest win and the slowest loss.

use std::fmt;

use ludus_engine::WIN_SCORE;
use serde::{Deserialize, Serialize};

/// Above every score the solver returns.
pub(crate) const SOLVER_INFINITY: i32 = WIN_SCORE + 1;

/// An exact result for the seat to move, with the distance to the end in turns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "value", content = "turns", rename_all = "lowercase")]
pub enum Proved {
    /// The seat to move wins, at the latest after this many turns, whatever the other does.
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The seat to move loses after this many turns against best play, however it defends.
    Loss(u32),
}

impl Proved {
    /// The result a solver score stands for (0 a draw, else a win or loss by its distance).
    pub fn from_score(score: i32) -> Proved {
        let distance = |s: i32| (WIN_SCORE - s.abs()).max(0).unsigned_abs();
        match score.signum() {
            1 => Proved::Win(distance(score)),
            -1 => Proved::Loss(distance(score)),
            _ => Proved::Draw,
        }
    }

    /// The solver score of this result: higher is better for the seat to move.
    pub fn score(self) -> i32 {
        let distance = |n: u32| i32::try_from(n).unwrap_or(WIN_SCORE).min(WIN_SCORE);
        match self {
            Proved::Win(n) => WIN_SCORE - distance(n),
            Proved::Draw => 0,
            Proved::Loss(n) => -(WIN_SCORE - distance(n)),
        }
    }

    /// The same result from the other seat's view.
    #[must_use]
    pub fn flipped(self) -> Proved {
        match self {
            Proved::Win(n) => Proved::Loss(n),
            Proved::Draw => Proved::Draw,
            Proved::Loss(n) => Proved::Win(n),
        }
    }

    /// Turns to the end with best play; `None` for a draw.
    pub fn turns(self) -> Option<u32> {
        match self {
            Proved::Win(n) | Proved::Loss(n) => Some(n),
            Proved::Draw => None,
        }
    }
}

fn turns(n: u32) -> &'static str {
    if n == 1 {
        "turn"
    } else {
        "turns"
    }
}

/// `1 turn`, `3 turns`.
fn count(n: i32) -> String {
    format!("{n} {}", turns(n.unsigned_abs()))
}

impl fmt::Display for Proved {
    /// `wins in 3 turns`, `draw`, `loses in 1 turn` (for the seat to move).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Proved::Win(n) => write!(f, "wins in {n} {}", turns(n)),
            Proved::Draw => write!(f, "draw"),
            Proved::Loss(n) => write!(f, "loses in {n} {}", turns(n)),
        }
    }
}

/// What a search proved about the value of a position for the seat to move: the true value
/// lies between `lower` and `upper` (solver scores, see [`Proved::from_score`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
}

impl Bounds {
    /// Nothing proved yet.
    pub const UNKNOWN: Bounds = Bounds {
        lower: -SOLVER_INFINITY,
        upper: SOLVER_INFINITY,
    };

    /// Exactly `value`.
    pub fn exact(value: Proved) -> Bounds {
        Bounds {
            lower: value.score(),
            upper: value.score(),
        }
    }

    /// The exact result, once the bounds meet.
    pub fn proved(self) -> Option<Proved> {
        (self.lower == self.upper).then(|| Proved::from_score(self.lower))
    }

    /// Both bounds narrowed by `other` (both hold, so their intersection does).
    #[must_use]
    pub fn meet(self, other: Bounds) -> Bounds {
        Bounds {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
        }
    }

    /// The same bounds from the other seat's view.
    #[must_use]
    pub fn flipped(self) -> Bounds {
        Bounds {
            lower: -self.upper,
            upper: -self.lower,
        }
    }

    /// The bounds seen `delta` turns earlier: every win and loss is `delta` turns further.
    #[must_use]
    pub fn later_by(self, delta: u32) -> Bounds {
        let shift = |s: i32| {
            let d = i32::try_from(delta).unwrap_or(WIN_SCORE);
            if s.abs() >= SOLVER_INFINITY {
                s
            } else {
                match s.signum() {
                    1 => (s - d).max(1),
                    -1 => (s + d).min(-1),
                    _ => 0,
                }
            }
        };
        Bounds {
            lower: shift(self.lower),
            upper: shift(self.upper),
        }
    }
}

impl fmt::Display for Bounds {
    /// The exact result, or what is known: `at least a draw, no win within 4 turns`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(proved) = self.proved() {
            return write!(f, "{proved}");
        }
        let mut facts = Vec::new();
        let (lo, hi) = (self.lower, self.upper);
        let far = |s: i32| (WIN_SCORE - s.abs()).max(0);
        if lo > 0 {
            facts.push(format!("wins in at most {}", count(far(lo))));
        } else if lo == 0 {
            facts.push("at least a draw".to_string());
        } else if lo > -SOLVER_INFINITY && far(lo) > 1 {
            facts.push(format!("no loss within {}", count(far(lo) - 1)));
        }
        if hi < 0 {
            facts.push(format!("loses in at least {}", count(far(hi))));
        } else if hi == 0 {
            facts.push("no win".to_string());
        } else if hi < SOLVER_INFINITY && far(hi) > 1 {
            facts.push(format!("no win within {}", count(far(hi) - 1)));
        }
        if facts.is_empty() {
            write!(f, "nothing proved")
        } else {
            write!(f, "{}", facts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_results_agree() {
        for proved in [
            Proved::Win(3),
            Proved::Draw,
            Proved::Loss(1),
            Proved::Win(0),
        ] {
            assert_eq!(Proved::from_score(proved.score()), proved);
        }
        assert!(Proved::Win(1).score() > Proved::Win(2).score());
        assert!(Proved::Loss(5).score() > Proved::Loss(2).score());
        assert_eq!(Proved::Win(3).to_string(), "wins in 3 turns");
        assert_eq!(Proved::Loss(1).to_string(), "loses in 1 turn");
        assert_eq!(Proved::Win(2).flipped(), Proved::Loss(2));
    }

    #[test]
    fn bounds_say_what_is_known() {
        assert_eq!(Bounds::UNKNOWN.to_string(), "nothing proved");
        let draw_or_better = Bounds {
            lower: 0,
            upper: Proved::Win(4).score(),
        };
        assert_eq!(
            draw_or_better.to_string(),
            "at least a draw, no win within 3 turns"
        );
        assert_eq!(draw_or_better.flipped().upper, 0);
        let later = Bounds::exact(Proved::Win(2)).later_by(1);
        assert_eq!(later.proved(), Some(Proved::Win(3)));
    }
}
