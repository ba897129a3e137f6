//! `ludus tablebase`: endgame tables of a game by retrograde analysis (one checked file per
//! material), and where the solver and level 5 find them.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use ludus_ai::tablebase::{file_name, generate, installed, TableReport};
use ludus_engine::{Endgames, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor, GAMES};

use crate::args::TablebaseArgs;
use crate::output::outln;

/// The tables' directory: the one given, else the user's data directory's `tablebases`
/// folder when it exists.
pub fn directory(given: Option<PathBuf>) -> Option<PathBuf> {
    given.or_else(|| {
        let project = directories::ProjectDirs::from("", "", "ludus")?;
        let dir = project.data_dir().join("tablebases");
        dir.is_dir().then_some(dir)
    })
}

/// Runs `ludus tablebase`.
pub fn run(args: &TablebaseArgs) -> Result<()> {
    if let Some(count) = args.check {
        return super::tablebase_check::run(args, count);
    }
    let (Some(pieces), Some(out)) = (args.pieces, &args.out) else {
        bail!("making tables needs --pieces N and --out DIR");
    };
    let Some((id, endgames)) = dispatch(&args.game, Lookup)? else {
        bail!(
            "the game '{}' has no endgame tables: expected one of {}",
            args.game,
            games_with_tables().join(", ")
        );
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        pool = pool.num_threads(usize::try_from(threads)?);
    }
    let pool = pool.build().context("cannot start the threads")?;
    let started = Instant::now();
    let pieces = u8::try_from(pieces)?;
    outln!("material  positions      wins     draws    losses  longest  file")?;
    let mut printed = Ok(());
    let reports = pool.install(|| {
        generate(endgames, id, pieces, out, |report| {
            if printed.is_ok() {
                printed = print_row(id, report);
            }
        })
    })?;
    printed?;
    let bytes: u64 = reports.iter().map(|r| r.bytes).sum();
    outln!(
        "{} tables, {bytes} bytes, {:.2} s on {} threads, in {}",
        reports.len(),
        started.elapsed().as_secs_f64(),
        pool.current_num_threads(),
        out.display()
    )?;
    Ok(())
}

fn print_row(id: &str, r: &TableReport) -> Result<()> {
    outln!(
        "{:<8} {:>10} {:>9} {:>9} {:>9} {:>8}  {}",
        r.material.to_string(),
        r.positions,
        r.wins,
        r.draws,
        r.losses,
        r.longest,
        file_name(id, r.material)
    )?;
    Ok(())
}

/// The ids of the games with endgame tables.
pub fn games_with_tables() -> Vec<&'static str> {
    GAMES
        .iter()
        .filter(|info| matches!(dispatch(info.id, Lookup), Ok(Some(_))))
        .map(|info| info.id)
        .collect()
}

/// A game's id and its numbered endings, if it has them.
struct Lookup;

impl GameVisitor for Lookup {
    type Output = Option<(&'static str, &'static dyn Endgames)>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        Some((G::INFO.id, G::endgames()?))
    }
}

/// Reads and checks every installed table of `G` (a damaged one is an error): whether any
/// is present.
pub fn check_installed<G: Game>() -> Result<bool> {
    let Some(tables) = installed::<G>() else {
        return Ok(false);
    };
    Ok(!tables.check()?.is_empty())
}
