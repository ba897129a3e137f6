//! `ludus datagen` and `ludus tune`: self-play data, and the evaluation weights fitted to it
//! (see `ludus_ai::tuning` and `docs/STRENGTH.md`).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use ludus_ai::tuning::{self, DatagenConfig, Sample};
use ludus_ai::AgentSpec;
use ludus_engine::record::write_atomically;
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::weights::format_weights;
use ludus_games::{dispatch, GameVisitor};

use crate::args::{DatagenArgs, TuneArgs};
use crate::output::{out, outln};

/// Plays the games and writes the samples.
pub fn datagen(args: &DatagenArgs) -> Result<()> {
    let spec: AgentSpec = args.spec.parse()?;
    let started = Instant::now();
    let samples = dispatch(&args.game, Datagen { args, spec })??;
    let mut text = String::new();
    for sample in &samples {
        text.push_str(&sample.to_line());
        text.push('\n');
    }
    write_atomically(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write '{}'", args.out.display()))?;
    outln!(
        "{} positions from {} games in {:.1} s, written to {}",
        samples.len(),
        args.games,
        started.elapsed().as_secs_f64(),
        args.out.display()
    )?;
    Ok(())
}

struct Datagen<'a> {
    args: &'a DatagenArgs,
    spec: AgentSpec,
}

impl GameVisitor for Datagen<'_> {
    type Output = Result<Vec<Sample>>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let config = DatagenConfig::<G> {
            options: parse_options(G::INFO.id, &self.args.options)?,
            spec: self.spec,
            games: self.args.games as usize,
            opening: self.args.opening as usize,
            max_decisions: self.args.max_decisions as usize,
            seed: self.args.seed,
        };
        Ok(tuning::datagen(&config, |_, _| {})?)
    }
}

/// Reads the samples, fits the weights, prints the report and writes the weights.
pub fn tune(args: &TuneArgs) -> Result<()> {
    let mut samples = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        for (index, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
            let sample = Sample::from_line(line).with_context(|| {
                format!(
                    "bad sample at {}:{}: expected result<TAB>score<TAB>position",
                    path.display(),
                    index + 1
                )
            })?;
            samples.push(sample);
        }
    }
    let started = Instant::now();
    let (report, weights) = dispatch(&args.game, Tune { args, samples })??;
    print_and_write(&report, &weights, started, args.out.as_deref())
}

/// Prints a tuner's report with the time since `started`, then writes the weights file to
/// `out` (atomically), or prints it too when there is no `out`.
pub(crate) fn print_and_write(
    report: &str,
    weights: &str,
    started: Instant,
    out: Option<&Path>,
) -> Result<()> {
    outln!("{report}tuned in {:.1} s", started.elapsed().as_secs_f64())?;
    match out {
        Some(path) => write_atomically(path, weights.as_bytes())
            .with_context(|| format!("cannot write '{}'", path.display()))?,
        None => out!("{weights}")?,
    }
    Ok(())
}

struct Tune<'a> {
    args: &'a TuneArgs,
    samples: Vec<Sample>,
}

impl GameVisitor for Tune<'_> {
    /// The printed report and the weights file.
    type Output = Result<(String, String)>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let options = parse_options(G::INFO.id, &self.args.options)?;
        let config = tuning::TuneConfig {
            result_share: self.args.result_share,
            quiet_only: self.args.quiet,
            mirror: self.args.mirror,
            ridge: self.args.ridge,
            dropped: term_mask(G::TERMS, &self.args.drop, "--drop")?,
        };
        let report = tuning::tune_with::<G>(&self.samples, &options, &config)?;
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{} positions fitted, {} held out, {} skipped; k = {:.6}",
            report.fitted, report.held_out, report.skipped, report.k
        );
        let _ = writeln!(
            text,
            "mean squared error, fitted / held out: before {:.5} / {:.5}, after {:.5} / {:.5}",
            report.error_before.0,
            report.error_before.1,
            report.error_after.0,
            report.error_after.1
        );
        text.push_str(&weight_changes(
            &report.terms,
            &report.before,
            &report.after,
        ));
        let comment = format!(
            "{} evaluation weights, fitted by `ludus tune {}{}` on {} positions\n\
             (held-out error {:.5} before, {:.5} after).",
            G::INFO.id,
            G::INFO.id,
            fit_flags(self.args),
            report.fitted,
            report.error_before.1,
            report.error_after.1
        );
        let weights = format_weights(&report.terms, &report.after, &comment);
        Ok((text, weights))
    }
}

/// The options of `args` that change the fit, as typed (` --quiet --drop points`), so that
/// the weights file says how it was made.
// The defaults are compared exactly: a value typed as the default parses to the same number.
#[allow(clippy::float_cmp)]
fn fit_flags(args: &TuneArgs) -> String {
    let mut flags = option_flags(&args.options);
    if args.result_share != 0.5 {
        let _ = write!(flags, " --result-share {}", args.result_share);
    }
    if args.quiet {
        flags.push_str(" --quiet");
    }
    if args.mirror {
        flags.push_str(" --mirror");
    }
    if args.ridge != 0.0 {
        let _ = write!(flags, " --ridge {}", args.ridge);
    }
    for term in &args.drop {
        let _ = write!(flags, " --drop {term}");
    }
    flags
}

/// Each term's weight before and after a tuner, a line each (names wide enough for the
/// longest term, Qilin's `place_lines_behind_presses`).
pub(crate) fn weight_changes(terms: &[&str], before: &[f64], after: &[f64]) -> String {
    let mut text = String::new();
    for ((term, before), after) in terms.iter().zip(before).zip(after) {
        let _ = writeln!(text, "  {term:<28} {before:>9.2} -> {after:>9.2}");
    }
    text
}

/// The rules options as typed (` -o players=3`), for a weights file's header.
pub(crate) fn option_flags(options: &[String]) -> String {
    let mut flags = String::new();
    for option in options {
        let _ = write!(flags, " -o {option}");
    }
    flags
}

/// The bit mask of the `names` among `terms` (given with `flag`, such as `--drop`), or which
/// name is not a term.
pub(crate) fn term_mask(terms: &[&str], names: &[String], flag: &str) -> Result<u64> {
    let mut mask = 0;
    for name in names {
        let index = terms
            .iter()
            .position(|t| t == name)
            .filter(|&i| i < 64)
            .with_context(|| {
                format!(
                    "{flag} '{name}': not a term; expected one of {}",
                    terms.join(", ")
                )
            })?;
        mask |= 1 << index;
    }
    Ok(mask)
}
