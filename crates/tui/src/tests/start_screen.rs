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

#[test]
fn summaries_are_whole_when_the_rows_are_free() {
    // 80×24 has the rows for five games' summaries (the start screen's snapshot shows them
    // whole); 30 rows have them for more.
    for size in [(80, 30), (120, 30)] {
        let screen = render(&new_app(size.0, size.1)).replace("saved game…", "");
        assert!(!screen.contains('…'), "{size:?}:\n{screen}");
        for info in crate::menu::games() {
            let last = info.description.split_whitespace().last().unwrap();
            assert!(screen.contains(last), "{}:\n{screen}", info.id);
        }
    }
    // Where rows are short, a summary is cut with a mark, and the key line stays.
    let screen = render(&new_app(80, 20)).replace("saved game…", "");
    assert!(screen.contains('…'), "{screen}");
    assert!(screen.contains("q quit"), "{screen}");
}

#[test]
fn the_saved_games_box_leaves_the_key_line_whole() {
    let mut app = new_app(80, 24);
    press(&mut app, KeyCode::Char('l'));
    app.prompt.as_mut().unwrap().choices = vec!["a.json".into(), "b.json".into()];
    let screen = render(&app);
    assert!(screen.contains("saved games"), "{screen}");
    let keys = screen.lines().nth(22).unwrap();
    assert!(keys.starts_with("│ ↑↓ choose"), "{screen}");
    assert!(keys.contains("q quit"), "{screen}");
}
