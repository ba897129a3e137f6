//! The searches' rules against shuffling, shared by minimax and alpha-beta: a decision that
//! undoes the turn's previous one ([`Heuristic::is_undoing`]) loses ties, and a position that
//! repeats an earlier turn start ([`Heuristic::repeats`]) scores as a draw **at the even
//! point** of the position searched.
//!
//! Why the even point rather than 0: a draw is worth what an even game is worth, and 0 is that
//! only for an evaluation that is zero-sum. The original programs' heuristics are not: Splut!'s
//! rates a quiet position from 0 down (a troll far from the rocks, a dwarf far from the
//! centre), so a repetition scored 0 looked better than any quiet position to both sides,
//! and both walked into it. The even point is halfway between the searching seat's
//! evaluation and its strongest opponent's, so the side behind still finds a draw worth
//! having and the side ahead finds it worse than its lead; a repetition costs one unit more,
//! so that a search keeps playing where anything else is as good.
//!
//! `shuffle=allow` (minimax and alpha-beta) turns both rules off, so that one binary measures
//! the searches with and without them (`crates/ai/examples/shuffle.rs`).

use ludus_engine::{Game, Seat};

use crate::params::Params;
use crate::score::{static_score, EvalFn};
use crate::AgentError;

/// Whether a search keeps its rules against shuffling (`shuffle=avoid`, the default) or plays
/// without them (`shuffle=allow`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Shuffling {
    /// Undoing decisions lose ties; repetitions score as draws at the even point.
    #[default]
    Avoid,
    /// Neither rule: a repeated position is searched like any other (only the game's own
    /// repetition draw ends a line), and ties are broken at random.
    Allow,
}

impl Shuffling {
    /// Reads the `shuffle` parameter (`avoid` or `allow`), if given.
    pub(crate) fn from_params(params: &Params<'_>) -> Result<Option<Shuffling>, AgentError> {
        params.with("shuffle", "avoid or allow", |text| match text {
            "avoid" => Some(Shuffling::Avoid),
            "allow" => Some(Shuffling::Allow),
            _ => None,
        })
    }

    /// Whether the rules are on.
    pub(crate) fn avoids(self) -> bool {
        self == Shuffling::Avoid
    }
}

/// What a repeated position is worth to `root` in a search of `state` (which `root` is to
/// move in): one unit below the even point between `root`'s evaluation and the best of its
/// opponents' (see the module doc).
pub(crate) fn repetition_score<G: Game>(eval: EvalFn<G>, state: &G, root: Seat) -> i32 {
    let mine = static_score(eval, state, root);
    let theirs = (0..state.seat_count())
        .filter_map(|i| u8::try_from(i).ok().map(Seat::new))
        .filter(|&seat| seat != root)
        .map(|seat| static_score(eval, state, seat))
        .max()
        .unwrap_or(mine);
    // Both lie within ±MATE_BOUND, so neither the sum nor the unit can overflow.
    (mine + theirs).div_euclid(2) - 1
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};
    use ludus_engine::Rules;

    use super::*;
    use crate::AgentSpec;

    fn read(text: &str) -> Result<Option<Shuffling>, AgentError> {
        let spec: AgentSpec = text.parse().unwrap();
        Shuffling::from_params(&Params::new(&spec, &["shuffle"]).unwrap())
    }

    #[test]
    fn the_switch_reads_avoid_or_allow() {
        assert_eq!(read("ai:minimax").unwrap(), None);
        assert_eq!(
            read("ai:minimax:shuffle=avoid").unwrap(),
            Some(Shuffling::Avoid)
        );
        assert_eq!(
            read("ai:minimax:shuffle=allow").unwrap(),
            Some(Shuffling::Allow)
        );
        let error = read("ai:minimax:shuffle=yes").unwrap_err().to_string();
        assert!(error.contains("expected avoid or allow"), "{error}");
    }

    /// An evaluation that is not zero-sum: both seats below 0, the first less so.
    fn lopsided(_: &Nim, seat: Seat) -> i32 {
        if seat == Seat::FIRST {
            -30
        } else {
            -71
        }
    }

    #[test]
    fn a_repetition_sits_one_unit_below_the_even_point() {
        let state = Nim::new(&NimOptions::default(), 0);
        // Halfway between -30 and -71 is -50.5, rounded down; one unit less.
        assert_eq!(repetition_score(lopsided, &state, Seat::FIRST), -52);
        assert_eq!(repetition_score(lopsided, &state, Seat::SECOND), -52);
        // The first seat is ahead (-30 > -52), the second behind (-71 < -52).
    }
}
