//! Rendering tests: screens drawn into a `TestBackend` and compared with reviewed snapshots
//! (`snapshots/`), plus checks that every registered game draws at 80×24.

use insta::assert_snapshot;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::Color;
use ratatui::Terminal;

use super::{new_app, play_some, press, render, send, start, start_at};
use crate::app::{App, ScreenKind};
use crate::menu;
use crate::msg::Msg;
use crate::theme::{CLASSIC, MONO_INDEX};
use crate::view::view;

/// The start screen lists the registered games, so its snapshot is one per set of games
/// (`menu_80x24@<ids>`): a build with another set (the `extra-game` feature, or a new game
/// whose snapshot is not yet reviewed) compares with its own.
#[test]
fn start_screen() {
    let ids: Vec<&str> = menu::games().iter().map(|g| g.id).collect();
    insta::with_settings!({ snapshot_suffix => ids.join("-") }, {
        assert_snapshot!("menu_80x24", render(&new_app(80, 24)));
    });
}

#[test]
fn setup_screen() {
    let mut app = new_app(80, 24);
    menu::open_setup(&mut app, ludus_games::game_info("replica").unwrap());
    assert_snapshot!("setup_replica_80x24", render(&app));
}

#[test]
fn rules_page() {
    let mut app = new_app(80, 24);
    menu::open_setup(&mut app, ludus_games::game_info("replica").unwrap());
    press(&mut app, KeyCode::Char('?'));
    assert_snapshot!("rules_replica_80x24", render(&app));
}

#[test]
fn too_small_terminal() {
    let mut app = new_app(50, 15);
    assert_snapshot!("too_small_50x15", render(&app));
    start(&mut app, "replica", &["human", "human"], &[]);
    assert!(render(&app).contains("Terminal too small"));
}

#[test]
fn game_start_and_middle_per_game() {
    // Every game has reviewed snapshots: a new game's are written on its first run, to review
    // (`cargo insta review`), and until then this test fails with the game's name.
    for id in menu::games().iter().map(|g| g.id) {
        let mut app = new_app(80, 24);
        start(&mut app, id, &["human", "ai:1", "ai:1", "ai:1"], &[]);
        assert_snapshot!(format!("{id}_start_80x24"), render(&app));
        let mut app = new_app(100, 30);
        start(&mut app, id, &["human", "human", "human", "human"], &[]);
        play_some(&mut app, 12);
        assert_snapshot!(format!("{id}_middle_100x30"), render(&app));
    }
}

#[test]
fn every_registered_game_draws_at_80x24_and_larger() {
    for info in menu::games() {
        for (w, h) in [(80, 24), (120, 40)] {
            let mut app = new_app(w, h);
            start(
                &mut app,
                info.id,
                &["human", "human", "human", "human"],
                &[],
            );
            play_some(&mut app, 9);
            let text = render(&app);
            assert!(!text.contains("enlarge"), "{}:\n{text}", info.id);
            assert!(text.contains(info.name), "{}:\n{text}", info.id);
            let view = app.play().unwrap().game.view();
            for label in ["a", "1"] {
                assert!(
                    view.cells.iter().all(|c| !c.name.contains(label)) || text.contains(label),
                    "{}: coordinates",
                    info.id
                );
            }
        }
    }
}

#[test]
fn game_over_summary() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["ai:1", "ai:1"], &[]);
    app.play_mut().unwrap().speed = 0;
    press(&mut app, KeyCode::Char('p'));
    press(&mut app, KeyCode::Char('p'));
    assert_eq!(app.screen, ScreenKind::GameOver);
    assert_snapshot!("replica_game_over_80x24", render(&app));
}

#[test]
fn monochrome_theme_marks_owners_with_brackets() {
    let mut app = App::new((80, 24), MONO_INDEX, 7);
    start(&mut app, "replica", &["human", "human"], &[]);
    assert_snapshot!("replica_mono_80x24", render(&app));
}

#[test]
fn last_move_and_cursor_are_highlighted() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["human", "human"], &[]);
    for c in ":b2-c3".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    send(&mut app, Msg::Tick);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| view(&app, frame)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let backgrounds: Vec<Color> = buffer.content().iter().map(|c| c.bg).collect();
    assert!(backgrounds.contains(&CLASSIC.last_move));
    assert!(backgrounds.contains(&CLASSIC.cursor));
}

#[test]
fn chooser_of_decisions_sharing_a_cell() {
    let mut app = new_app(80, 24);
    start(&mut app, "yoxii", &["human", "human"], &[]);
    for c in ":d5".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    let d4 = app.play().unwrap().game.view().cell_named("d4").unwrap();
    app.play_mut().unwrap().cursor = d4;
    press(&mut app, KeyCode::Enter);
    assert!(app.play().unwrap().chooser.is_some());
    assert_snapshot!("yoxii_chooser_80x24", render(&app));
    press(&mut app, KeyCode::Char('3'));
    let history = app.play().unwrap().game.history();
    assert_eq!(history[0].text, "d5 3@d4");
}

#[test]
fn every_registered_game_ends_with_a_summary() {
    for info in menu::games() {
        let mut app = new_app(100, 30);
        start(&mut app, info.id, &["ai:1", "ai:1", "ai:1", "ai:1"], &[]);
        app.play_mut().unwrap().speed = 0;
        press(&mut app, KeyCode::Char('p'));
        press(&mut app, KeyCode::Char('p'));
        assert_eq!(app.screen, ScreenKind::GameOver, "{}", info.id);
        let reason = app.play().unwrap().game.outcome().unwrap().reason;
        let text = render(&app);
        let start: String = reason.chars().take(12).collect();
        assert!(
            (text.contains(" wins: ") || text.contains("Draw: ")) && text.contains(&start),
            "{}:\n{text}",
            info.id
        );
    }
}

#[test]
fn splut_for_four_with_a_throw_chooser() {
    let mut app = new_app(80, 24);
    start(
        &mut app,
        "splut",
        &["human", "ai:1", "ai:2", "ai:3"],
        &[("players", "4")],
    );
    assert_snapshot!("splut_4p_start_80x24", render(&app));

    // §9.1 of the spec: South's troll on d4 steps onto the rock on e4 and must throw it.
    let position = "size=9 seats=south,north tomove=south turn=5 used=0 lev=unused locked=-\n\
                    south: Sd2 De2 Td4\nnorth: Se7 Df7 Td8\nrocks: e4 e1 a5 i5";
    let mut app = new_app(80, 24);
    start_at(&mut app, "splut", position, &["human", "human"]);
    for name in ["d4", "e4"] {
        let id = app.play().unwrap().game.view().cell_named(name).unwrap();
        app.play_mut().unwrap().cursor = id;
        press(&mut app, KeyCode::Enter);
    }
    let chooser = app.play().unwrap().chooser.clone().expect("a chooser");
    let labels: Vec<&str> = chooser.entries.iter().map(|(l, _)| l.as_str()).collect();
    // A throw that hits says whose piece: here one's own dwarf on e2 can be crushed.
    assert_eq!(
        labels,
        [
            "throw n: kills Red's sorcerer",
            "throw e",
            "throw s: crushes Blue's dwarf",
            "throw w"
        ]
    );
    assert_snapshot!("splut_throw_chooser_80x24", render(&app));
    press(&mut app, KeyCode::Char('1'));
    assert_eq!(app.screen, ScreenKind::GameOver);
    assert_snapshot!("splut_game_over_80x24", render(&app));
}
