//! Shared set-up of the commands: game + options + position + moves played first, and the
//! saved game `play --load` continues.

use std::path::Path;

use anyhow::{bail, Context, Result};
use ludus_engine::AnyGame;
use ludus_tui::{NewGame, Start};

use crate::args::{PlayArgs, PositionArgs};

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

/// What the app opens on for `ludus play`: the saved game `--load` names (read before the
/// terminal switches, so a bad file is reported plainly), the game GAME names with its seats,
/// or the start screen.
pub fn app_start(args: &PlayArgs) -> Result<Start> {
    if let Some(path) = &args.load {
        let game = load_for_play(args, path)?;
        let path = path.clone();
        return Ok(Start::Loaded { path, game });
    }
    let Some(id) = &args.game else {
        return Ok(Start::Menu);
    };
    let game = ludus_games::new_game(id, &args.options, args.position.as_deref(), args.seed)?;
    Ok(Start::New(NewGame {
        game,
        players: [&args.p1, &args.p2, &args.p3, &args.p4]
            .map(String::clone)
            .to_vec(),
        names: args.names.clone(),
        seed: args.seed,
        save: args.save.clone(),
    }))
}

/// The saved game `play --load FILE` continues. The file decides the game, its rules options
/// and its start, so a GAME naming another game, `-o` or `--position` beside `--load` is
/// refused rather than silently ignored.
pub fn load_for_play(args: &PlayArgs, path: &Path) -> Result<AnyGame> {
    let record = ludus_games::load_record_file(path)?;
    if let Some(id) = args.game.as_deref() {
        if !id.eq_ignore_ascii_case(&record.game) {
            bail!(
                "--load '{}' holds a {} game, not {id}: drop the game name or load another file",
                path.display(),
                record.game
            );
        }
    }
    if !args.options.is_empty() {
        bail!("--load takes the rules options from the file: drop -o/--option");
    }
    if args.position.is_some() {
        bail!("--load starts from the file's own start: drop --position");
    }
    ludus_games::load_record(&record).with_context(|| format!("cannot load '{}'", path.display()))
}
