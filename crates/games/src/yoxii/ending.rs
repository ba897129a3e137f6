//! The end of a Yoxii game: who won, and the reason in words, written only when asked for.
//!
//! A search meets the end of the game at thousands of nodes a second and needs only the
//! verdict; the reason ("totem surrounded: White 17 – Red 12") is a formatted string. So a
//! finished position keeps a small [`Ending`] (why, and the points and pieces around the
//! totem), answers [`Game::verdict`](ludus_engine::Game::verdict) from it, and writes the
//! [`Outcome`] the first time a front end asks for it (cached in the state).

use std::cmp::Ordering;
use std::sync::OnceLock;

use ludus_engine::{Outcome, Seat, Verdict};

use super::state::{RED, SEAT_NAMES, WHITE};

/// How a game ended, without the words: small and `Copy`, so that positions stay cheap to
/// clone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Ending {
    /// A seat resigned.
    Resigned(Seat),
    /// The game was scored: why it ended, White's and Red's (points, pieces) around the
    /// totem, and whether more pieces break a tie of points.
    Scored {
        why: &'static str,
        white: (u32, u32),
        red: (u32, u32),
        tiebreak: bool,
    },
}

impl Ending {
    /// Who won.
    pub(super) fn verdict(self) -> Verdict {
        match self {
            Ending::Resigned(seat) => Verdict::Win(seat.opponent()),
            Ending::Scored {
                white,
                red,
                tiebreak,
                ..
            } => match leader(white.0, red.0) {
                Some(winner) => Verdict::Win(winner),
                None if !tiebreak => Verdict::Draw,
                None => leader(white.1, red.1).map_or(Verdict::Draw, Verdict::Win),
            },
        }
    }

    /// The verdict with its reason in words.
    pub(super) fn outcome(self) -> Outcome {
        let reason = match self {
            Ending::Resigned(seat) => format!("{} resigned", SEAT_NAMES[seat.to_usize()]),
            Ending::Scored {
                why,
                white,
                red,
                tiebreak,
            } => describe(why, white, red, tiebreak),
        };
        Outcome {
            verdict: self.verdict(),
            reason: reason.into(),
        }
    }
}

/// A finished position's ending and, once asked for, its outcome in words.
#[derive(Clone, Debug, Default)]
pub(super) struct End {
    ending: Option<Ending>,
    outcome: OnceLock<Outcome>,
}

impl End {
    /// The game ends for `ending`.
    pub(super) fn set(&mut self, ending: Ending) {
        *self = End {
            ending: Some(ending),
            outcome: OnceLock::new(),
        };
    }

    /// Whether the game is over.
    pub(super) fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// Who won, without writing the reason.
    pub(super) fn verdict(&self) -> Option<Verdict> {
        self.ending.map(Ending::verdict)
    }

    /// The outcome, written the first time.
    pub(super) fn outcome(&self) -> Option<&Outcome> {
        let ending = self.ending?;
        Some(self.outcome.get_or_init(|| ending.outcome()))
    }
}

/// The seat with more, if either.
fn leader(white: u32, red: u32) -> Option<Seat> {
    match white.cmp(&red) {
        Ordering::Greater => Some(WHITE),
        Ordering::Less => Some(RED),
        Ordering::Equal => None,
    }
}

/// The reason of a scored game in words.
fn describe(why: &str, white: (u32, u32), red: (u32, u32), tiebreak: bool) -> String {
    let scores = format!("{why}: White {} – Red {}", white.0, red.0);
    if white.0 != red.0 || !tiebreak {
        return scores;
    }
    match leader(white.1, red.1) {
        Some(winner) => format!(
            "{scores}, tie-break: {} has more pieces around the totem ({} to {})",
            SEAT_NAMES[winner.to_usize()],
            white.1.max(red.1),
            white.1.min(red.1)
        ),
        None => format!(
            "{scores}, tie-break: {} pieces each around the totem",
            white.1
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(why: &'static str, white: (u32, u32), red: (u32, u32), tiebreak: bool) -> Outcome {
        let ending = Ending::Scored {
            why,
            white,
            red,
            tiebreak,
        };
        let outcome = ending.outcome();
        assert_eq!(ending.verdict(), outcome.verdict);
        outcome
    }

    #[test]
    fn points_then_pieces_decide_and_the_reason_says_so() {
        let won = scored("totem surrounded", (17, 5), (12, 6), true);
        assert_eq!(won.verdict, Verdict::Win(WHITE));
        assert_eq!(won.reason, "totem surrounded: White 17 – Red 12");
        let tie = scored("totem surrounded", (9, 3), (9, 4), true);
        assert_eq!(tie.verdict, Verdict::Win(RED));
        assert_eq!(
            tie.reason,
            "totem surrounded: White 9 – Red 9, tie-break: Red has more pieces around the totem (4 to 3)"
        );
        let drawn = scored("no pieces left", (9, 3), (9, 4), false);
        assert_eq!(drawn.verdict, Verdict::Draw);
        assert_eq!(drawn.reason, "no pieces left: White 9 – Red 9");
        let even = scored("totem surrounded", (9, 3), (9, 3), true);
        assert_eq!(even.verdict, Verdict::Draw);
        assert_eq!(
            even.reason,
            "totem surrounded: White 9 – Red 9, tie-break: 3 pieces each around the totem"
        );
        let resigned = Ending::Resigned(RED).outcome();
        assert_eq!(resigned.verdict, Verdict::Win(WHITE));
        assert_eq!(resigned.reason, "Red resigned");
    }

    #[test]
    fn the_reason_is_written_when_first_asked_for_and_kept() {
        let mut end = End::default();
        assert!(!end.is_over() && end.verdict().is_none() && end.outcome().is_none());
        end.set(Ending::Resigned(WHITE));
        assert_eq!(end.verdict(), Some(Verdict::Win(RED)));
        assert!(end.outcome.get().is_none(), "the verdict writes no reason");
        let first: *const Outcome = end.outcome().unwrap();
        assert!(std::ptr::eq(first, end.outcome().unwrap()));
        // A new ending replaces the words written for the old one.
        end.set(Ending::Resigned(RED));
        assert_eq!(end.outcome().unwrap().reason, "Red resigned");
    }
}
