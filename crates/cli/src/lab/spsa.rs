//! `ludus spsa`: a game's evaluation weights tuned for strength by SPSA (see
//! `ludus_ai::tuning::spsa` and `docs/STRENGTH.md`), from a weights file to a weights file.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Instant;

use anyhow::{Context, Result};
use ludus_ai::tuning::{self, SpsaConfig, SpsaReport};
use ludus_ai::AgentSpec;
use ludus_engine::record::write_atomically;
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::weights::{format_weights, parse_weights};
use ludus_games::{dispatch, GameVisitor};

use super::tuning::{option_flags, print_and_write, term_mask, weight_changes};
use crate::args::{SpsaArgs, DEFAULT_MAX_DECISIONS};

/// Iterations between two progress lines and checkpoints of the weights in `--out`.
const CHECKPOINT_EVERY: usize = 50;

/// Reads the starting weights, runs SPSA, prints the report and writes the weights.
pub fn run(args: &SpsaArgs) -> Result<()> {
    let spec: AgentSpec = args.spec.parse()?;
    let from = std::fs::read_to_string(&args.from)
        .with_context(|| format!("cannot read '{}'", args.from.display()))?;
    let started = Instant::now();
    let (report, weights) = dispatch(&args.game, Spsa { args, spec, from })??;
    print_and_write(&report, &weights, started, args.out.as_deref())
}

struct Spsa<'a> {
    args: &'a SpsaArgs,
    spec: AgentSpec,
    from: String,
}

impl GameVisitor for Spsa<'_> {
    /// The printed report and the weights file.
    type Output = Result<(String, String)>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let args = self.args;
        let start = parse_weights(&self.from, G::TERMS).with_context(|| {
            format!(
                "'{}' is not a weights file of {}",
                args.from.display(),
                G::INFO.id
            )
        })?;
        let config = SpsaConfig::<G> {
            options: parse_options(G::INFO.id, &args.options)?,
            spec: self.spec,
            iterations: args.iterations as usize,
            pairs: args.pairs as usize,
            opening: args.opening as usize,
            perturb: args.perturb,
            rate: args.rate,
            max_decisions: args.max_decisions as usize,
            fixed: term_mask(G::TERMS, &args.fix, "--fix")?,
            seed: args.seed,
        };
        let mut checkpoint_failed = false;
        let report = tuning::spsa(&config, &start, |done, total, so_far| {
            if done % CHECKPOINT_EVERY != 0 && done != total {
                return;
            }
            // Progress on stderr, where it does not mix with the report.
            let _ = write!(std::io::stderr(), "\r{done}/{total} iterations");
            let _ = std::io::stderr().flush();
            // A run of hours keeps its weights so far in `--out`, so that stopping it early
            // (or a crash) loses at most the last few iterations. The end writes them anyway.
            // A failed checkpoint is said once; the run goes on, and its end reports the
            // weights whether or not the file can be written then.
            if let (Some(out), false, true) = (&args.out, checkpoint_failed, done < total) {
                let text = weights_file::<G>(args, so_far, done);
                if let Err(error) = write_atomically(out, text.as_bytes()) {
                    checkpoint_failed = true;
                    let _ = writeln!(
                        std::io::stderr(),
                        "\ncannot write a checkpoint to '{}': {error}",
                        out.display()
                    );
                }
            }
        })?;
        let _ = writeln!(std::io::stderr());
        let weights = weights_file::<G>(args, &report, config.iterations);
        Ok((summary(&report), weights))
    }
}

/// The printed report: the games and each weight before and after.
fn summary(report: &SpsaReport) -> String {
    let mut text = String::new();
    let games = report.plus_wins + report.draws + report.minus_wins;
    let _ = writeln!(
        text,
        "{games} games: plus side {}-{}-{} (W-D-L)",
        report.plus_wins, report.draws, report.minus_wins
    );
    text.push_str(&weight_changes(
        &report.terms,
        &report.before,
        &report.after,
    ));
    text
}

/// The weights file after `done` iterations, with the command that made it in its header
/// (and, before the end, how far it got).
fn weights_file<G: Game>(args: &SpsaArgs, report: &SpsaReport, done: usize) -> String {
    let mut flags = option_flags(&args.options);
    // Only when not the default, as `ludus tune` writes its flags: games this long are rare.
    if args.max_decisions != DEFAULT_MAX_DECISIONS {
        let _ = write!(flags, " --max-decisions {}", args.max_decisions);
    }
    for term in &args.fix {
        let _ = write!(flags, " --fix {term}");
    }
    let comment = format!(
        "{id} evaluation weights, tuned by `ludus spsa {id} --spec {} --iterations {} --pairs {} \
         --opening {} --perturb {} --rate {} --seed {}{flags}`\n\
         from {}; plus side {}-{}-{} over the run{}.",
        args.spec,
        args.iterations,
        args.pairs,
        args.opening,
        args.perturb,
        args.rate,
        args.seed,
        args.from.display(),
        report.plus_wins,
        report.draws,
        report.minus_wins,
        if done < args.iterations as usize {
            format!(" (a checkpoint after {done} iterations)")
        } else {
            String::new()
        },
        id = G::INFO.id,
    );
    format_weights(&report.terms, &report.after, &comment)
}
