//! Records are untrusted input: the computer players a record names are checked and capped
//! before the app builds them, so a hostile file is one error line, not an abort or a search
//! that never ends.

use super::{new_app, run_cmd, temp_dir};
use crate::app::{App, ScreenKind};
use crate::msg::Cmd;

/// Loads a Qawale record whose second seat is the computer player `kind`.
fn load_with_player(name: &str, kind: &str) -> App {
    let dir = temp_dir(name);
    let path = dir.path().join("game.json");
    let record = format!(
        r#"{{"format":1,"game":"qawale","options":{{}},"moves":["a1:NEN"],
            "players":[{{"name":"Ann","kind":"human"}},{{"name":"Bot","kind":"{kind}"}}]}}"#
    );
    std::fs::write(&path, record).unwrap();
    let mut app = new_app(80, 24);
    run_cmd(&mut app, Some(Cmd::Load(path)));
    app
}

#[test]
fn a_record_asking_for_a_huge_table_is_refused_with_the_range() {
    let app = load_with_player("hash", "ai:alphabeta:hash=12000");
    assert_eq!(app.screen, ScreenKind::Menu);
    let notice = app.notice.expect("an error line");
    assert!(notice.error);
    assert!(
        notice.text.ends_with(
            "bad parameter 'hash=12000' for alphabeta: expected a number from 0 to 1024"
        ),
        "{}",
        notice.text
    );
}

#[test]
fn a_record_asking_for_an_endless_search_is_refused() {
    for kind in ["ai:mcts:time=0", "ai:mcts:c=nan", "ai:4:depth=0", "ai:zz"] {
        let app = load_with_player("endless", kind);
        assert_eq!(app.screen, ScreenKind::Menu, "{kind}");
        assert!(app.notice.is_some_and(|n| n.error), "{kind}");
    }
}

#[test]
fn a_record_asking_for_long_thinking_is_capped_at_a_minute() {
    let app = load_with_player("long", "ai:4:time=3000");
    let play = app.play().expect("the game is loaded");
    assert_eq!(play.seats[1].kind, "ai:alphabeta:time=60");
}
