//! The SPRT during a match: game pairs counted in order for the tested player, and where the
//! test stands, in numbers and in words that name the player ("H1: NAME is stronger than the
//! rest by ≥ 10 nElo").

use std::collections::BTreeMap;

use serde::Serialize;

use super::sprt::{Pentanomial, SprtConfig, SprtVerdict, MIN_PAIRS};
use super::GameResult;

/// Where an SPRT stands: whom it tests, its hypotheses, the pairs counted, the LLR and its
/// bounds, and its conclusion in words.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct SprtSummary {
    /// The tested player's name.
    pub player: String,
    /// The player it is measured against.
    pub opponent: String,
    /// `normalized` or `logistic`: the unit of `elo0` and `elo1`.
    pub model: String,
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// Game pairs by the tested player's points 0, ½, 1, 1½, 2.
    pub pentanomial: Pentanomial,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The bound where H0 is accepted.
    pub lower: f64,
    /// The bound where H1 is accepted.
    pub upper: f64,
    /// `H0 accepted`, `H1 accepted`, or `None` while undecided.
    #[serde(serialize_with = "verdict_text")]
    pub verdict: Option<SprtVerdict>,
    /// The hypotheses in words: `H1: NAME is stronger than the rest (OTHER) by ≥ 10 nElo; H0:
    /// by ≤ 0 nElo`.
    pub hypotheses: String,
    /// The verdict in words, naming the player.
    pub conclusion: String,
}

// serde's `serialize_with` hands over a reference.
#[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)]
fn verdict_text<S: serde::Serializer>(v: &Option<SprtVerdict>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.map_or_else(|| "game limit reached".to_string(), |v| v.to_string()))
}

impl SprtSummary {
    /// `LLR 1.23 (-2.94, 2.94)`, for progress bars.
    pub fn short(&self) -> String {
        format!("LLR {:.2} ({:.2}, {:.2})", self.llr, self.lower, self.upper)
    }
}

/// Counts finished game pairs for the SPRT, in pair order, so that the verdict depends only
/// on the results and not on which thread finished first.
#[derive(Debug)]
pub(crate) struct SprtTracker {
    config: SprtConfig,
    /// The tested player (an index into the tournament's players).
    player: usize,
    /// The tested player's name and its opponent's.
    names: (String, String),
    /// The tested player's points in games not yet counted, by game number.
    pending: BTreeMap<usize, f64>,
    next_pair: usize,
    pairs: Pentanomial,
    verdict: Option<SprtVerdict>,
}

impl SprtTracker {
    /// A test of `names[player]` against the other of the two `names`.
    pub(crate) fn new(config: SprtConfig, player: usize, names: &[String]) -> Self {
        let name = |i: usize| names.get(i).cloned().unwrap_or_default();
        SprtTracker {
            config,
            player,
            names: (name(player), name(1 - player.min(1))),
            pending: BTreeMap::new(),
            next_pair: 0,
            pairs: [0; 5],
            verdict: None,
        }
    }

    /// Counts `game` (of a two-player match) and every pair it completes.
    pub(crate) fn add(&mut self, game: &GameResult) -> SprtSummary {
        let points = match game.winner {
            Some(w) if w == self.player => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        self.pending.insert(game.index, points);
        while self.verdict.is_none() {
            let (even, odd) = (2 * self.next_pair, 2 * self.next_pair + 1);
            let (Some(&a), Some(&b)) = (self.pending.get(&even), self.pending.get(&odd)) else {
                break;
            };
            self.pending.remove(&even);
            self.pending.remove(&odd);
            self.pairs[((a + b) * 2.0).round() as usize] += 1;
            self.next_pair += 1;
            self.verdict = self.config.verdict(&self.pairs);
        }
        self.summary()
    }

    pub(crate) fn summary(&self) -> SprtSummary {
        let (lower, upper) = self.config.bounds();
        let c = &self.config;
        let unit = c.model.unit();
        let (player, opponent) = &self.names;
        let conclusion = match self.verdict {
            Some(SprtVerdict::H1) => format!(
                "H1 accepted: {player} is stronger than {opponent} by ≥ {} {unit}",
                c.elo1
            ),
            Some(SprtVerdict::H0) => format!(
                "H0 accepted: {player} is not stronger than {opponent} by {} {unit} (by ≤ {})",
                c.elo1, c.elo0
            ),
            None => format!(
                "no decision about {player} after {} pairs: game limit reached",
                self.pairs.iter().sum::<u32>()
            ),
        };
        SprtSummary {
            player: player.clone(),
            opponent: opponent.clone(),
            model: c.model.name().to_string(),
            elo0: c.elo0,
            elo1: c.elo1,
            pentanomial: self.pairs,
            llr: c.llr(&self.pairs),
            lower,
            upper,
            verdict: self.verdict,
            hypotheses: format!(
                "H1: {player} is stronger than the rest ({opponent}) by ≥ {} {unit}; H0: by ≤ {} {unit}",
                c.elo1, c.elo0
            ),
            conclusion,
        }
    }
}

/// The warning for a match of `games` games under an SPRT, when it has fewer than
/// [`MIN_PAIRS`] game pairs: the test can then only stop at the game limit.
pub fn too_few_pairs(games: usize) -> Option<String> {
    let pairs = games / 2;
    (pairs < MIN_PAIRS as usize).then(|| {
        format!(
            "--games {games} gives {pairs} game pairs: the SPRT decides after {MIN_PAIRS} pairs at the earliest, \
             so it will stop at the game limit (give --games {} or more)",
            2 * MIN_PAIRS
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, winner: Option<usize>) -> GameResult {
        GameResult {
            index,
            seats: vec![],
            result: String::new(),
            plies: 1,
            agents: vec![0, 1],
            winner,
            reason: String::new(),
        }
    }

    fn names() -> Vec<String> {
        vec!["old".to_string(), "new".to_string()]
    }

    #[test]
    fn sprt_counts_pairs_in_order_whatever_finishes_first() {
        let config: SprtConfig = "elo0=0,elo1=10".parse().unwrap();
        let mut tracker = SprtTracker::new(config, 0, &names());
        // Game 3 (pair 1) finishes before pair 0 is complete: nothing is counted yet.
        assert_eq!(tracker.add(&game(3, None)).pentanomial, [0; 5]);
        assert_eq!(tracker.add(&game(0, Some(0))).pentanomial, [0; 5]);
        // Game 1 completes pair 0 (won twice: class 4) and pair 1 waits for game 2.
        assert_eq!(tracker.add(&game(1, Some(0))).pentanomial, [0, 0, 0, 0, 1]);
        // Game 2 lost by the first player, game 3 drawn: ½ point, class 1.
        assert_eq!(tracker.add(&game(2, Some(1))).pentanomial, [0, 1, 0, 0, 1]);
    }

    #[test]
    fn the_tested_player_is_named_and_counted() {
        let config: SprtConfig = "elo0=0,elo1=10".parse().unwrap();
        let mut tracker = SprtTracker::new(config, 1, &names());
        // Every pair won twice by player 1: 30 such pairs give an LLR of 1.20 (see
        // `normalized_llr_matches_fastchess`), so it takes about 74 to reach 2.94.
        for index in 0..200 {
            tracker.add(&game(index, Some(1)));
        }
        let summary = tracker.summary();
        assert!((70..80).contains(&summary.pentanomial[4]), "{summary:?}");
        assert_eq!(summary.verdict, Some(SprtVerdict::H1));
        assert_eq!(
            summary.hypotheses,
            "H1: new is stronger than the rest (old) by ≥ 10 nElo; H0: by ≤ 0 nElo"
        );
        assert_eq!(
            summary.conclusion,
            "H1 accepted: new is stronger than old by ≥ 10 nElo"
        );
        assert!(too_few_pairs(59).is_some() && too_few_pairs(60).is_none());
    }
}
