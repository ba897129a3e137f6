//! `ludus arena`: a match between two players, or a round robin between more, built-in
//! computer players and outside UGI engines alike, with W/D/L, score and Elo per player, as a
//! table or as JSON; with `--sprt` until a sequential test decides; with `--shard` and
//! `--out` one part of a tournament run across machines, and `ludus arena merge` for the whole.
//! Outside engines run in process groups of their own, ended whole after each game and when
//! the arena is interrupted.

use std::io::{IsTerminal, Read};
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use ludus_ai::arena::{
    merge_with_warnings, parse_openings, run_arena_with, too_few_pairs, AdjudicationError,
    ArenaConfig, EngineSpec, Opening, Progress, Shard, SprtConfig, MAX_OPENINGS_BYTES,
};
use ludus_ai::{AgentSpec, TimeControl};
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::args::{ArenaArgs, ArenaCommand};
use crate::output::outln;

/// Runs the games (or merges shard files) and prints the table, or JSON with `--json`.
pub fn run(args: &ArenaArgs) -> Result<()> {
    if let Some(ArenaCommand::Merge { files, json }) = &args.merge {
        let report = merge_with_warnings(files, &mut |warning| {
            eprintln!("ludus arena merge: {warning}");
        })?;
        outln!(
            "{}",
            if *json {
                report.to_json()
            } else {
                report.table()
            }
        )?;
        return Ok(());
    }
    let game = args.game.as_deref().unwrap_or_default();
    let agents = args
        .ai
        .iter()
        .map(|text| text.parse::<AgentSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    let engines = args
        .engines
        .iter()
        .map(|text| text.parse::<EngineSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    if agents.len() + engines.len() < 2 {
        anyhow::bail!("an arena needs at least two players (--ai or --engine)");
    }
    if !engines.is_empty() {
        end_engines_on_signal();
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(str::parse::<SprtConfig>)
        .transpose()?;
    let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose()?;
    let tc = args
        .tc
        .as_deref()
        .map(str::parse::<TimeControl>)
        .transpose()?;
    let output = dispatch(
        game,
        Arena {
            args,
            agents,
            engines,
            sprt,
            shard,
            tc,
        },
    );
    // A signal's handler ends the engines before it exits, which may let the games end
    // first: the arena then exits with the signal's status, not with theirs.
    let signal = SIGNALLED.load(Ordering::SeqCst);
    if signal != 0 {
        std::process::exit(128 + signal);
    }
    let output = output??;
    outln!("{output}")?;
    Ok(())
}

struct Arena<'a> {
    args: &'a ArenaArgs,
    agents: Vec<AgentSpec>,
    engines: Vec<EngineSpec>,
    sprt: Option<SprtConfig>,
    shard: Option<Shard>,
    tc: Option<TimeControl>,
}

/// An adjudication rule's text read, if given; a refusal names the flag.
fn parse_rule<R>(text: Option<&str>, flag: &str) -> Result<Option<R>>
where
    R: std::str::FromStr<Err = AdjudicationError>,
{
    text.map(str::parse::<R>)
        .transpose()
        .map_err(|error| anyhow::anyhow!("{flag} {error}"))
}

/// Reads an openings file of at most [`MAX_OPENINGS_BYTES`].
fn read_openings<G: Game>(path: &Path, options: &G::Options) -> Result<Vec<Opening>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read openings '{}'", path.display()))?;
    let mut text = String::new();
    file.take(MAX_OPENINGS_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read openings '{}'", path.display()))?;
    if text.len() > MAX_OPENINGS_BYTES {
        anyhow::bail!(
            "openings '{}' is larger than {MAX_OPENINGS_BYTES} bytes",
            path.display()
        );
    }
    parse_openings::<G>(&text, options).with_context(|| format!("openings '{}'", path.display()))
}

impl GameVisitor for Arena<'_> {
    type Output = Result<String>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let args = self.args;
        let mut config = ArenaConfig::<G>::new(self.agents);
        config.engines = self.engines;
        config.games_per_pair = usize::try_from(args.games).unwrap_or(usize::MAX);
        config.seed = args.seed;
        config.threads = args.threads;
        config.options = parse_options(G::INFO.id, &args.options)?;
        config.save_dir.clone_from(&args.save_games);
        config.random_opening = u32::try_from(args.random_opening).unwrap_or(u32::MAX);
        if let Some(ms) = args.movetime {
            config.movetime = Duration::from_millis(ms);
            config.movetime_for_all = true;
        }
        config.tc = self.tc;
        config.margin = Duration::from_millis(args.margin);
        config.sprt = self.sprt;
        config.draw_rule = parse_rule(args.adjudicate_draw.as_deref(), "--adjudicate-draw")?;
        config.resign_rule = parse_rule(args.adjudicate_resign.as_deref(), "--adjudicate-resign")?;
        config.order.clone_from(&args.order);
        config.sprt_player = sprt_player(&config, args.sprt_player.as_deref())?;
        config.shard = self.shard.unwrap_or(Shard::ALL);
        config.out.clone_from(&args.out);
        if let Some(path) = &args.resume {
            config.out = Some(path.clone());
            config.resume = true;
        }
        if let Some(path) = &args.openings {
            config.openings = read_openings::<G>(path, &config.options)?;
        }
        if config.sprt.is_some() {
            if let Some(warning) = too_few_pairs(config.games_per_pair) {
                eprintln!("ludus arena: warning: {warning}");
            }
        }
        let bar = progress_bar();
        let lines = !std::io::stderr().is_terminal() && args.progress_every > 0;
        let report = run_arena_with(&config, |progress| {
            bar.set_length(progress.total as u64);
            bar.set_position(progress.done as u64);
            if let Some(sprt) = &progress.sprt {
                bar.set_message(sprt.short());
            }
            if lines && progress.done % args.progress_every == 0 {
                eprintln!("ludus arena: {}", progress_line(progress));
            }
        })?;
        bar.finish_and_clear();
        Ok(if args.json {
            report.to_json()
        } else {
            report.table()
        })
    }
}

/// The index of the player `--sprt-player` names (the first player without it).
fn sprt_player<G: Game>(config: &ArenaConfig<G>, name: Option<&str>) -> Result<usize> {
    let Some(name) = name else {
        return Ok(0);
    };
    let names: Vec<String> = config.players().iter().map(ToString::to_string).collect();
    names.iter().position(|n| n == name).with_context(|| {
        format!(
            "--sprt-player '{name}' is not a player: expected one of {}",
            names.join(", ")
        )
    })
}

/// The signal that stopped the arena (0: none yet), noted before its engines are ended.
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

/// On Ctrl-C or SIGTERM, kills every running engine's process group (see
/// `ludus_ai::arena::end_all_engines`) and exits with 128 + the signal's number, as the
/// signal would have. Without a handler the arena would die and leave its engines and
/// their children running. If the handler cannot be installed, the arena runs as before.
fn end_engines_on_signal() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            SIGNALLED.store(signal, Ordering::SeqCst);
            ludus_ai::arena::end_all_engines();
            std::process::exit(128 + signal);
        }
    });
}

/// `20/100 games`, with the SPRT's `, LLR 1.23 (-2.94, 2.94)`: a plain line for logs.
fn progress_line(progress: &Progress) -> String {
    let sprt = progress
        .sprt
        .as_ref()
        .map_or_else(String::new, |s| format!(", {}", s.short()));
    format!("{}/{} games{sprt}", progress.done, progress.total)
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left {msg}")
    {
        bar.set_style(style);
    }
    bar
}
