//! A hint near the end of a game says what the exact solver proved ("wins in 1 turn"), not a
//! score: the hint player tries the solver level 5 uses.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render, start_at};

/// A Qawale position two turns before the end: Dark completes the first rank by placing on
/// d3 and sowing d2, d1.
const DARK_WINS: &str = "D,L,D,N/LD,DL,L,N/NL,NL,NL,-/ND,ND,ND,- D";

#[test]
fn a_hint_in_a_proved_position_says_how_it_ends() {
    let mut app = new_app(100, 30);
    start_at(&mut app, "qawale", DARK_WINS, &["human", "human"]);
    press(&mut app, KeyCode::Char('h'));
    let play = app.play().unwrap();
    assert!(play.hint.is_some(), "no hint");
    let screen = render(&app);
    assert!(screen.contains("wins in 1 turn"), "{screen}");
}
