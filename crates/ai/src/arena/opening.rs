//! Openings: where the games of a tournament start, so that two players do not replay the same
//! game. Each opening is played by a game pair, once with each player on seat 1.
//!
//! An openings file holds one opening per line: `startpos [moves M...]`, `fen POSITION
//! [moves M...]` (as UGI's `position` takes them), a bare move sequence from the usual start,
//! or a bare position string. Blank lines and lines starting with `#` are skipped. Every
//! opening is replayed through the rules when the file is read, so a bad line is refused with
//! its number. `random_opening` then adds random decisions, seeded per game pair.

use ludus_engine::{Game, Session};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// One opening: a start position (or the usual setup) and moves played from it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Opening {
    /// The position string, or `None` for the usual setup.
    pub position: Option<String>,
    /// Decisions or whole turns in notation.
    pub moves: Vec<String>,
}

/// The largest openings file read (bytes).
pub const MAX_OPENINGS_BYTES: usize = 16 << 20;

/// A bad line of an openings file.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("openings line {line}: {message}")]
pub struct OpeningError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl Opening {
    /// The session this opening starts, from the usual setup seeded with `seed`.
    pub(crate) fn start<G: Game>(
        &self,
        options: &G::Options,
        seed: u64,
    ) -> Result<Session<G>, String> {
        let mut session: Session<G> = match &self.position {
            Some(text) => Session::from_position(text, options).map_err(|e| e.to_string())?,
            None => Session::new(options, seed),
        };
        for (i, word) in self.moves.iter().enumerate() {
            session
                .play_text(word)
                .map_err(|e| format!("move {} '{word}': {e}", i + 1))?;
        }
        if session.state().outcome().is_some() {
            return Err("the game is over after this opening".to_string());
        }
        Ok(session)
    }
}

/// Reads an openings file for game `G` (see the module doc).
pub fn parse_openings<G: Game>(
    text: &str,
    options: &G::Options,
) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_line::<G>(line, options).map_err(|message| OpeningError {
            line: i + 1,
            message,
        })?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningError {
            line: 0,
            message: "the file holds no opening".to_string(),
        });
    }
    Ok(openings)
}

fn words_after(words: &[&str], start: usize) -> Result<Vec<String>, String> {
    match words.get(start) {
        None => Ok(Vec::new()),
        Some(&"moves") => Ok(words[start + 1..]
            .iter()
            .map(|w| (*w).to_string())
            .collect()),
        Some(other) => Err(format!(
            "expected 'moves' after the position, found '{other}'"
        )),
    }
}

fn parse_line<G: Game>(line: &str, options: &G::Options) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let opening = match words[0] {
        "startpos" => Opening {
            position: None,
            moves: words_after(&words, 1)?,
        },
        "fen" => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            if end < 2 {
                return Err("expected fen POSITION [moves M...]".to_string());
            }
            Opening {
                position: Some(words[1..end].join(" ")),
                moves: words_after(&words, end)?,
            }
        }
        _ => {
            let as_moves = Opening {
                position: None,
                moves: words.iter().map(|w| (*w).to_string()).collect(),
            };
            let Err(moves_error) = as_moves.start::<G>(options, 0) else {
                return Ok(as_moves);
            };
            let as_position = Opening {
                position: Some(line.to_string()),
                moves: Vec::new(),
            };
            if let Err(position_error) = as_position.start::<G>(options, 0) {
                return Err(format!(
                    "neither moves from the start ({moves_error}) nor a position string \
                     ({position_error})"
                ));
            }
            as_position
        }
    };
    opening.start::<G>(options, 0)?;
    Ok(opening)
}

/// Plays `plies` random decisions on `session`, never one that ends the game (it stops early
/// if every decision would).
pub(crate) fn random_plies<G: Game>(session: &mut Session<G>, plies: u32, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut actions = Vec::new();
    for _ in 0..plies {
        session.state().legal_actions(&mut actions);
        actions.retain(|&action| {
            let mut next = session.state().clone();
            next.apply(action);
            next.outcome().is_none()
        });
        if actions.is_empty() {
            return;
        }
        let action = actions[rng.random_range(0..actions.len())];
        if session.play(action).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};
    use ludus_engine::{Notation, Rules};

    use super::*;

    #[test]
    fn every_form_of_line_is_read_and_bad_lines_are_numbered() {
        let options = NimOptions::default();
        let start = Nim::new(&options, 0);
        let mut actions = Vec::new();
        start.legal_actions(&mut actions);
        let first = start.format_action(actions[0]);
        let text = format!(
            "# comment\n\nstartpos moves {first}\n{first}\nfen {}\n",
            start.position()
        );
        let openings = parse_openings::<Nim>(&text, &options).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0], openings[1]);
        assert_eq!(
            openings[2].position.as_deref(),
            Some(start.position().as_str())
        );
        let err = parse_openings::<Nim>("startpos\nstartpos moves zz\n", &options).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(parse_openings::<Nim>("# nothing\n", &options).is_err());
    }

    #[test]
    fn random_plies_are_seeded() {
        let options = NimOptions::default();
        let mut a = Session::<Nim>::new(&options, 0);
        let mut b = Session::<Nim>::new(&options, 0);
        random_plies(&mut a, 2, 9);
        random_plies(&mut b, 2, 9);
        assert_eq!(a.state().position(), b.state().position());
        assert!(a.state().outcome().is_none());
    }
}
