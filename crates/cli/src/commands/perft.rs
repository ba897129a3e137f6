//! `ludus perft`: distinct decision sequences over N complete turns; as text (the total alone
//! on the last line) or, with `--json`, as one JSON object.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use ludus_engine::{perft, AnyGame, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};
use serde::Serialize;

use crate::args::PerftArgs;
use crate::output::{outln, StdoutError};
use crate::setup::game_at;

/// What `ludus perft --json` prints.
#[derive(Serialize)]
struct PerftReport {
    game: &'static str,
    /// The position counted from, as `ludus position` writes it.
    position: String,
    /// The rules options in force, every one of them.
    options: BTreeMap<String, String>,
    turns: u32,
    total: u64,
    /// Each legal decision's count in the order `ludus moves` lists them (with `--divide`).
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DecisionCount>>,
    seconds: f64,
}

#[derive(Serialize)]
struct DecisionCount {
    decision: String,
    count: u64,
}

/// Prints (optionally per decision) and then the total alone on the last line, or the JSON
/// object.
pub fn run(args: &PerftArgs) -> Result<()> {
    let game = game_at(&args.at)?;
    let started = Instant::now();
    let mut divided = (args.divide && args.json && args.turns > 0).then(Vec::new);
    let total = dispatch(
        game.info().id,
        Perft {
            game: &game,
            turns: args.turns,
            divide: args.divide,
            collected: divided.as_mut(),
        },
    )??;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let report = PerftReport {
            game: game.info().id,
            position: game.position(),
            options: game.options().into_iter().collect(),
            turns: args.turns,
            total,
            divide: divided,
            seconds,
        };
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    outln!("{total}")?;
    // Timing is a side note: a closed stderr must not fail the count already printed.
    let _ = writeln!(std::io::stderr(), "{seconds:.3} s");
    Ok(())
}

struct Perft<'a> {
    game: &'a AnyGame,
    turns: u32,
    divide: bool,
    /// Where each decision's count goes for the JSON object; `None`: printed as counted.
    collected: Option<&'a mut Vec<DecisionCount>>,
}

impl GameVisitor for Perft<'_> {
    type Output = Result<u64, StdoutError>;
    fn visit<G: Game + Heuristic>(mut self) -> Self::Output {
        let Some(session) = self.game.session::<G>() else {
            return Ok(0);
        };
        let state = session.state();
        if !self.divide || self.turns == 0 {
            return Ok(perft(state, self.turns));
        }
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let mut total = 0;
        for action in actions {
            let mut next = state.clone();
            next.apply(action);
            let remaining = if next.turn() > state.turn() {
                self.turns - 1
            } else {
                self.turns
            };
            let count = perft(&next, remaining);
            let decision = state.format_action(action);
            match self.collected.as_deref_mut() {
                Some(collected) => collected.push(DecisionCount { decision, count }),
                None => outln!("{decision} {count}")?,
            }
            total += count;
        }
        Ok(total)
    }
}
