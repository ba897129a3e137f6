//! Shared set-up of the query commands: game + options + position + moves played first.

use anyhow::{Context, Result};
use ludus_engine::AnyGame;

use crate::args::PositionArgs;

/// The game the arguments describe, with `--after` moves played.
pub fn game_at(args: &PositionArgs) -> Result<AnyGame> {
    let mut game = ludus_games::new_game(
        &args.game,
        &args.options,
        args.position.as_deref(),
        args.seed,
    )?;
    if let Some(after) = &args.after {
        play_moves(&mut game, after)?;
    }
    Ok(game)
}

/// Plays space-separated moves; an illegal one is an error naming it and its index.
pub fn play_moves(game: &mut AnyGame, moves: &str) -> Result<()> {
    for (i, word) in moves.split_whitespace().enumerate() {
        game.play(word)
            .with_context(|| format!("move {} '{word}' of --after", i + 1))?;
    }
    Ok(())
}
