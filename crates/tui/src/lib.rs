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
//!
//! Beside the app, what the `ludus` binary's line mode shares with it: [`players`] (who plays
//! a seat) and [`board_text`] (a board as terminal text).

mod app;
pub mod board_text;
mod computer;
mod contrast;
mod event;
mod layout;
mod menu;
mod msg;
mod palette;
mod play;
pub mod players;
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
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{bail, Result};
use ludus_engine::{AnyGame, Seat};

use self::app::{App, Play};
use self::msg::{Cmd, Msg};
use self::setup::{SeatChoice, Setup};

/// The computer player of a seat not told otherwise (the app's set-up and `ludus play`).
pub const DEFAULT_COMPUTER: &str = "ai:3";

/// What the app opens on (`ludus play`'s arguments, checked).
#[derive(Debug)]
pub enum Start {
    /// The start screen.
    Menu,
    /// A saved game, read before the terminal switches so that a bad file is reported plainly.
    Loaded {
        /// The file it was read from.
        path: PathBuf,
        /// The game, at its last position.
        game: AnyGame,
    },
    /// A new game with its seats.
    New(NewGame),
}

/// A new game and who plays it.
#[derive(Debug)]
pub struct NewGame {
    /// The game at its start.
    pub game: AnyGame,
    /// Each seat's player: `human` or a computer player's spec (the seats beyond the game's
    /// count are ignored).
    pub players: Vec<String>,
    /// Each seat's name, in order; a seat without one keeps the game's seat name.
    pub names: Vec<String>,
    /// Seed of the computer players.
    pub seed: u64,
    /// Where the game is saved (`ludus play --save FILE`).
    pub save: Option<PathBuf>,
}

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

/// A `--theme` that names no theme.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown theme '{name}': expected one of {known}")]
pub struct UnknownTheme {
    /// The name given.
    pub name: String,
    /// The themes there are, comma-separated.
    pub known: String,
}

/// The index of the theme `--theme` names; the themes there are when none matches.
pub fn parse_theme(name: &str) -> Result<usize, UnknownTheme> {
    theme_store::theme_named(name).ok_or_else(|| UnknownTheme {
        name: name.to_string(),
        known: theme::THEMES
            .iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// Opens the app on `start`, in the theme `theme` names, if any.
pub fn run_play(start: Start, theme: Option<&str>) -> Result<()> {
    let asked = theme
        .map(parse_theme)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let mut app = new_app(asked);
    match start {
        Start::Menu => run::run(app, None),
        Start::Loaded { path, game } => {
            let first = update::update(
                &mut app,
                Msg::Loaded {
                    path,
                    result: Ok(game),
                },
            );
            run::run(app, first)
        }
        Start::New(new) => {
            let first = start_new(&mut app, new)?;
            run::run(app, first)
        }
    }
}

/// Sets up the app's game screen for `new`: the set-up it would have chosen, then the game.
fn start_new(app: &mut App, new: NewGame) -> Result<Option<Cmd>> {
    let NewGame {
        game,
        players: specs,
        names,
        seed,
        save,
    } = new;
    let mut setup = Setup::from_game(&game);
    let players: Vec<SeatChoice> = (0..game.seat_count())
        .map(|i| {
            let spec = specs.get(i).map_or(DEFAULT_COMPUTER, |s| s.trim());
            let seat_name = game.seat_name(Seat::new(i as u8));
            SeatChoice {
                computer: !spec.eq_ignore_ascii_case("human"),
                spec: spec.to_string(),
                name: names.get(i).cloned().unwrap_or_else(|| seat_name.into()),
            }
        })
        .collect();
    for (i, choice) in players.iter().enumerate() {
        setup.seats[i] = choice.clone();
        if setup.seat_names.get(i) == Some(&choice.name) {
            setup.seats[i].name.clear();
        }
    }
    let mut play = match Play::new(game, &players, setup, seed) {
        Ok(play) => play,
        Err(e) => bail!(e),
    };
    play.save_path = save;
    Ok(play::start(app, play))
}
