//! The arena's results: per agent W/D/L, score and Elo; per game the seats, result and length;
//! as an aligned text table or as one JSON object.

use std::fmt::Write;

use serde::Serialize;

use super::elo::estimate;
use super::sprt::{Pentanomial, SprtConfig, SprtVerdict};

/// One agent's results over all its games.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct AgentResult {
    /// The agent's spec as given (`ai:alphabeta:time=0.1`).
    pub spec: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points won (1 a win, ½ a draw) in percent of the games played, rounded to 0.1.
    pub score: f64,
    /// Elo difference to the opponents it met, rounded to 0.1 (see [`estimate`](super::estimate)).
    pub elo: f64,
    /// Half-width of the 95 % interval of `elo`, rounded to 0.1.
    pub elo_ci95: f64,
}

/// One game of the arena.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct GameResult {
    /// The game's number in the tournament's list, from 0.
    #[serde(skip)]
    pub index: usize,
    /// The spec playing each seat, in seat order.
    pub seats: Vec<String>,
    /// Each seat's points joined by `-` in seat order: `1-0`, `0-1`, `1/2-1/2`, `0-1-0`, and
    /// `*` for a game stopped unfinished (counted as a draw).
    pub result: String,
    /// Decisions played.
    pub plies: u64,
    /// The index in [`ArenaReport::agents`] of each seat's agent.
    #[serde(skip)]
    pub agents: Vec<usize>,
    /// The index in [`ArenaReport::agents`] of the winner, `None` for a draw.
    #[serde(skip)]
    pub winner: Option<usize>,
    /// Why the game ended: the rules' reason, or why a player forfeited (an outside engine's
    /// illegal move, crash, garbage or time).
    pub reason: String,
}

/// Everything an arena run found. `to_json` gives exactly the documented keys.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct ArenaReport {
    /// The game id.
    pub game: String,
    /// One entry per agent, in the order given.
    pub agents: Vec<AgentResult>,
    /// One entry per game, in schedule order.
    pub games: Vec<GameResult>,
    /// The SPRT's outcome, when one ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSummary>,
}

/// Where an SPRT stands: its hypotheses, the pairs counted, the LLR and its bounds.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct SprtSummary {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// Game pairs by the first player's points 0, ½, 1, 1½, 2.
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
}

// serde's `serialize_with` hands over a reference.
#[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)]
fn verdict_text<S: serde::Serializer>(v: &Option<SprtVerdict>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.map_or_else(|| "game limit reached".to_string(), |v| v.to_string()))
}

/// Counts finished game pairs for the SPRT, in pair order, so that the verdict depends only
/// on the results and not on which thread finished first.
#[derive(Debug)]
pub(crate) struct SprtTracker {
    config: SprtConfig,
    /// The first player's points in games not yet counted, by game number.
    pending: std::collections::BTreeMap<usize, f64>,
    next_pair: usize,
    pairs: Pentanomial,
    verdict: Option<SprtVerdict>,
}

impl SprtTracker {
    pub(crate) fn new(config: SprtConfig) -> Self {
        SprtTracker {
            config,
            pending: std::collections::BTreeMap::new(),
            next_pair: 0,
            pairs: [0; 5],
            verdict: None,
        }
    }

    /// Counts `game` (of a two-player match) and every pair it completes.
    pub(crate) fn add(&mut self, game: &GameResult) -> SprtSummary {
        let points = match game.winner {
            Some(0) => 1.0,
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
        SprtSummary {
            elo0: self.config.elo0,
            elo1: self.config.elo1,
            pentanomial: self.pairs,
            llr: self.config.llr(&self.pairs),
            lower,
            upper,
            verdict: self.verdict,
        }
    }
}

impl SprtSummary {
    /// `LLR 1.23 (-2.94, 2.94)`, for progress bars.
    pub fn short(&self) -> String {
        format!("LLR {:.2} ({:.2}, {:.2})", self.llr, self.lower, self.upper)
    }
}

/// `x` rounded to one decimal (and never `-0.0`).
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

impl ArenaReport {
    /// A report of `games` between `specs`: each game counts once for every agent in it, as a
    /// win for the winner's agent, a loss for the others and a draw for all if nobody won.
    pub fn new(game: &str, specs: &[String], games: Vec<GameResult>) -> Self {
        let agents = specs
            .iter()
            .enumerate()
            .map(|(index, spec)| {
                let (mut wins, mut draws, mut losses) = (0, 0, 0);
                for game in games.iter().filter(|g| g.agents.contains(&index)) {
                    match game.winner {
                        Some(w) if w == index => wins += 1,
                        Some(_) => losses += 1,
                        None => draws += 1,
                    }
                }
                let e = estimate(wins, draws, losses);
                AgentResult {
                    spec: spec.clone(),
                    wins,
                    draws,
                    losses,
                    score: round1(e.score * 100.0),
                    elo: round1(e.elo),
                    elo_ci95: round1(e.ci95),
                }
            })
            .collect();
        ArenaReport {
            game: game.to_string(),
            agents,
            games,
            sprt: None,
        }
    }

    /// The report as one JSON object:
    /// `{"game", "agents": [{"spec", "wins", "draws", "losses", "score", "elo", "elo_ci95"}],
    /// "games": [{"seats", "result", "plies", "reason"}]}`, plus `"sprt": {"elo0", "elo1",
    /// "pentanomial", "llr", "lower", "upper", "verdict"}` when an SPRT ran.
    pub fn to_json(&self) -> String {
        // Strings and finite numbers only: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An aligned text table, one line per agent, with a title line.
    pub fn table(&self) -> String {
        let width = self
            .agents
            .iter()
            .map(|a| a.spec.len())
            .max()
            .unwrap_or(0)
            .max(5);
        let mut out = format!("{}: {} games\n", self.game, self.games.len());
        let _ = writeln!(
            out,
            "{:>2}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>7}  {:>6}",
            "#", "agent", "games", "W", "D", "L", "score", "elo", "±95%"
        );
        for (i, a) in self.agents.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>2}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>5.1}%  {:>+7.0}  {:>6.0}",
                i + 1,
                a.spec,
                a.wins + a.draws + a.losses,
                a.wins,
                a.draws,
                a.losses,
                a.score,
                a.elo,
                a.elo_ci95
            );
        }
        if let Some(sprt) = &self.sprt {
            let verdict = sprt.verdict.map_or_else(
                || "no decision: game limit reached".to_string(),
                |v| v.to_string(),
            );
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={}: {}, pairs {:?}: {verdict}",
                sprt.elo0,
                sprt.elo1,
                sprt.short(),
                sprt.pentanomial
            );
        }
        out
    }
}

/// The `result` text of a game among `seats` seats won by `winner` (a seat index), or drawn.
pub(crate) fn result_text(seats: usize, winner: Option<usize>) -> String {
    (0..seats)
        .map(|seat| match winner {
            Some(w) if w == seat => "1".to_string(),
            Some(_) => "0".to_string(),
            None => format!("1/{seats}"),
        })
        .collect::<Vec<_>>()
        .join("-")
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

    #[test]
    fn sprt_counts_pairs_in_order_whatever_finishes_first() {
        let config: SprtConfig = "elo0=0,elo1=10".parse().unwrap();
        let mut tracker = SprtTracker::new(config);
        // Game 3 (pair 1) finishes before pair 0 is complete: nothing is counted yet.
        assert_eq!(tracker.add(&game(3, None)).pentanomial, [0; 5]);
        assert_eq!(tracker.add(&game(0, Some(0))).pentanomial, [0; 5]);
        // Game 1 completes pair 0 (won twice: class 4) and pair 1 waits for game 2.
        assert_eq!(tracker.add(&game(1, Some(0))).pentanomial, [0, 0, 0, 0, 1]);
        // Game 2 lost by the first player, game 3 drawn: ½ point, class 1.
        assert_eq!(tracker.add(&game(2, Some(1))).pentanomial, [0, 1, 0, 0, 1]);
    }

    #[test]
    fn results_read_like_pgn() {
        assert_eq!(result_text(2, Some(0)), "1-0");
        assert_eq!(result_text(2, None), "1/2-1/2");
        assert_eq!(result_text(3, Some(1)), "0-1-0");
    }
}
