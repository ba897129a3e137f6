//! `ludus perft`: distinct decision sequences over N complete turns.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use ludus_engine::{perft, AnyGame, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::args::PerftArgs;
use crate::output::{outln, StdoutError};
use crate::setup::game_at;

/// Prints (optionally per decision) and then the total alone on the last line.
pub fn run(args: &PerftArgs) -> Result<()> {
    let game = game_at(&args.at)?;
    let started = Instant::now();
    let total = dispatch(
        game.info().id,
        Perft {
            game: &game,
            turns: args.turns,
            divide: args.divide,
        },
    )??;
    outln!("{total}")?;
    // Timing is a side note: a closed stderr must not fail the count already printed.
    let _ = writeln!(
        std::io::stderr(),
        "{:.3} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

struct Perft<'a> {
    game: &'a AnyGame,
    turns: u32,
    divide: bool,
}

impl GameVisitor for Perft<'_> {
    type Output = Result<u64, StdoutError>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
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
            outln!("{} {count}", state.format_action(action))?;
            total += count;
        }
        Ok(total)
    }
}
