//! `ludus moves` and `ludus position`: Ludus as a rules oracle for other programs.

use anyhow::Result;
use ludus_engine::{AnyGame, Verdict};

use crate::args::PositionArgs;
use crate::output::outln;
use crate::setup::game_at;

/// Prints the legal decisions, one per line.
pub fn moves(args: &PositionArgs) -> Result<()> {
    let game = game_at(args)?;
    for legal in game.legal_moves() {
        outln!("{}", legal.notation)?;
    }
    Ok(())
}

/// Prints the position string, the side to move and the outcome.
pub fn position(args: &PositionArgs) -> Result<()> {
    let game = game_at(args)?;
    outln!("{}", game.position_line())?;
    outln!("turn: {}", game.turn() + 1)?;
    match game.to_move() {
        Some(seat) => outln!("to move: {}", game.seat_name(seat))?,
        None => outln!("outcome: {}", outcome_text(&game))?,
    }
    Ok(())
}

/// "Dark wins (four in a row)" or "draw (both hands empty)".
pub fn outcome_text(game: &AnyGame) -> String {
    match game.outcome() {
        None => "game in progress".to_string(),
        Some(outcome) => match outcome.verdict {
            Verdict::Win(seat) => format!("{} wins ({})", game.seat_name(seat), outcome.reason),
            Verdict::Draw => format!("draw ({})", outcome.reason),
        },
    }
}
