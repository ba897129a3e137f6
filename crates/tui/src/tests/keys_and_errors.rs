//! Typed moves and arrow keys as a person meets them: a refused move is named once in its
//! error, and Qilin's arrow keys follow the line the cursor is on.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render, start, type_text};

#[test]
fn a_refused_move_is_named_once() {
    let mut app = new_app(100, 30);
    start(&mut app, "splut", &["human", "human"], &[]);
    type_text(&mut app, ":Sd3-d9");
    press(&mut app, KeyCode::Enter);
    let note = app.play().unwrap().notes.last().unwrap().clone();
    assert!(note.error, "{note:?}");
    assert_eq!(note.text.matches("Sd3-d9").count(), 1, "{}", note.text);
    let screen = render(&app);
    assert_eq!(screen.matches("Sd3-d9").count(), 1, "{screen}");
}

#[test]
fn qilin_arrows_take_the_line_straight_ahead_before_a_diagonal() {
    let mut app = new_app(100, 30);
    start(&mut app, "qilin", &["human", "human"], &[]);
    let view = app.play().unwrap().game.view();
    let named = |name: &str| view.cell_named(name).unwrap();
    app.play_mut().unwrap().cursor = named("a1");
    press(&mut app, KeyCode::Right);
    assert_eq!(
        app.play().unwrap().cursor,
        named("d1"),
        "a1 → along the bottom line"
    );
    press(&mut app, KeyCode::Up);
    assert_eq!(
        app.play().unwrap().cursor,
        named("d2"),
        "d1 ↑ along the middle line"
    );
}
