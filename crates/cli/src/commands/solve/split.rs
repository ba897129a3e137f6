//! `ludus solve GAME --split D [--shard I/N] --out FILE`: this shard's share of the distinct
//! positions D decisions deep, each solved within `--time`, written as JSON lines after a
//! header; `ludus solve merge FILE...`: the shards' values backed up to the root.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use ludus_ai::arena::Shard;
use ludus_ai::{back_up, split_positions, Bounds, SolveBudget, Solver, StopFlag};
use ludus_engine::{write_atomically, AnyGame, Game, Heuristic};
use ludus_games::{dispatch, new_game, GameVisitor};
use serde::{Deserialize, Serialize};

use super::{check_solvable, describe};
use crate::args::SolveArgs;
use crate::output::outln;

/// The first line of a shard file: what was split, so that merge can check the shards agree.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct Header {
    game: String,
    options: Vec<String>,
    root: String,
    split: u32,
    shard: String,
    positions: usize,
}

/// One solved position.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    key: u64,
    position: String,
    lower: i32,
    upper: i32,
    text: String,
}

/// Solves this shard's share of the positions `depth` decisions deep.
pub fn run(args: &SolveArgs, game: &AnyGame, depth: u64) -> Result<()> {
    let shard: Shard = args.shard.as_deref().unwrap_or("0/1").parse()?;
    let Some(out) = &args.out else {
        bail!("--split needs --out FILE for the solved positions");
    };
    let visit = Split {
        game,
        options: &args.options,
        depth: u32::try_from(depth).unwrap_or(1),
        shard,
        budget: SolveBudget {
            time: Some(Duration::from_secs_f64(args.time)),
            ..SolveBudget::default()
        },
        hash: usize::try_from(args.hash).unwrap_or(256),
    };
    let text = dispatch(game.info().id, visit)??;
    write_atomically(out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}

struct Split<'a> {
    game: &'a AnyGame,
    options: &'a [String],
    depth: u32,
    shard: Shard,
    budget: SolveBudget,
    hash: usize,
}

impl GameVisitor for Split<'_> {
    type Output = Result<String>;
    fn visit<G: Game + Heuristic>(self) -> Result<String> {
        let Some(session) = self.game.session::<G>() else {
            bail!("the game is not the one asked for");
        };
        let root = session.state();
        check_solvable(root)?;
        let Some(leaves) = split_positions(root, self.depth) else {
            bail!("positions here depend on their history (draw rules): they cannot be split");
        };
        let header = Header {
            game: G::INFO.id.to_string(),
            options: self.options.to_vec(),
            root: root.position(),
            split: self.depth,
            shard: self.shard.to_string(),
            positions: leaves.len(),
        };
        let mut text = serde_json::to_string(&header)? + "\n";
        let mut solver = Solver::<G>::new(self.hash);
        let stop = StopFlag::default();
        for (key, state) in leaves
            .iter()
            .skip(self.shard.index)
            .step_by(self.shard.count)
        {
            let bounds = solver.solve(state, &self.budget, &stop).bounds;
            let line = Line {
                key: *key,
                position: state.position(),
                lower: bounds.lower,
                upper: bounds.upper,
                text: describe(bounds),
            };
            writeln!(text, "{}", serde_json::to_string(&line)?)?;
            // Progress for long runs; a closed stderr must not stop the solve.
            let _ = writeln!(std::io::stderr(), "{}", line.text);
        }
        Ok(text)
    }
}

/// Backs the shards' values up to the root and prints it with each decision.
pub fn merge(files: &[PathBuf], json: bool) -> Result<()> {
    let mut header: Option<Header> = None;
    let mut values = HashMap::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let mut lines = text.lines();
        let first: Header = serde_json::from_str(lines.next().unwrap_or(""))
            .with_context(|| format!("{}: line 1 is not a solve shard header", file.display()))?;
        if let Some(seen) = &header {
            if (&seen.game, &seen.options, &seen.root, seen.split)
                != (&first.game, &first.options, &first.root, first.split)
            {
                bail!("{} is a shard of another split solve", file.display());
            }
        }
        header = Some(first);
        for (n, line) in lines.enumerate() {
            let line: Line = serde_json::from_str(line)
                .with_context(|| format!("{}: line {}", file.display(), n + 2))?;
            values.insert(line.key, (line.lower, line.upper));
        }
    }
    let Some(header) = header else {
        bail!("no shard files given");
    };
    let game = new_game(&header.game, &header.options, Some(&header.root), 0)?;
    let report = dispatch(
        &header.game,
        Merge {
            game: &game,
            header: &header,
            values: &values,
        },
    )??;
    if json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        outln!("{}", report.0)?;
        for line in &report.1 {
            outln!("{line}")?;
        }
    }
    Ok(())
}

struct Merge<'a> {
    game: &'a AnyGame,
    header: &'a Header,
    values: &'a HashMap<u64, (i32, i32)>,
}

impl GameVisitor for Merge<'_> {
    /// The root's line, then one line per decision.
    type Output = Result<(String, Vec<String>)>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let Some(session) = self.game.session::<G>() else {
            bail!("the game is not the one asked for");
        };
        let root = session.state();
        let lookup = |key: u64| {
            self.values
                .get(&key)
                .map(|&(lower, upper)| Bounds { lower, upper })
        };
        let (value, decisions) = back_up(root, self.header.split, &lookup).map_err(|key| {
            anyhow::anyhow!(
                "position {key:#x} is in no shard: merge every shard of the {} positions",
                self.header.positions
            )
        })?;
        let seat = root.to_move().map_or("nobody", |s| root.seat_name(s));
        let lines = decisions
            .iter()
            .map(|d| format!("{}  {}", root.format_action(d.action), describe(d.bounds)))
            .collect();
        Ok((format!("{seat} to move: {}", describe(value)), lines))
    }
}
