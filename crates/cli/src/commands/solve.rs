//! `ludus solve`: the exact value of a position for the seat to move (win, draw or loss and
//! the turns to the end with best play) and of each decision there, or what was proved
//! within the time.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use ludus_ai::tablebase::installed;
use ludus_ai::{Bounds, Proved, SolveBudget, Solver, StopFlag};
use ludus_engine::{AnyGame, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};
use serde::Serialize;

use crate::args::{SolveArgs, SolveCommand};
use crate::commands::tablebase::check_installed;
use crate::output::outln;
use crate::setup::game_at;

mod split;
mod timing;

/// What `ludus solve` found, as printed (`--json` prints it as it is).
#[derive(Debug, Serialize)]
pub struct Report {
    /// The game's id.
    pub game: String,
    /// The position string solved.
    pub position: String,
    /// The seat to move, by name.
    pub to_move: String,
    /// The exact result for the seat to move, if proved.
    pub proved: Option<Proved>,
    /// The result in words, or what was proved.
    pub text: String,
    /// The deepest horizon searched, in turns.
    pub turns_searched: u32,
    /// Nodes visited (the root and every decision).
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// Whether the endgame tables hold the position (its result is then theirs).
    pub tablebase: bool,
    /// Positions the search looked up in the endgame tables (the root and every decision).
    pub tablebase_hits: u64,
    /// The best turn's decisions when the game's book of solved positions holds the
    /// position (its result is then the book's).
    pub book_turn: Option<Vec<String>>,
    /// Each legal decision with its value for the seat to move.
    pub decisions: Vec<DecisionReport>,
}

/// One decision's value, for the seat deciding.
#[derive(Debug, Serialize)]
pub struct DecisionReport {
    /// The decision in notation.
    pub decision: String,
    /// Its exact result, if proved.
    pub proved: Option<Proved>,
    /// The result in words, or what was proved.
    pub text: String,
}

/// Runs `ludus solve` (or `ludus solve merge`).
pub fn run(args: &SolveArgs) -> Result<()> {
    if let Some(SolveCommand::Merge { files, json }) = &args.merge {
        return split::merge(files, *json);
    }
    if let Some(file) = &args.positions {
        return timing::run(args, file);
    }
    let game = game_at(&args.at())?;
    if let Some(depth) = args.split {
        return split::run(args, &game, depth);
    }
    let budget = SolveBudget {
        time: Some(Duration::from_secs_f64(args.time)),
        ..SolveBudget::default()
    };
    let hash = usize::try_from(args.hash).unwrap_or(256);
    let report = dispatch(
        game.info().id,
        Solve {
            game: &game,
            budget,
            hash,
        },
    )??;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    print_text(&report, args.time)
}

fn print_text(report: &Report, time: f64) -> Result<()> {
    let value = match report.proved {
        Some(_) => report.text.clone(),
        None => format!("unknown within {time} s ({})", report.text),
    };
    let turns = if report.turns_searched == 1 {
        "turn"
    } else {
        "turns"
    };
    let source = if let Some(turn) = &report.book_turn {
        format!(
            "from the book of solved positions, best turn {}; ",
            turn.join(" ")
        )
    } else if report.tablebase {
        "from the endgame tables; ".to_string()
    } else if report.tablebase_hits > 0 {
        format!("{} endgame table hits, ", report.tablebase_hits)
    } else {
        String::new()
    };
    outln!(
        "{} to move: {value} ({source}searched {} {turns}, {} nodes, {:.2} s)",
        report.to_move,
        report.turns_searched,
        report.nodes,
        report.seconds
    )?;
    for decision in &report.decisions {
        outln!("{}  {}", decision.decision, decision.text)?;
    }
    Ok(())
}

/// The words for `bounds`: the result, or `unknown: ` and what is known.
pub(crate) fn describe(bounds: Bounds) -> String {
    match bounds.proved() {
        Some(proved) => proved.to_string(),
        None => format!("unknown: {bounds}"),
    }
}

/// Refuses what the solver cannot take: a finished game, or one of more than two seats.
pub(crate) fn check_solvable<G: Game>(state: &G) -> Result<()> {
    if let Some(outcome) = state.outcome() {
        bail!("the game is over ({outcome}): nothing to solve");
    }
    if state.seat_count() != 2 {
        bail!(
            "the solver takes games of two seats; this one has {}",
            state.seat_count()
        );
    }
    Ok(())
}

struct Solve<'a> {
    game: &'a AnyGame,
    budget: SolveBudget,
    hash: usize,
}

impl GameVisitor for Solve<'_> {
    type Output = Result<Report>;
    fn visit<G: Game + Heuristic>(self) -> Result<Report> {
        let Some(session) = self.game.session::<G>() else {
            bail!("the game is not the one asked for");
        };
        let state = session.state();
        check_solvable(state)?;
        check_installed::<G>()?;
        let started = Instant::now();
        let mut solver = Solver::<G>::new(self.hash);
        let tablebase = solver.probe(state).is_some();
        let book_turn = solver.book_turn(state).map(|turn| {
            let mut after = state.clone();
            let words = turn.decisions.iter().map(|&decision| {
                let word = after.format_action(decision);
                after.apply(decision);
                word
            });
            words.collect()
        });
        let hits = installed::<G>().map_or(0, |t| t.hits());
        let (root, values) = solver.solve_decisions(state, &self.budget, &StopFlag::default());
        let tablebase_hits = installed::<G>().map_or(0, |t| t.hits()) - hits;
        let decisions = values
            .iter()
            .map(|value| DecisionReport {
                decision: state.format_action(value.action),
                proved: value.bounds.proved(),
                text: describe(value.bounds),
            })
            .collect();
        let to_move = state
            .to_move()
            .map_or("nobody", |seat| state.seat_name(seat));
        Ok(Report {
            game: G::INFO.id.to_string(),
            position: state.position(),
            to_move: to_move.to_string(),
            proved: root.proved(),
            text: root
                .proved()
                .map_or_else(|| root.bounds.to_string(), |p| p.to_string()),
            turns_searched: root.turns,
            nodes: root.nodes,
            seconds: started.elapsed().as_secs_f64(),
            tablebase,
            tablebase_hits,
            book_turn,
            decisions,
        })
    }
}
