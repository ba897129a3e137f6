//! Evaluations fitted to data: self-play positions with their results ([`datagen`]), the
//! Texel method fitting the weights of a game's evaluation terms to them ([`tune`]), and
//! SPSA tuning the weights for strength from games between perturbed copies ([`spsa()`]).
//!
//! A sample is one position of a self-play game, the side to move's final result (1 win,
//! ½ draw, 0 loss) and the search's score there. Samples are text, one a line:
//! `result<TAB>score<TAB>position` (score `-` when the search gave none), so that data sets
//! can be concatenated, inspected and kept. A position string of several lines (Splut!'s)
//! is written with its line breaks as `\n` (and backslashes as `\\`).

mod datagen;
pub mod spsa;
mod texel;

pub use self::datagen::{datagen, DatagenConfig};
pub(crate) use self::spsa::trial_evaluate;
pub use self::spsa::{spsa, SpsaConfig, SpsaError, SpsaReport};
pub use self::texel::{tune, tune_with, TuneConfig, TuneError, TuneReport};

/// The start of a self-play game seeded with `seed`: `opening` random decisions from the
/// initial position (fewer if the game ends first), drawn with `seed` too.
// Not `Game::play_randomly`: a game's fast playout may draw from the generator differently,
// and the seeds in docs/STRENGTH.md must keep giving the openings (and weights) they gave.
pub(crate) fn random_start<G: ludus_engine::Game>(
    options: &G::Options,
    seed: u64,
    opening: usize,
) -> G {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut state = G::new(options, seed);
    let mut actions = Vec::new();
    for _ in 0..opening {
        state.legal_actions(&mut actions);
        let Some(&action) = actions.choose(&mut rng) else {
            break;
        };
        state.apply(action);
    }
    state
}

/// One position of a self-play game with the game's result.
#[derive(Clone, PartialEq, Debug)]
pub struct Sample {
    /// The final result for the side to move: 1 win, 0.5 draw, 0 loss (shares in games of
    /// more seats).
    pub result: f64,
    /// The search's score for the side to move, in evaluation units, when it gave one.
    pub score: Option<i32>,
    /// The position string.
    pub position: String,
}

impl Sample {
    /// The sample as one line of text (without the newline).
    pub fn to_line(&self) -> String {
        let score = self
            .score
            .map_or_else(|| "-".to_string(), |s| s.to_string());
        let position = self.position.replace('\\', "\\\\").replace('\n', "\\n");
        format!("{}\t{score}\t{position}", self.result)
    }

    /// Reads a line written by [`Sample::to_line`].
    pub fn from_line(line: &str) -> Option<Sample> {
        let mut fields = line.splitn(3, '\t');
        let result: f64 = fields.next()?.parse().ok()?;
        let score = match fields.next()? {
            "-" => None,
            text => Some(text.parse().ok()?),
        };
        let position = unescape(fields.next()?)?;
        (0.0..=1.0).contains(&result).then_some(Sample {
            result,
            score,
            position,
        })
    }
}

/// The position written by [`Sample::to_line`]: `\n` a line break, `\\` a backslash;
/// `None` for any other escape.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                'n' => out.push('\n'),
                '\\' => out.push('\\'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_round_trip_and_bad_lines_are_refused() {
        let sample = Sample {
            result: 0.5,
            score: Some(-120),
            position: "a b\tc".into(),
        };
        assert_eq!(Sample::from_line(&sample.to_line()), Some(sample));
        let bare = Sample {
            score: None,
            ..Sample::from_line("1\t-\tx").unwrap()
        };
        assert_eq!(bare.to_line(), "1\t-\tx");
        let lines = Sample {
            result: 1.0,
            score: None,
            position: "size=9\nsouth: Se2 \\ x".into(),
        };
        assert_eq!(lines.to_line(), "1\t-\tsize=9\\nsouth: Se2 \\\\ x");
        assert_eq!(Sample::from_line(&lines.to_line()), Some(lines));
        for bad in ["", "1", "2\t0\tx", "w\t0\tx", "1\t1.5\tx", "1\t0\tx\\t"] {
            assert!(Sample::from_line(bad).is_none(), "{bad}");
        }
    }
}
