//! Evaluation weights as data: the text format `ludus tune` writes into a game's folder and
//! the game's evaluation reads at build time (`include_str!`), and [`TunedWeights`], the
//! evaluation every game builds from them.
//!
//! One `name value` pair a line, in any order; `#` starts a comment. Every name of the
//! game's terms must occur exactly once, and no other.

use std::fmt::Write;
use std::sync::OnceLock;

use ludus_engine::{Heuristic, Seat};
use thiserror::Error;

/// A weights text that does not fit the game's terms.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum WeightsError {
    /// A line that is not `name number`.
    #[error("bad weights line {0}: '{1}': expected a term name and a number")]
    Syntax(usize, String),
    /// A name that is not a term of the evaluation, or given twice.
    #[error("bad weights line {0}: unknown or repeated term '{1}'")]
    Term(usize, String),
    /// A term without a weight.
    #[error("no weight for the term '{0}'")]
    Missing(String),
}

/// The weights of `terms`, in their order, read from `text`.
pub fn parse_weights(text: &str, terms: &[&str]) -> Result<Vec<f64>, WeightsError> {
    let mut weights = vec![None; terms.len()];
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let syntax = || WeightsError::Syntax(index + 1, raw.to_string());
        let (name, value) = line.split_once(char::is_whitespace).ok_or_else(syntax)?;
        let value: f64 = value.trim().parse().map_err(|_| syntax())?;
        if !value.is_finite() {
            return Err(syntax());
        }
        let slot = terms
            .iter()
            .position(|t| *t == name)
            .filter(|&i| weights[i].is_none())
            .ok_or_else(|| WeightsError::Term(index + 1, name.to_string()))?;
        weights[slot] = Some(value);
    }
    weights
        .iter()
        .zip(terms)
        .map(|(w, t)| w.ok_or_else(|| WeightsError::Missing((*t).to_string())))
        .collect()
}

/// The weights a game's evaluation reads from its `weights.txt` (`text`): those of `terms`,
/// or `fallback` (v1's) if the text does not fit them, which each game's tests rule out.
pub fn weights_or(text: &str, terms: &[&str], fallback: &[f64]) -> Vec<f64> {
    parse_weights(text, terms).unwrap_or_else(|_| fallback.to_vec())
}

/// The sum every tuned evaluation is (it lives in the engine, beside [`Heuristic`], so that
/// tuners outside this crate compute the same values).
pub use ludus_engine::weighted_sum;

/// A game's tuned weights: the text of its weights file (read at build time with
/// `include_str!`), parsed at first use, and the evaluation they give. One `static` per
/// weights file; `N` is the number of the game's terms.
#[derive(Debug)]
pub struct TunedWeights<const N: usize> {
    text: &'static str,
    terms: &'static [&'static str],
    v1: [f64; N],
    /// An array rather than a `Vec`: its length is known where the sum is inlined.
    parsed: OnceLock<[f64; N]>,
}

impl<const N: usize> TunedWeights<N> {
    /// The weights of `terms` in `text`, or v1's if the text does not fit them (which each
    /// game's tests rule out with [`TunedWeights::read`]). A `static` with a v1 weight
    /// missing or extra does not compile.
    pub const fn new(text: &'static str, terms: &'static [&'static str], v1: [f64; N]) -> Self {
        assert!(terms.len() == N, "one v1 weight per term");
        Self {
            text,
            terms,
            v1,
            parsed: OnceLock::new(),
        }
    }

    /// The weights, in the order of the terms.
    pub fn get(&self) -> &[f64] {
        self.array()
    }

    fn array(&self) -> &[f64; N] {
        self.parsed.get_or_init(|| {
            let weights = weights_or(self.text, self.terms, &self.v1);
            weights.try_into().unwrap_or(self.v1)
        })
    }

    /// The weights as the text gives them, or why it does not fit the terms.
    pub fn read(&self) -> Result<Vec<f64>, WeightsError> {
        parse_weights(self.text, self.terms)
    }

    /// The tuned evaluation of `state` for `seat`: its [`Heuristic::terms`] times these weights.
    pub fn evaluate<G: Heuristic>(&self, state: &G, seat: Seat) -> i32 {
        let mut terms = [0.0; N];
        state.terms(seat, &mut terms);
        weighted_sum(&terms, self.array())
    }
}

/// `weights` of `terms` as [`parse_weights`] reads them, after a `# comment` header line.
pub fn format_weights(terms: &[&str], weights: &[f64], comment: &str) -> String {
    let mut text = String::new();
    for line in comment.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    for (term, weight) in terms.iter().zip(weights) {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{term} {weight:.3}");
    }
    text
}

/// Checks that `v1_weights` × `terms` equal `evaluate_v1` exactly, for both seats, at every
/// position of 40 seeded random games from `start(game)`: the proof that a game's rewrite as
/// weights × terms is v1 itself. Returns the number of positions seen.
#[cfg(test)]
pub(crate) fn assert_terms_reproduce_v1<G: ludus_engine::Game>(
    start: impl Fn(u64) -> G,
    terms: impl Fn(&G, ludus_engine::Seat, &mut [f64]),
    evaluate_v1: impl Fn(&G, ludus_engine::Seat) -> i32,
    v1_weights: &[f64],
) -> usize {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(18);
    let mut actions = Vec::new();
    let mut out = vec![0.0; v1_weights.len()];
    let mut seen = 0;
    for game in 0..40 {
        let mut state = start(game);
        while state.to_move().is_some() {
            for seat in [ludus_engine::Seat::FIRST, ludus_engine::Seat::SECOND] {
                terms(&state, seat, &mut out);
                let linear = weighted_sum(&out, v1_weights);
                assert_eq!(linear, evaluate_v1(&state, seat), "{}", state.position());
            }
            seen += 1;
            state.legal_actions(&mut actions);
            state.apply(*actions.choose(&mut rng).unwrap());
        }
    }
    seen
}

/// Checks that `G`'s [`Heuristic::terms`] equal `reference` (the evaluation as first written)
/// bit for bit, for both seats, at every position of `games` seeded random games from
/// `start(game)`: the proof that a faster evaluation computes the same values. Returns the
/// number of positions seen.
#[cfg(test)]
pub(crate) fn assert_same_terms<G: Heuristic>(
    start: impl Fn(u64) -> G,
    games: u64,
    term_count: usize,
    reference: impl Fn(&G, Seat, &mut [f64]),
) -> usize {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(14);
    let mut actions = Vec::new();
    let (mut fast, mut slow) = (vec![0.0; term_count], vec![0.0; term_count]);
    let mut seen = 0;
    for game in 0..games {
        let mut state = start(game);
        while state.to_move().is_some() {
            let seats = state.seat_count();
            for seat in (1..=seats).filter_map(|n| Seat::from_number(n, seats)) {
                state.terms(seat, &mut fast);
                reference(&state, seat, &mut slow);
                let bits = |terms: &[f64]| terms.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&fast),
                    bits(&slow),
                    "terms {fast:?} against the reference's {slow:?} for {seat:?} at {}",
                    state.position()
                );
            }
            seen += 1;
            state.legal_actions(&mut actions);
            state.apply(*actions.choose(&mut rng).unwrap());
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use ludus_engine::WIN_SCORE;

    use super::*;

    #[test]
    fn weights_round_trip_and_bad_texts_are_refused() {
        let terms = ["points", "hand"];
        let text = format_weights(&terms, &[51.25, -4.0], "tuned\nseed 1");
        assert_eq!(parse_weights(&text, &terms).unwrap(), vec![51.25, -4.0]);
        assert!(matches!(
            parse_weights("points 1\n", &terms),
            Err(WeightsError::Missing(t)) if t == "hand"
        ));
        assert!(matches!(
            parse_weights("points 1\npoints 2\nhand 0", &terms),
            Err(WeightsError::Term(2, _))
        ));
        assert!(matches!(
            parse_weights("points x\nhand 0", &terms),
            Err(WeightsError::Syntax(1, _))
        ));
        assert!(parse_weights("points inf\nhand 0", &terms).is_err());
        assert_eq!(weighted_sum(&[2.0, -1.0], &[51.25, 4.0]), 99);
        assert_eq!(weighted_sum(&[1.0], &[1e12]), WIN_SCORE / 4);
    }
}
