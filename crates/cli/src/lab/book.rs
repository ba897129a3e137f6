//! `ludus book`: an openings file of random openings that a search scores nearest to level
//! (see `ludus_ai::arena::balanced_book`), for `ludus arena --openings`.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use ludus_ai::arena::{balanced_book, BookConfig, BookLine};
use ludus_ai::AgentSpec;
use ludus_engine::record::write_atomically;
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::args::BookArgs;
use crate::output::outln;

/// Draws, scores and keeps the openings, writes the file and prints a summary.
pub fn run(args: &BookArgs) -> Result<()> {
    if args.candidates < args.openings {
        bail!(
            "--candidates {} is fewer than --openings {}: expected at least as many candidates \
             as openings to keep",
            args.candidates,
            args.openings
        );
    }
    let spec: AgentSpec = args.agent.parse()?;
    let started = Instant::now();
    let book = dispatch(&args.game, Book { args, spec })??;
    let text = book_text(args, &book);
    write_atomically(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write '{}'", args.out.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    // The kept opening furthest from level, as the search printed it (`+0.12`, `54%`).
    let widest = book
        .iter()
        .max_by(|a, b| a.more_level(b))
        .map_or_else(|| "-".to_string(), describe);
    if args.json {
        outln!(
            "{}",
            serde_json::json!({
                "game": args.game,
                "openings": book.len(),
                "candidates": args.candidates,
                "plies": args.plies,
                "agent": args.agent,
                "seed": args.seed,
                "widest": widest,
                "seconds": seconds,
                "out": args.out.display().to_string(),
            })
        )?;
    } else {
        outln!(
            "{} openings of {} candidates, scores within {}, in {seconds:.1} s, written to {}",
            book.len(),
            args.candidates,
            widest,
            args.out.display()
        )?;
    }
    Ok(())
}

/// The openings file: a header saying how it was made, then each opening after a comment.
fn book_text(args: &BookArgs, book: &[BookLine]) -> String {
    let mut text = format!(
        "# ludus book {}: the {} of {} random openings of {} decisions nearest to level \
         for {} (seed {}); each opening comes after a comment with its score for the side to move\n",
        args.game,
        book.len(),
        args.candidates,
        args.plies,
        args.agent,
        args.seed
    );
    for line in book {
        let _ = writeln!(
            text,
            "# candidate {}: {}\n{}",
            line.candidate,
            describe(line),
            line.to_line()
        );
    }
    text
}

/// A kept opening's verdict: the search's score, and the self-play share if games were played.
fn describe(line: &BookLine) -> String {
    match line.self_play {
        Some(share) => format!("{} self-play {:.0}%", line.evaluation, share * 100.0),
        None => line.evaluation.to_string(),
    }
}

struct Book<'a> {
    args: &'a BookArgs,
    spec: AgentSpec,
}

impl GameVisitor for Book<'_> {
    type Output = Result<Vec<BookLine>>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let config = BookConfig::<G> {
            options: parse_options(G::INFO.id, &self.args.options)?,
            spec: self.spec,
            plies: self.args.plies as u32,
            candidates: self.args.candidates as usize,
            keep: self.args.openings as usize,
            self_play: self.args.self_play as u32,
            max_decisions: self.args.max_decisions as usize,
            seed: self.args.seed,
        };
        Ok(balanced_book(&config)?)
    }
}
