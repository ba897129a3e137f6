//! Balanced opening books: many random openings, each scored by a search or by self-play
//! games between copies of it, the most level kept.
//!
//! A tournament from random openings wastes most of its games when random decisions leave one
//! side far ahead: both games of the pair are then won by whoever got the good side, and the
//! pair says nothing about the players (in 200-game runs at 100 ms about 60 % of the pairs
//! were split that way). Engine testers play from books of positions where neither side is known to
//! be ahead; [`balanced_book`] builds one for any game. Its lines are an openings file
//! ([`parse_openings`](super::parse_openings)), so `ludus arena --openings` reads them back.
//!
//! A static score can call a position level that play does not: a tempo, or a structure the
//! evaluation does not see. With `self_play` games per candidate, the measure is the result of
//! those games instead (the share the side to move scored, nearest one half kept), the search's
//! score only breaking ties. The games need a player that varies with its seed (MCTS with an
//! iteration limit); copies of a deterministic alpha-beta would replay one game.

use std::fmt::Write as _;

use ludus_engine::{Game, Heuristic, Session};
use rayon::prelude::*;

use super::opening::random_plies;
use super::play::{decisions, mix};
use crate::{build_agent, AgentError, AgentSpec, Evaluation, StopFlag};

/// What [`balanced_book`] builds.
#[derive(Clone, Debug)]
pub struct BookConfig<G: Game> {
    /// Rules options.
    pub options: G::Options,
    /// The search that scores each candidate (a depth or node limit keeps the book
    /// reproducible).
    pub spec: AgentSpec,
    /// Random decisions in each candidate opening.
    pub plies: u32,
    /// Candidate openings drawn.
    pub candidates: usize,
    /// Openings kept: the candidates whose score is nearest to level.
    pub keep: usize,
    /// Self-play games per candidate between copies of `spec` (0: judge by the score alone).
    pub self_play: u32,
    /// Decisions after which a self-play game counts as drawn.
    pub max_decisions: usize,
    /// The seed of the draw: candidate `n` starts from a seed mixed from it and `n`.
    pub seed: u64,
}

/// Why a book cannot be built.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BookError {
    /// The scoring spec does not build.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The scoring player has no evaluation (random, greedy).
    #[error(
        "'{0}' gives no evaluation to balance openings by: expected a search such as \
         ai:4:depth=4 or ai:mcts:iterations=2000"
    )]
    NoEvaluation(String),
}

/// One opening of a book.
#[derive(Clone, PartialEq, Debug)]
pub struct BookLine {
    /// The candidate's number in the draw (for reproducing it).
    pub candidate: usize,
    /// The start position string, or `None` for the usual setup.
    pub position: Option<String>,
    /// The random decisions, in notation.
    pub moves: Vec<String>,
    /// The search's evaluation for the side to move after the opening.
    pub evaluation: Evaluation,
    /// The mean reward of the side to move over the self-play games, if any were played.
    pub self_play: Option<f64>,
}

impl BookLine {
    /// The line of an openings file: `startpos moves ...` or `fen POSITION moves ...`.
    pub fn to_line(&self) -> String {
        let mut line = match &self.position {
            None => "startpos".to_string(),
            Some(position) => format!("fen {position}"),
        };
        if !self.moves.is_empty() {
            line.push_str(" moves");
            for word in &self.moves {
                let _ = write!(line, " {word}");
            }
        }
        line
    }

    /// How far from level the opening is: the self-play share's distance from one half (in
    /// hundredths), then the search's verdict (a heuristic score's size, or a reward's distance
    /// from one half in the same hundredths); forced results are never level.
    pub fn imbalance(&self) -> (f64, f64) {
        let by_search = self.search_imbalance();
        let by_games = self
            .self_play
            .map_or(0.0, |share| (share - 0.5).abs() * 100.0);
        (by_games, by_search)
    }

    /// Orders two openings from the most level to the least (see [`BookLine::imbalance`]).
    pub fn more_level(&self, other: &BookLine) -> std::cmp::Ordering {
        let (a, b) = (self.imbalance(), other.imbalance());
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
    }

    fn search_imbalance(&self) -> f64 {
        match self.evaluation {
            Evaluation::Score(score) => f64::from(score.unsigned_abs()),
            Evaluation::Reward(reward) => (reward - 0.5).abs() * 100.0,
            Evaluation::Proved(proved) if proved.turns().is_none() => 0.0,
            Evaluation::Win(_) | Evaluation::Loss(_) | Evaluation::Proved(_) => f64::INFINITY,
        }
    }
}

/// Draws `config.candidates` random openings, scores each with `config.spec`, and returns the
/// `config.keep` nearest to level in the order they were drawn (fewer if too few candidates
/// were distinct, unfinished and not forced). The same config gives the same book whatever the
/// number of threads, when the spec has no time limit. Errors: a bad spec, or a search that
/// gives no evaluation (`ai:1`, `ai:2`).
pub fn balanced_book<G: Game + Heuristic>(
    config: &BookConfig<G>,
) -> Result<Vec<BookLine>, BookError> {
    build_agent::<G>(&config.spec, 0)?;
    let scored: Vec<Option<(BookLine, String)>> = (0..config.candidates)
        .into_par_iter()
        .map(|n| candidate(config, n))
        .collect::<Result<_, _>>()?;
    let mut seen = std::collections::HashSet::new();
    let mut lines: Vec<BookLine> = scored
        .into_iter()
        .flatten()
        .filter(|(_, position)| seen.insert(position.clone()))
        .map(|(line, _)| line)
        .filter(|line| line.search_imbalance().is_finite())
        .collect();
    lines.sort_by(BookLine::more_level);
    lines.truncate(config.keep);
    lines.sort_by_key(|line| line.candidate);
    Ok(lines)
}

/// Candidate `n` and the position it reaches, or `None` when the game ended on the way.
fn candidate<G: Game + Heuristic>(
    config: &BookConfig<G>,
    n: usize,
) -> Result<Option<(BookLine, String)>, BookError> {
    let seed = mix(config.seed, n as u64);
    let mut session = Session::<G>::new(&config.options, seed);
    random_plies(&mut session, config.plies, mix(seed, 0x626f_6f6b));
    let state = session.state();
    if state.outcome().is_some() {
        return Ok(None);
    }
    let mut agent = build_agent::<G>(&config.spec, seed)?;
    let analysis = agent.analyse(state, &StopFlag::default());
    let Some(evaluation) = analysis.evaluation else {
        return Err(BookError::NoEvaluation(config.spec.to_string()));
    };
    let start = session.start().position();
    let usual = start == G::new(&config.options, 0).position();
    let self_play = (config.self_play > 0).then(|| self_play_share(config, state, seed));
    let line = BookLine {
        candidate: n,
        position: (!usual).then_some(start),
        moves: decisions(&session),
        evaluation,
        self_play: self_play.transpose()?,
    };
    Ok(Some((line, state.position())))
}

/// The mean reward of the side to move at `start` over `config.self_play` games between copies
/// of `config.spec`, each seeded apart; a game still running after `max_decisions` is a draw.
fn self_play_share<G: Game + Heuristic>(
    config: &BookConfig<G>,
    start: &G,
    seed: u64,
) -> Result<f64, BookError> {
    let Some(mover) = start.to_move() else {
        return Ok(0.5);
    };
    let seats = start.seat_count();
    let stop = StopFlag::default();
    let mut total = 0.0;
    for game in 0..u64::from(config.self_play) {
        let game_seed = mix(seed, 0x7365_6c66 + game);
        let mut agents = (0..seats)
            .map(|k| build_agent::<G>(&config.spec, mix(game_seed, k as u64)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut state = start.clone();
        for _ in 0..config.max_decisions {
            let Some(seat) = state.to_move() else { break };
            let action = agents[seat.to_usize()].choose(&state, &stop);
            state.apply(action);
        }
        total += state
            .outcome()
            .map_or(1.0 / seats as f64, |outcome| outcome.reward(mover, seats));
    }
    Ok(total / f64::from(config.self_play))
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};

    use super::*;
    use crate::arena::parse_openings;

    /// MCTS rewards differ from opening to opening (Nim's heuristic scores are all ±100), so
    /// the ranking below has something to rank.
    fn config(keep: usize) -> BookConfig<Nim> {
        BookConfig {
            options: NimOptions::default(),
            spec: "ai:mcts:iterations=40".parse().unwrap(),
            plies: 2,
            candidates: 40,
            keep,
            self_play: 0,
            max_decisions: 200,
            seed: 7,
        }
    }

    #[test]
    fn the_book_keeps_the_most_level_openings_in_draw_order_and_reads_back() {
        let book = balanced_book(&config(2)).unwrap();
        assert!(!book.is_empty() && book.len() <= 2);
        assert!(book.windows(2).all(|w| w[0].candidate < w[1].candidate));
        let all = balanced_book(&config(usize::MAX)).unwrap();
        let worst_kept = book.iter().map(|l| l.imbalance().1).fold(0.0, f64::max);
        let dropped: Vec<_> = all.iter().filter(|line| !book.contains(line)).collect();
        assert!(
            dropped.iter().any(|l| l.imbalance().1 > worst_kept),
            "{all:?}"
        );
        assert!(dropped.iter().all(|l| l.imbalance().1 >= worst_kept));
        let text: String = book.iter().map(|l| l.to_line() + "\n").collect();
        let openings = parse_openings::<Nim>(&text, &NimOptions::default()).unwrap();
        assert_eq!(openings.len(), book.len());
        assert_eq!(balanced_book(&config(2)).unwrap(), book, "reproducible");
    }

    #[test]
    fn self_play_shares_rank_the_book_before_scores() {
        let mut by_games = config(4);
        by_games.spec = "ai:mcts:iterations=30".parse().unwrap();
        by_games.self_play = 4;
        let book = balanced_book(&by_games).unwrap();
        let mut all = by_games.clone();
        all.keep = usize::MAX;
        let all = balanced_book(&all).unwrap();
        assert!(all
            .iter()
            .all(|l| l.self_play.is_some_and(|s| (0.0..=1.0).contains(&s))));
        let worst_kept = book.iter().map(|l| l.imbalance().0).fold(0.0, f64::max);
        let dropped = all.iter().filter(|line| !book.contains(line));
        assert!(dropped.map(|l| l.imbalance().0).all(|x| x >= worst_kept));
        assert_eq!(balanced_book(&by_games).unwrap(), book, "reproducible");
    }

    #[test]
    fn a_player_without_an_evaluation_is_refused_with_a_reason() {
        let mut bad = config(5);
        bad.spec = "ai:1".parse().unwrap();
        let err = balanced_book(&bad).unwrap_err().to_string();
        assert!(err.contains("no evaluation"), "{err}");
    }
}
