//! Updates of the start screen (choose a game, load a saved one, theme, quit), the setup
//! screen (players, levels, names, rules options) and the rules pages.

use std::path::PathBuf;

use ludus_engine::{AnyGame, GameInfo, OptionValues};
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::{Margin, Position, Rect};

use super::app::{App, Confirm, Help, Phase, Play, Prompt, PromptKind, Screen};
use super::layout::{centred, SCREEN_FRAME_WIDTH};
use super::msg::Cmd;
use super::setup::{Row, SeatChoice, Setup};
use super::theme::THEMES;
use super::update;
use super::view::{menu_body, setup_visible_rows};
use super::{computer, play};
use crate::players::Player;

/// The entries of the start screen after the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Load a saved game.
    Load,
    /// Cycle the theme.
    Theme,
    /// Leave.
    Quit,
}

/// The extra entries, in order.
pub const EXTRAS: [Extra; 3] = [Extra::Load, Extra::Theme, Extra::Quit];

/// The games on the start screen.
pub fn games() -> &'static [&'static GameInfo] {
    ludus_games::GAMES
}

fn entry_count() -> usize {
    games().len() + EXTRAS.len()
}

/// Keys on the start screen.
pub fn menu_key(app: &mut App, code: KeyCode) -> Option<Cmd> {
    let count = entry_count();
    let Screen::Menu { index: row } = &mut app.screen else {
        return None;
    };
    let highlighted = *row;
    match code {
        KeyCode::Up => *row = (*row + count - 1) % count,
        KeyCode::Down | KeyCode::Tab => *row = (*row + 1) % count,
        KeyCode::Char(c @ '1'..='9') => {
            let index = c as usize - '1' as usize;
            if index < games().len() {
                *row = index;
                open_setup(app, games()[index]);
            }
        }
        KeyCode::Enter | KeyCode::Char(' ') => return activate(app, highlighted),
        KeyCode::Char('l') => return Some(load_prompt(app)),
        KeyCode::Char('t') => return Some(next_theme(app)),
        KeyCode::Char('?' | 'h') => {
            if let Some(info) = games().get(highlighted) {
                open_help(app, Some(info.id));
            }
        }
        KeyCode::Char('q') => return update::quit(app),
        // Esc also backs out of every other screen: here it would close the app, so it asks.
        KeyCode::Esc => app.confirm = Some(Confirm::Quit),
        _ => {}
    }
    None
}

fn activate(app: &mut App, row: usize) -> Option<Cmd> {
    let games = games();
    if let Some(info) = games.get(row) {
        open_setup(app, info);
        return None;
    }
    match EXTRAS[row - games.len()] {
        Extra::Load => Some(load_prompt(app)),
        Extra::Theme => Some(next_theme(app)),
        Extra::Quit => update::quit(app),
    }
}

/// Switches to the next theme (on any screen) and remembers it for the next run.
pub fn next_theme(app: &mut App) -> Cmd {
    app.theme = (app.theme + 1) % THEMES.len();
    Cmd::RememberTheme(app.theme)
}

/// Opens the load prompt and asks for the saved games in the current directory, which Tab
/// then steps through.
fn load_prompt(app: &mut App) -> Cmd {
    app.prompt = Some(Prompt {
        kind: PromptKind::Load,
        text: String::new(),
        choices: Vec::new(),
    });
    Cmd::ListSaves
}

/// Shows the setup screen of a game.
pub fn open_setup(app: &mut App, info: &'static GameInfo) {
    app.notice = None;
    app.screen = Screen::Setup(Setup::new(info));
}

/// Opens a rules page over the current screen, which Esc brings back (a game goes on).
pub fn open_help(app: &mut App, game: Option<&'static str>) {
    let back = Box::new(app.screen.take());
    app.screen = Screen::Help {
        help: Help { game, scroll: 0 },
        back,
    };
}

/// Keys on the setup screen.
pub fn setup_key(app: &mut App, code: KeyCode) -> Option<Cmd> {
    let setup = app.screen.setup_mut()?;
    match code {
        KeyCode::Up => setup.move_row(-1),
        KeyCode::Down | KeyCode::Tab => setup.move_row(1),
        KeyCode::Left => setup.change(-1),
        KeyCode::Right => setup.change(1),
        KeyCode::Enter | KeyCode::Char(' ') => match setup.current() {
            Row::Name(seat) => {
                let text = setup.seats[seat].name.clone();
                app.prompt = Some(Prompt {
                    kind: PromptKind::Name(seat),
                    text,
                    choices: Vec::new(),
                });
            }
            Row::Start => {
                let setup = setup.clone();
                return start_game(app, setup);
            }
            Row::Rules => {
                let id = setup.info.id;
                open_help(app, Some(id));
            }
            Row::Option(index)
                if matches!(setup.info.options[index].values, OptionValues::Range { .. }) =>
            {
                let text = setup.values[index].clone();
                app.prompt = Some(Prompt {
                    kind: PromptKind::Value(index),
                    text,
                    choices: Vec::new(),
                });
            }
            Row::Mode | Row::Player(_) | Row::Option(_) => setup.change(1),
        },
        KeyCode::Char('s') => {
            let setup = setup.clone();
            return start_game(app, setup);
        }
        KeyCode::Char('?') => {
            let id = setup.info.id;
            open_help(app, Some(id));
        }
        KeyCode::Esc => {
            app.notice = None;
            let row = games()
                .iter()
                .position(|g| g.id == setup.info.id)
                .unwrap_or(0);
            app.screen = Screen::Menu { index: row };
        }
        KeyCode::Char('q') => return update::quit(app),
        _ => {}
    }
    None
}

/// Starts a game as `setup` describes it (also "play again").
pub fn start_game(app: &mut App, setup: Setup) -> Option<Cmd> {
    if let Some(error) = &setup.error {
        app.notify(error.clone(), true);
        return None;
    }
    let seed = app.next_seed();
    let players = setup.players();
    let started = setup
        .build(seed)
        .and_then(|game| Play::new(game, &players, setup.clone(), seed));
    match started {
        Ok(play) => {
            let stop = computer::stop_all(app);
            app.notice = None;
            Cmd::then(stop, play::start(app, play))
        }
        Err(e) => {
            app.screen = Screen::Setup(setup);
            app.notify(e, true);
            None
        }
    }
}

/// A saved game was read: continue it, or show its summary if it is over.
pub fn on_loaded(app: &mut App, path: PathBuf, result: Result<AnyGame, String>) -> Option<Cmd> {
    let game = match result {
        Ok(game) => game,
        Err(e) => {
            app.notify(format!("cannot load {}: {e}", path.display()), true);
            return None;
        }
    };
    let setup = Setup::from_game(&game);
    let players: Result<Vec<SeatChoice>, String> = game
        .players()
        .iter()
        .map(|p| {
            let computer = !p.kind.trim().eq_ignore_ascii_case("human");
            let spec = if computer {
                Player::spec_from_record(&p.kind)
                    .map_err(|e| format!("player '{}': {e:#}", p.name))?
            } else {
                p.kind.clone()
            };
            Ok(SeatChoice {
                computer,
                spec,
                name: p.name.clone(),
            })
        })
        .collect();
    let players = match players {
        Ok(players) => players,
        Err(e) => {
            app.notify(format!("cannot load {}: {e}", path.display()), true);
            return None;
        }
    };
    let seed = app.next_seed();
    match Play::new(game, &players, setup, seed) {
        Ok(mut play) => {
            play.note(format!("loaded {}", path.display()));
            play.saved_entries = Some(play.game.entry_count());
            play.save_path = Some(path);
            // A loaded game waits for a key before computers move on.
            play.paused = !play.has_human();
            let stop = computer::stop_all(app);
            Cmd::then(stop, play::start(app, play))
        }
        Err(e) => {
            app.notify(format!("cannot load {}: {e}", path.display()), true);
            None
        }
    }
}

/// Keys on a rules page.
pub fn help_key(app: &mut App, code: KeyCode) {
    let Screen::Help { help, .. } = &mut app.screen else {
        return;
    };
    match code {
        KeyCode::Up => help.scroll = help.scroll.saturating_sub(1),
        KeyCode::Down => help.scroll = help.scroll.saturating_add(1),
        KeyCode::PageUp => help.scroll = help.scroll.saturating_sub(10),
        KeyCode::PageDown | KeyCode::Char(' ') => help.scroll = help.scroll.saturating_add(10),
        KeyCode::Home => help.scroll = 0,
        KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q' | '?') => {
            if let Screen::Help { back, .. } = app.screen.take() {
                app.screen = *back;
            }
            // The game may have ended while the page was open.
            let over = app.play().is_some_and(|p| p.game.outcome().is_some());
            if let (Some(phase @ Phase::Playing), true) = (app.screen.phase_mut(), over) {
                *phase = Phase::Over;
            }
        }
        _ => {}
    }
}

/// The inner area of the start and setup screens' frame, for a terminal of `size`.
fn screen_frame_inner(size: (u16, u16)) -> Rect {
    let area = centred(Rect::new(0, 0, size.0, size.1), SCREEN_FRAME_WIDTH, size.1);
    area.inner(Margin::new(1, 1))
}

/// A click on the start screen: a game or an entry below is highlighted and opened.
pub fn menu_click(app: &mut App, column: u16, row: u16) -> Option<Cmd> {
    let inner = screen_frame_inner(app.size);
    if !inner.contains(Position::new(column, row)) {
        return None;
    }
    let theme = &THEMES[app.theme % THEMES.len()];
    let (_, entries) = menu_body(app, theme, inner.width as usize, inner.height as usize);
    let entry = entries.get(usize::from(row - inner.y)).copied().flatten()?;
    if let Screen::Menu { index } = &mut app.screen {
        *index = entry;
    }
    activate(app, entry)
}

/// A click on the setup screen: a row is selected; a click on the selected row, or on an
/// action row (start, rules), acts as Enter, so that "Start the game" starts at once.
pub fn setup_click(app: &mut App, column: u16, row: u16) -> Option<Cmd> {
    let inner = screen_frame_inner(app.size);
    if !inner.contains(Position::new(column, row)) {
        return None;
    }
    let setup = app.screen.setup_mut()?;
    let (first, room) = setup_visible_rows(setup, inner.height);
    let line = usize::from(row - inner.y);
    if line >= room || first + line >= setup.rows().len() {
        return None;
    }
    let action = matches!(setup.rows()[first + line], Row::Start | Row::Rules);
    let again = setup.row == first + line;
    setup.row = first + line;
    if again || action {
        return setup_key(app, KeyCode::Enter);
    }
    None
}
