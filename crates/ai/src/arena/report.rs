//! The arena's results: per agent W/D/L, score and Elo; per game the seats, result and length;
//! as an aligned text table or as one JSON object.

use std::fmt::Write;

use serde::Serialize;

use super::elo::estimate;
use super::penta::{pair_estimate, pairs_of};
use super::sprt::Pentanomial;
use super::sprt_tracker::SprtSummary;

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
    /// Its game pairs (the same opening, seats swapped) by its points 0, ½, 1, 1½, 2.
    pub pentanomial: Pentanomial,
    /// Elo from the game pairs' scores, rounded to 0.1 (see [`pair_estimate`]).
    pub penta_elo: f64,
    /// Half-width of the 95 % interval of `penta_elo`, rounded to 0.1.
    pub penta_elo_ci95: f64,
    /// Normalized Elo from the game pairs, rounded to 0.1.
    pub nelo: f64,
    /// Half-width of the 95 % interval of `nelo`, rounded to 0.1.
    pub nelo_ci95: f64,
    /// Likelihood of superiority in percent, rounded to 0.1.
    pub los: f64,
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

/// The results of player `index`, called `spec`, in `games`.
fn agent_result(index: usize, spec: &str, games: &[GameResult]) -> AgentResult {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for game in games.iter().filter(|g| g.agents.contains(&index)) {
        match game.winner {
            Some(w) if w == index => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let e = estimate(wins, draws, losses);
    let pentanomial = pairs_of(index, games);
    let p = pair_estimate(&pentanomial);
    AgentResult {
        spec: spec.to_string(),
        wins,
        draws,
        losses,
        score: round1(e.score * 100.0),
        elo: round1(e.elo),
        elo_ci95: round1(e.ci95),
        pentanomial,
        penta_elo: round1(p.elo),
        penta_elo_ci95: round1(p.elo_ci95),
        nelo: round1(p.nelo),
        nelo_ci95: round1(p.nelo_ci95),
        los: round1(p.los * 100.0),
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
            .map(|(index, spec)| agent_result(index, spec, &games))
            .collect();
        ArenaReport {
            game: game.to_string(),
            agents,
            games,
            sprt: None,
        }
    }

    /// The report as one JSON object:
    /// `{"game", "agents": [{"spec", "wins", "draws", "losses", "score", "elo", "elo_ci95",
    /// "pentanomial", "penta_elo", "penta_elo_ci95", "nelo", "nelo_ci95", "los"}], "games":
    /// [{"seats", "result", "plies", "reason"}]}`, plus `"sprt": {"player", "opponent", "model",
    /// "elo0", "elo1", "pentanomial", "llr", "lower", "upper", "verdict", "hypotheses",
    /// "conclusion"}` when an SPRT ran.
    pub fn to_json(&self) -> String {
        // Strings and finite numbers only: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An aligned text table, one line per agent, with a title line; under an SPRT, its
    /// hypotheses, state and conclusion.
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
            "{:>2}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>7}  {:>6}  {:>7}  {:>6}  {:>7}  {:>6}  {:>6}",
            "#", "agent", "games", "W", "D", "L", "score", "elo", "±95%", "pElo", "±95%", "nElo", "±95%", "LOS"
        );
        for (i, a) in self.agents.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>2}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>5.1}%  {:>+7.0}  {:>6.0}  {:>+7.0}  {:>6.0}  {:>+7.0}  {:>6.0}  {:>5.1}%",
                i + 1,
                a.spec,
                a.wins + a.draws + a.losses,
                a.wins,
                a.draws,
                a.losses,
                a.score,
                a.elo,
                a.elo_ci95,
                a.penta_elo,
                a.penta_elo_ci95,
                a.nelo,
                a.nelo_ci95,
                a.los
            );
        }
        if let Some(sprt) = &self.sprt {
            let _ = writeln!(
                out,
                "SPRT ({} model) {}\n{}, pairs {:?}\n{}",
                sprt.model,
                sprt.hypotheses,
                sprt.short(),
                sprt.pentanomial,
                sprt.conclusion
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

    #[test]
    fn results_read_like_pgn() {
        assert_eq!(result_text(2, Some(0)), "1-0");
        assert_eq!(result_text(2, None), "1/2-1/2");
        assert_eq!(result_text(3, Some(1)), "0-1-0");
    }
}
