//! `ludus arena`: a match between two computer players, or a round robin between more, with
//! W/D/L, score and Elo per agent, as a table or as JSON.

use std::io::IsTerminal;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use ludus_ai::arena::{run_arena, ArenaConfig};
use ludus_ai::AgentSpec;
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::args::ArenaArgs;

/// Runs the games and prints the table (or JSON with `--json`).
pub fn run(args: &ArenaArgs) -> Result<()> {
    let agents = args
        .ai
        .iter()
        .map(|text| text.parse::<AgentSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    if agents.len() < 2 {
        anyhow::bail!("an arena needs at least two --ai players");
    }
    let output = dispatch(&args.game, Arena { args, agents })??;
    println!("{output}");
    Ok(())
}

struct Arena<'a> {
    args: &'a ArenaArgs,
    agents: Vec<AgentSpec>,
}

impl GameVisitor for Arena<'_> {
    type Output = Result<String>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let args = self.args;
        let mut config = ArenaConfig::<G>::new(self.agents);
        config.games_per_pair = args.games;
        config.seed = args.seed;
        config.threads = args.threads;
        config.options = parse_options(G::INFO.id, &args.options)?;
        config.save_dir.clone_from(&args.save_games);
        if let Some(dir) = &config.save_dir {
            std::fs::create_dir_all(dir)?;
        }
        let bar = progress_bar();
        let report = run_arena(&config, |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })?;
        bar.finish_and_clear();
        Ok(if args.json {
            report.to_json()
        } else {
            report.table()
        })
    }
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left") {
        bar.set_style(style);
    }
    bar
}
