//! The end of a Yoxii game: who won, and the reason in words, interned.
//!
//! A search meets the end of the game at thousands of nodes a second, and the reason
//! ("totem surrounded: White 17 – Red 12") would otherwise be formatted, and allocated, at
//! each of them. Each distinct reason is formatted once per process and kept: they are
//! bounded by the scores around the totem (at most 32 points and 8 pieces a side), and a
//! game meets a few hundred of them at most.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use ludus_engine::{Outcome, Seat, Verdict};

use super::state::{RED, SEAT_NAMES, WHITE};

/// What decides an ending: why the game ended, each side's points and pieces around the
/// totem (White's, then Red's), and whether more pieces break a tie of points.
type Ending = (&'static str, (u32, u32), (u32, u32), bool);

/// Every reason formatted so far.
static REASONS: Mutex<BTreeMap<Ending, &'static str>> = Mutex::new(BTreeMap::new());

/// The outcome of a game ended for `why`, with White's and Red's (points, pieces) around the
/// totem; `tiebreak`: more pieces win a tie of points.
pub(super) fn outcome(
    why: &'static str,
    white: (u32, u32),
    red: (u32, u32),
    tiebreak: bool,
) -> Outcome {
    let verdict = match leader(white.0, red.0) {
        Some(winner) => Verdict::Win(winner),
        None if !tiebreak => Verdict::Draw,
        None => leader(white.1, red.1).map_or(Verdict::Draw, Verdict::Win),
    };
    let ending = (why, white, red, tiebreak);
    // A poisoned lock only means another thread panicked while inserting: the map is whole.
    let mut reasons = REASONS.lock().unwrap_or_else(PoisonError::into_inner);
    let reason = *reasons
        .entry(ending)
        .or_insert_with(|| Box::leak(describe(ending).into_boxed_str()));
    Outcome {
        verdict,
        reason: Cow::Borrowed(reason),
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

/// The reason in words.
fn describe((why, white, red, tiebreak): Ending) -> String {
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

    #[test]
    fn points_then_pieces_decide_and_the_reason_says_so() {
        let won = outcome("totem surrounded", (17, 5), (12, 6), true);
        assert_eq!(won.verdict, Verdict::Win(WHITE));
        assert_eq!(won.reason, "totem surrounded: White 17 – Red 12");
        let tie = outcome("totem surrounded", (9, 3), (9, 4), true);
        assert_eq!(tie.verdict, Verdict::Win(RED));
        assert_eq!(
            tie.reason,
            "totem surrounded: White 9 – Red 9, tie-break: Red has more pieces around the totem (4 to 3)"
        );
        let drawn = outcome("no pieces left", (9, 3), (9, 4), false);
        assert_eq!(drawn.verdict, Verdict::Draw);
        assert_eq!(drawn.reason, "no pieces left: White 9 – Red 9");
        let even = outcome("totem surrounded", (9, 3), (9, 3), true);
        assert_eq!(even.verdict, Verdict::Draw);
        assert_eq!(
            even.reason,
            "totem surrounded: White 9 – Red 9, tie-break: 3 pieces each around the totem"
        );
    }

    #[test]
    fn a_reason_is_formatted_once() {
        let first = outcome("totem surrounded", (3, 1), (2, 1), true);
        let again = outcome("totem surrounded", (3, 1), (2, 1), true);
        let (Cow::Borrowed(a), Cow::Borrowed(b)) = (first.reason, again.reason) else {
            panic!("reasons are borrowed");
        };
        assert!(std::ptr::eq(a, b));
    }
}
