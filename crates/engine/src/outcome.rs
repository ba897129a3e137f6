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

    /// Every seat's reward in `[0, 1]` when `in_play` says which seats are still in the game:
    /// the winner 1 and the others 0; a draw is shared by the seats in play, and a seat
    /// knocked out before it gets 0 (a multi-seat draw is "shared by all surviving players").
    /// Where no seat is marked in play, a draw is shared by all.
    pub fn shares(self, in_play: &[bool]) -> Vec<f64> {
        match self {
            Verdict::Win(winner) => (0..in_play.len())
                .map(|i| f64::from(u8::from(i == winner.to_usize())))
                .collect(),
            Verdict::Draw => {
                let surviving = in_play.iter().filter(|&&alive| alive).count();
                if surviving == 0 {
                    return vec![1.0 / in_play.len().max(1) as f64; in_play.len()];
                }
                let share = 1.0 / surviving as f64;
                in_play
                    .iter()
                    .map(|&alive| if alive { share } else { 0.0 })
                    .collect()
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_shared_by_the_seats_still_in_play() {
        let seat = |n| Seat::from_number(n, 3).unwrap();
        assert_eq!(Verdict::Draw.shares(&[false, true, true]), [0.0, 0.5, 0.5]);
        assert_eq!(Verdict::Draw.shares(&[true, true]), [0.5, 0.5]);
        assert_eq!(Verdict::Draw.shares(&[false, false]), [0.5, 0.5]);
        assert_eq!(
            Verdict::Win(seat(2)).shares(&[false, true, true]),
            [0.0, 1.0, 0.0]
        );
    }
}
