//! The start screen as a new player meets it: Esc asks before closing the app, the games'
//! summaries use the rows there are, and the saved-games list leaves the key line alone.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render};

#[test]
fn esc_on_the_start_screen_asks_before_quitting() {
    let mut app = new_app(80, 24);
    press(&mut app, KeyCode::Esc);
    assert!(!app.quit);
    assert!(render(&app).contains("Quit Ludus?"));
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.quit && app.confirm.is_none());
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}
