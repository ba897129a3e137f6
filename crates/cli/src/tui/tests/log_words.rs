//! What the log and the panel keep: a hint goes once the move is played, replay shows each
//! position's own evaluation, and a loaded game's computer reads like a new game's.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render, start, type_text};

#[test]
fn a_played_hint_leaves_the_log() {
    let mut app = new_app(100, 30);
    start(&mut app, "replica", &["human", "human"], &[]);
    press(&mut app, KeyCode::Char('h'));
    let (notation, _) = app.play().unwrap().hint.clone().expect("a hint");
    assert!(render(&app).contains(&format!("hint: {notation}")));
    type_text(&mut app, &format!(":{notation}"));
    press(&mut app, KeyCode::Enter);
    let screen = render(&app);
    assert!(!screen.contains("hint:"), "{screen}");
    assert!(!screen.contains("looking for a hint"), "{screen}");
}
