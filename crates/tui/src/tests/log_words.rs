//! What the log and the panel keep: a hint goes once the move is played, replay shows each
//! position's own evaluation, and a loaded game's computer reads like a new game's.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render, send, start, type_text};
use crate::app::ScreenKind;
use crate::msg::Msg;

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

#[test]
fn replay_shows_the_evaluation_of_each_position() {
    let mut app = new_app(100, 30);
    start(&mut app, "replica", &["ai:2", "ai:2"], &[]);
    let mut first = None;
    for _ in 0..20_000 {
        if app.screen != ScreenKind::Playing {
            break;
        }
        send(&mut app, Msg::Tick);
        let play = app.play().unwrap();
        if play.game.entry_count() == 1 && first.is_none() {
            first = play.insight.clone();
        }
    }
    assert_eq!(app.screen, ScreenKind::GameOver);
    let first = first
        .expect("the first move's search")
        .analysis
        .evaluation
        .unwrap();
    let last = app
        .play()
        .unwrap()
        .insight
        .clone()
        .unwrap()
        .analysis
        .evaluation;
    assert_ne!(
        Some(first),
        last,
        "the test needs two different evaluations"
    );
    press(&mut app, KeyCode::Char('v'));
    let screen = render(&app);
    assert!(
        !screen.contains("Evaluation"),
        "no search led here:\n{screen}"
    );
    press(&mut app, KeyCode::Right);
    let screen = render(&app);
    assert!(screen.contains(&format!("{first} for White")), "{screen}");
}

#[test]
fn a_loaded_game_names_its_computer_by_level() {
    let dir = super::temp_dir("level-label");
    let path = dir.path().join("game.json");
    let mut app = new_app(100, 30);
    start(&mut app, "replica", &["human", "ai:1"], &[]);
    // A record written by another tool names the computer by its agent, not its level.
    let mut record = app.play().unwrap().game.record();
    record.players[1].kind = "ai:random".into();
    std::fs::write(&path, serde_json::to_string(&record).unwrap()).unwrap();
    press(&mut app, KeyCode::Char('m'));
    if app.confirm.is_some() {
        press(&mut app, KeyCode::Char('y'));
    }
    press(&mut app, KeyCode::Char('l'));
    type_text(&mut app, &path.display().to_string());
    press(&mut app, KeyCode::Enter);
    assert!(app.notice.is_none(), "{:?}", app.notice);
    assert_eq!(app.play().unwrap().game.players()[1].kind, "ai:random");
    let screen = render(&app);
    assert!(screen.contains("computer L1 (random)"), "{screen}");
    assert!(!screen.contains("ai:random"), "{screen}");
}
