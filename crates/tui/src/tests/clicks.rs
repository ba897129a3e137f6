//! The mouse beyond the board: the start screen, the setup screen and the game-over box
//! answer clicks where their text is drawn.

use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::{new_app, render, send, start};
use crate::app::{App, ScreenKind};
use crate::msg::Msg;

/// A left click on the first place the screen shows `text`.
fn click_on(app: &mut App, text: &str) {
    let screen = render(app);
    let (row, line) = screen
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains(text))
        .unwrap_or_else(|| panic!("'{text}' not on screen:\n{screen}"));
    let column = line[..line.find(text).unwrap()].chars().count();
    send(
        app,
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: column as u16,
            row: row as u16,
            modifiers: KeyModifiers::NONE,
        }),
    );
}

#[test]
fn a_click_on_a_game_opens_its_setup_and_on_start_starts_it() {
    let mut app = new_app(100, 30);
    click_on(&mut app, "Yoxii");
    assert_eq!(app.screen, ScreenKind::Setup);
    assert_eq!(app.setup().unwrap().info.id, "yoxii");
    // A value row is selected by a first click; an action row acts at once.
    click_on(&mut app, "Player 2");
    assert_eq!(app.screen, ScreenKind::Setup);
    click_on(&mut app, "Start the game");
    assert_eq!(app.screen, ScreenKind::Playing, "the first click starts");
}

#[test]
fn a_click_on_replay_in_the_game_over_box_replays() {
    let mut app = new_app(100, 30);
    start(&mut app, "replica", &["human", "human"], &[]);
    app.play_mut()
        .unwrap()
        .game
        .resign(ludus_engine::Seat::FIRST);
    let cmd = crate::play::after_change(&mut app, true);
    super::run_cmd(&mut app, cmd);
    assert_eq!(app.screen, ScreenKind::GameOver);
    click_on(&mut app, "v replay");
    assert_eq!(app.screen, ScreenKind::Replay);
}
