//! `ludus solve GAME --positions FILE`: how long the solver takes, turn by turn, over a file
//! of positions (from `ludus datagen`, for instance): the table of `docs/SOLVING.md`.
//!
//! The lines are taken as games in order, a decision per line (as `ludus datagen` writes
//! them): only the first position of each turn is solved, the position between turns. With
//! `--dfpn` each value (no distance) is proved by proof-number search instead.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use ludus_ai::{prove_value, SolveBudget, Solver, SolverAids, StopFlag};
use ludus_engine::{parse_options, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::args::SolveArgs;
use crate::output::outln;

/// Solves each position of `file` and prints, per turn, the median and worst time.
pub fn run(args: &SolveArgs, file: &Path) -> Result<()> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read positions from {}", file.display()))?;
    let game = args.game.clone().unwrap_or_default();
    let visit = Timing {
        text: &text,
        options: &args.options,
        time: Duration::from_secs_f64(args.time),
        hash: usize::try_from(args.hash).unwrap_or(256),
        aids: SolverAids {
            symmetry: !args.no_symmetry,
            ordering: !args.no_ordering,
        },
        dfpn: args.dfpn,
    };
    let rows = dispatch(&game, visit)??;
    outln!("turn  positions  solved  median s  worst s")?;
    for (turn, mut times) in rows.into_iter().rev() {
        let solved = times.iter().filter(|t| t.1).count();
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median = times[times.len() / 2].0;
        let worst = times.last().map_or(0.0, |t| t.0);
        let n = times.len();
        outln!("{turn:>4}  {n:>9}  {solved:>6}  {median:>8.4}  {worst:>7.4}")?;
    }
    Ok(())
}

/// Per turn, each position's time in seconds and whether it was solved in time.
type Rows = BTreeMap<u32, Vec<(f64, bool)>>;

struct Timing<'a> {
    text: &'a str,
    options: &'a [String],
    time: Duration,
    hash: usize,
    aids: SolverAids,
    dfpn: bool,
}

impl GameVisitor for Timing<'_> {
    type Output = Result<Rows>;
    fn visit<G: Game + Heuristic>(self) -> Result<Rows> {
        let options: G::Options = parse_options(G::INFO.id, self.options)?;
        let mut rows = Rows::new();
        let budget = SolveBudget {
            time: Some(self.time),
            ..SolveBudget::default()
        };
        let mut last_turn = None;
        for (number, line) in self.text.lines().enumerate() {
            let position = line.rsplit('\t').next().unwrap_or("").trim();
            if position.is_empty() {
                continue;
            }
            let state = G::from_position(position, &options)
                .with_context(|| format!("line {}", number + 1))?;
            let turn = state.turn();
            if state.to_move().is_none() || last_turn.replace(turn) == Some(turn) {
                continue;
            }
            if state.seat_count() != 2 {
                bail!("the solver takes games of two seats");
            }
            // A fresh table per position, as a player meeting it cold would have.
            let started = Instant::now();
            let solved = if self.dfpn {
                let stop = StopFlag::default();
                prove_value(&state, &budget, self.hash, &stop)
                    .value
                    .is_some()
            } else {
                let mut solver = Solver::<G>::new(self.hash).with_aids(self.aids);
                let solution = solver.solve(&state, &budget, &StopFlag::default());
                solution.proved().is_some()
            };
            let seconds = started.elapsed().as_secs_f64();
            rows.entry(state.turn())
                .or_default()
                .push((seconds, solved));
        }
        if rows.is_empty() {
            bail!("no position to solve in the file");
        }
        Ok(rows)
    }
}
