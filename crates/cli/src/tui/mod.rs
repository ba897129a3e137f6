//! The full-screen terminal app (ratatui + crossterm), in The Elm Architecture's shape:
//!
//! * `app` — the model: one [`app::App`] whose [`app::Screen`] carries each screen's own
//!   state (the set-up, the game in progress with its cursor, selection, chooser, hint and
//!   computer jobs, the replay, the rules page over the screen it came from), and the prompts;
//! * `msg` — every input as one [`msg::Msg`] (keys, mouse, resize, ticks, computer answers,
//!   file results) and every side effect as a [`msg::Cmd`];
//! * `update` (with `menu`, `play` and `computer`) — `update(&mut App, Msg) -> Option<Cmd>`,
//!   no I/O; `pointing` turns selected cells into decisions, `setup` holds a game's set-up;
//! * `view` — draws any game's `BoardView` and the screens from `&App`;
//! * `worker`, `event` — the threads that produce messages (computer searches, terminal
//!   input); `run` — terminal set-up and the loop.
//!
//! It talks only to the erased game (`AnyGame`), so one app serves every game.

mod app;
mod computer;
mod contrast;
mod event;
mod layout;
mod menu;
mod msg;
mod palette;
mod play;
mod pointing;
mod rules_help;
mod run;
mod setup;
mod signals;
mod theme;
mod theme_store;
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

fn new_app(asked_theme: Option<usize>) -> App {
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut app = App::new((80, 24), theme_store::starting_theme(asked_theme), seed);
    app.true_colour = palette::true_colour(std::env::var("COLORTERM").ok().as_deref());
    app
}

/// The index of the theme `--theme` names; the themes there are when none matches.
pub fn parse_theme(name: &str) -> Result<usize, String> {
    theme_store::theme_named(name).ok_or_else(|| {
        let names: Vec<&str> = theme::THEMES.iter().map(|t| t.name).collect();
        format!(
            "unknown theme '{name}': expected one of {}",
            names.join(", ")
        )
    })
}

/// Opens the app on its start screen, in the theme `ludus --theme` names, if any.
pub fn run_menu(theme: Option<&str>) -> Result<()> {
    let asked = theme
        .map(parse_theme)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    run::run(new_app(asked), None)
}

/// Opens the app on the game `ludus play` describes (or on the start screen without a game).
pub fn run_play(args: &PlayArgs) -> Result<()> {
    let asked = args
        .theme
        .as_deref()
        .map(parse_theme)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let mut app = new_app(asked);
    if let Some(path) = &args.load {
        // Read before the terminal switches, so a bad file is reported plainly.
        let game = crate::setup::load_for_play(args, path)?;
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
