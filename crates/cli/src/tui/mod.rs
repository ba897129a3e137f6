//! The full-screen terminal app (ratatui + crossterm), in The Elm Architecture's shape:
//!
//! * `app` — the model: one [`app::App`] with the screen showing, the set-up, the game in
//!   progress (cursor, selection, chooser, hint, computer jobs) and the prompts;
//! * `msg` — every input as one [`msg::Msg`] (keys, mouse, resize, ticks, computer answers,
//!   file results) and every side effect as a [`msg::Cmd`];
//! * `update` (with `menu`, `play` and `computer`) — `update(&mut App, Msg) -> Option<Cmd>`,
//!   no I/O; `pointing` turns selected cells into decisions, `setup` holds a game's set-up;
//! * `view` — draws any game's `BoardView` and the screens from `&App`;
//! * `worker`, `event` — the threads that produce messages (computer searches, terminal
//!   input); `run` — terminal set-up and the loop.
//!
//! It talks only to the erased game (`AnyGame`), so one app serves every game.

// The size budget of clippy.toml is waived in the app alone, until issue 13 (the screens as an
// enum that carries each screen's state) splits its long drawing and script functions.
#![allow(clippy::too_many_lines)]

mod app;
mod computer;
mod event;
mod layout;
mod menu;
mod msg;
mod play;
mod pointing;
mod rules_help;
mod run;
mod setup;
mod theme;
mod update;
mod view;
mod worker;

#[cfg(test)]
mod tests;

use std::io::IsTerminal;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{bail, Result};
use ludus_engine::Seat;

use self::app::{App, Play};
use self::msg::{Cmd, Msg};
use self::setup::{SeatChoice, Setup};
use crate::args::PlayArgs;

/// Whether standard input and output are both a terminal (the app needs both).
pub fn is_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

fn new_app() -> App {
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let theme = if no_color { theme::MONO_INDEX } else { 0 };
    App::new((80, 24), theme, seed)
}

/// Opens the app on its start screen.
pub fn run_menu() -> Result<()> {
    run::run(new_app(), None)
}

/// Opens the app on the game `ludus play` describes (or on the start screen without a game).
pub fn run_play(args: &PlayArgs) -> Result<()> {
    let mut app = new_app();
    if let Some(path) = &args.load {
        // Read before the terminal switches, so a bad file is reported plainly.
        let record = ludus_games::load_record_file(path)?;
        let game = ludus_games::load_record(&record)?;
        let first = update::update(
            &mut app,
            Msg::Loaded {
                path: path.clone(),
                result: Ok(game),
            },
        );
        return run::run(app, first);
    }
    let Some(id) = &args.game else {
        return run::run(app, None);
    };
    let game = ludus_games::new_game(id, &args.options, args.position.as_deref(), args.seed)?;
    let specs = [&args.p1, &args.p2, &args.p3, &args.p4];
    let mut setup = Setup::from_game(&game);
    let players: Vec<SeatChoice> = (0..game.seat_count())
        .map(|i| {
            let computer = !specs[i].trim().eq_ignore_ascii_case("human");
            let seat_name = game.seat_name(Seat::new(i as u8));
            SeatChoice {
                computer,
                spec: specs[i].trim().to_string(),
                name: args
                    .names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| seat_name.into()),
            }
        })
        .collect();
    for (i, choice) in players.iter().enumerate() {
        setup.seats[i] = choice.clone();
        if setup.seat_names.get(i) == Some(&choice.name) {
            setup.seats[i].name.clear();
        }
    }
    let mut play = match Play::new(game, &players, setup, args.seed) {
        Ok(play) => play,
        Err(e) => bail!(e),
    };
    play.save_path.clone_from(&args.save);
    let first: Option<Cmd> = play::start(&mut app, play);
    run::run(app, first)
}
