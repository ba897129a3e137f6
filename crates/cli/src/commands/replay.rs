//! `ludus replay`: a saved game, turn by turn, with its result.

use anyhow::{Context, Result};
use ludus_engine::{AnyGame, Seat};

use crate::args::ReplayArgs;
use crate::commands::query::outcome_text;
use crate::output::outln;
use ludus_engine::printable::printable;
use ludus_tui::board_text::{render_board, Style};

/// Loads, checks (by replaying every move) and prints a record.
pub fn run(args: &ReplayArgs) -> Result<()> {
    let record = ludus_games::load_record_file(&args.file)?;
    let game = ludus_games::load_record(&record)
        .with_context(|| format!("cannot replay '{}'", args.file.display()))?;
    let style = Style::detect();
    outln!(
        "{} — {}",
        game.info().name,
        printable(&args.file.display().to_string())
    )?;
    for (i, player) in record.players.iter().enumerate() {
        if let Some(seat) = Seat::from_number(i + 1, game.seat_count()) {
            outln!(
                "  {}: {} ({})",
                game.seat_name(seat),
                printable(&player.name),
                printable(&player.kind)
            )?;
        }
    }
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    outln!("  options: {}", options.join(" "))?;
    let mut step = ludus_games::new_game(
        &record.game,
        &options,
        record.position.as_deref(),
        record.seed,
    )?;
    for (i, turn) in game.history().iter().enumerate() {
        outln!(
            "{:>3}. {:<8} {}",
            i + 1,
            game.seat_name(turn.seat),
            turn.text
        )?;
        if args.boards {
            play_entry(&mut step, &turn.text, turn.seat)?;
            outln!("{}", render_board(&step.view(), style))?;
        }
    }
    if !args.boards {
        outln!("{}", render_board(&game.view(), style))?;
    }
    outln!("result: {}", outcome_text(&game))?;
    Ok(())
}

/// Plays one history entry on `step`: a turn, or how play ended (`resign 2`, `flag 2`,
/// `draw agreed`; `seat` played it).
fn play_entry(step: &mut AnyGame, text: &str, seat: Seat) -> Result<()> {
    let seat_named = |number: &str| {
        number
            .parse()
            .ok()
            .and_then(|n| Seat::from_number(n, step.seat_count()))
            .unwrap_or(seat)
    };
    if let Some(number) = text.strip_prefix("resign ") {
        let seat = seat_named(number);
        step.resign(seat);
    } else if let Some(number) = text.strip_prefix("flag ") {
        let seat = seat_named(number);
        step.flag(seat);
    } else if text == "draw agreed" {
        step.agree_draw();
    } else {
        step.play(text)?;
    }
    Ok(())
}
