//! Tests of the app without a terminal: `update` driven by messages (computer players run
//! synchronously, so every run is the same), and the view rendered into a `TestBackend`.

mod clicks;
mod end_words;
mod game_events;
mod highlights;
mod keys_and_errors;
mod legibility;
mod log_words;
mod panel_room;
mod proved_hint;
mod render;
mod script;
mod setup_rows;
mod setup_words;
mod start_screen;
mod untrusted;
mod worker;

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use super::app::{App, Play};
use super::menu;
use super::msg::{Cmd, Msg};
use super::run::{perform, process};
use super::setup::{SeatChoice, Setup};
use super::view::view;
use super::worker::Inline;

/// An app on the start screen of a `width` × `height` terminal, with a fixed seed.
/// A test variant's `key=value` options as the pairs [`start`] takes.
fn option_pairs(options: &[&'static str]) -> Vec<(&'static str, &'static str)> {
    options
        .iter()
        .map(|pair| pair.split_once('=').expect("a key=value test option"))
        .collect()
}

fn new_app(width: u16, height: u16) -> App {
    App::new((width, height), 0, 7)
}

/// Sends one message and every answer it leads to.
fn send(app: &mut App, msg: Msg) {
    process(app, msg, &mut Inline);
}

/// Presses a key.
fn press(app: &mut App, code: KeyCode) {
    send(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

/// Types text, one key per character.
fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Runs a command's effects and the answers they lead to.
fn run_cmd(app: &mut App, cmd: Option<Cmd>) {
    let mut answers = Vec::new();
    if let Some(cmd) = cmd {
        perform(cmd, &mut Inline, &mut answers);
    }
    for msg in answers {
        send(app, msg);
    }
}

/// Starts the game `id` with `players` (`human` or `ai:N` per seat) and rules options.
fn start(app: &mut App, id: &str, players: &[&str], options: &[(&str, &str)]) {
    let info = ludus_games::game_info(id).expect("the game is registered");
    let mut setup = Setup::new(info);
    for (name, value) in options {
        let index = info
            .options
            .iter()
            .position(|o| o.name == *name)
            .expect("a known option");
        setup.values[index] = (*value).to_string();
    }
    setup.refresh();
    for (seat, spec) in players.iter().enumerate() {
        setup.seats[seat].computer = *spec != "human";
        if *spec != "human" {
            setup.seats[seat].spec = (*spec).to_string();
        }
    }
    let cmd = menu::start_game(app, setup);
    assert!(app.notice.is_none(), "{:?}", app.notice);
    run_cmd(app, cmd);
}

/// The seats' choices for `players` (`human` or an agent spec), unnamed.
fn seat_choices(players: &[&str]) -> Vec<SeatChoice> {
    players
        .iter()
        .map(|spec| SeatChoice {
            computer: *spec != "human",
            spec: (*spec).to_string(),
            name: String::new(),
        })
        .collect()
}

/// Starts the game `id` from a position string, with `players` (`human` or `ai:N`).
fn start_at(app: &mut App, id: &str, position: &str, players: &[&str]) {
    let game = ludus_games::new_game(id, &[], Some(position), 1).expect("a valid position");
    let setup = Setup::from_game(&game);
    let play = Play::new(game, &seat_choices(players), setup, 1).expect("the players can be built");
    let cmd = super::play::start(app, play);
    run_cmd(app, cmd);
}

/// The screen as text, one line per row, trailing spaces removed.
fn render(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    terminal.draw(|frame| view(app, frame)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        let line: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol())
            .collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// A fresh temporary directory for this test, removed when the guard drops (also when the
/// test fails): the caller keeps it in a variable to its end.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::TempDir::with_prefix(format!("ludus-tui-{name}-")).unwrap()
}

/// Plays `count` decisions chosen by a fixed rule (the legal move at a rotating index), never
/// one that ends the game, so the position stays a mid-game one.
fn play_some(app: &mut App, count: usize) {
    for i in 0..count {
        let play = app.play_mut().unwrap();
        let moves = play.game.legal_moves();
        let keeps_going = |m: &&ludus_engine::LegalMove| {
            let mut next = play.game.clone();
            next.play(&m.notation).is_ok() && next.outcome().is_none()
        };
        let rotated = moves.iter().cycle().skip((i * 7 + 3) % moves.len().max(1));
        let Some(choice) = rotated.take(moves.len()).find(keeps_going) else {
            break;
        };
        let notation = choice.notation.clone();
        play.game.play(&notation).unwrap();
    }
    let cmd = super::play::after_change(app, true);
    run_cmd(app, cmd);
}

#[test]
fn the_line_mode_and_the_app_seat_the_same_default_computer() {
    assert_eq!(
        crate::DEFAULT_COMPUTER,
        format!("ai:{}", super::setup::DEFAULT_LEVEL)
    );
}
