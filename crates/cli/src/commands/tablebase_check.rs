//! `ludus tablebase GAME --check N`: random positions of the installed tables checked against
//! the rules and the solver (`ludus_ai::tablebase::check`), with a report in words or JSON.

use std::time::Instant;

use anyhow::{bail, Result};
use ludus_ai::tablebase::{check, installed, CheckPlan, CheckReport};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};
use serde_json::json;

use super::tablebase::games_with_tables;
use crate::args::TablebaseArgs;
use crate::output::outln;

/// Runs the check of `count` positions.
pub fn run(args: &TablebaseArgs, count: u64) -> Result<()> {
    let started = Instant::now();
    let (pieces, report) = dispatch(&args.game, Check { args, count })??;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let examples: Vec<_> = report
            .examples
            .iter()
            .map(|m| {
                json!({"position": m.position, "stored": m.stored.to_string(),
                       "found": m.found.to_string(), "check": m.check})
            })
            .collect();
        outln!(
            "{}",
            json!({
                "game": args.game, "pieces": pieces, "seed": args.seed,
                "positions": report.positions, "missing": report.missing,
                "unreadable": report.unreadable,
                "solver_nodes": args.solver_nodes, "solver_proved": report.solver_proved,
                "solver_draws": report.solver_draws, "mismatches": report.mismatches,
                "examples": examples, "seconds": seconds,
            })
        )?;
    } else {
        print_words(args, pieces, &report, seconds)?;
    }
    if report.mismatches > 0 || report.unreadable > 0 {
        bail!(
            "{} of the checks disagree with the tables and {} positions of them cannot be read: make them again with ludus tablebase",
            report.mismatches,
            report.unreadable
        );
    }
    Ok(())
}

fn print_words(args: &TablebaseArgs, pieces: u8, report: &CheckReport, seconds: f64) -> Result<()> {
    outln!(
        "{} positions of up to {pieces} a side checked in {seconds:.1} s (seed {})",
        report.positions,
        args.seed
    )?;
    if report.unreadable > 0 {
        outln!(
            "{} positions of the tables cannot be read by the rules",
            report.unreadable
        )?;
    }
    if report.missing > 0 {
        outln!(
            "{} positions drawn had no table in the folder",
            report.missing
        )?;
    }
    if args.solver_nodes > 0 {
        outln!(
            "solver ({} nodes a position): {} proved ({} draws)",
            args.solver_nodes,
            report.solver_proved,
            report.solver_draws
        )?;
    }
    for m in &report.examples {
        outln!(
            "disagrees ({}): {}: stored {}, found {}",
            m.check,
            m.position,
            m.stored,
            m.found
        )?;
    }
    outln!("disagreements: {}", report.mismatches)?;
    Ok(())
}

/// The check in one game: the pieces a side drawn and the report.
struct Check<'a> {
    args: &'a TablebaseArgs,
    count: u64,
}

impl GameVisitor for Check<'_> {
    type Output = Result<(u8, CheckReport)>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let Some(endgames) = G::endgames() else {
            bail!(
                "the game '{}' has no endgame tables: expected one of {}",
                G::INFO.id,
                games_with_tables().join(", ")
            );
        };
        let Some(tables) = installed::<G>() else {
            bail!("no endgame tables to check: give --tablebases DIR (made by ludus tablebase GAME --pieces N --out DIR)");
        };
        let present = tables.check()?;
        // By default, the most pieces a side for which the folder holds every material.
        let complete = (1..=u8::MAX)
            .take_while(|&n| endgames.materials(n).iter().all(|m| present.contains(m)))
            .last();
        let pieces = match (self.args.pieces, complete) {
            (Some(given), _) => u8::try_from(given)?,
            (None, Some(n)) => n,
            (None, None) => bail!("the tables folder holds no complete set of tables"),
        };
        let plan = CheckPlan {
            positions: usize::try_from(self.count)?,
            pieces,
            solver_nodes: self.args.solver_nodes,
            seed: self.args.seed,
        };
        Ok((pieces, check::<G>(&tables, &G::Options::default(), &plan)))
    }
}
