//! How a game ended: a winner or a draw, and a reason a person can read.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Verdict {
    /// One seat won.
    Win(Seat),
    /// Nobody won.
    Draw,
}

impl Verdict {
    /// The winner, if any.
    pub fn winner(self) -> Option<Seat> {
        match self {
            Verdict::Win(seat) => Some(seat),
            Verdict::Draw => None,
        }
    }

    /// The reward of `seat` in `[0, 1]`: 1 for the winner, 0 for the others, and for a draw
    /// the share `1 / seat_count` (0.5 in two-seat games).
    pub fn reward(self, seat: Seat, seat_count: usize) -> f64 {
        match self {
            Verdict::Win(winner) if winner == seat => 1.0,
            Verdict::Win(_) => 0.0,
            Verdict::Draw => 1.0 / seat_count as f64,
        }
    }
}

/// A finished game's verdict and the reason for it ("four in a row", "turn limit").
///
/// Games cache this value in their state, so asking for it costs nothing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Who won, if anyone.
    pub verdict: Verdict,
    /// Why the game ended, in words ("king reached h8", "totem surrounded: White 17 – Red 12").
    pub reason: Cow<'static, str>,
}

impl Outcome {
    /// `seat` won for `reason`.
    pub fn win(seat: Seat, reason: impl Into<Cow<'static, str>>) -> Outcome {
        Outcome {
            verdict: Verdict::Win(seat),
            reason: reason.into(),
        }
    }

    /// A draw for `reason`.
    pub fn draw(reason: impl Into<Cow<'static, str>>) -> Outcome {
        Outcome {
            verdict: Verdict::Draw,
            reason: reason.into(),
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Seat> {
        self.verdict.winner()
    }

    /// The reward of `seat` in `[0, 1]` ([`Verdict::reward`]).
    pub fn reward(&self, seat: Seat, seat_count: usize) -> f64 {
        self.verdict.reward(seat, seat_count)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.verdict {
            Verdict::Win(seat) => write!(f, "{seat} wins ({})", self.reason),
            Verdict::Draw => write!(f, "draw ({})", self.reason),
        }
    }
}
