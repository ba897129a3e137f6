//! The setup screen as a person edits it: the highlight stays on the row being changed.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render};
use crate::menu;
use crate::setup::Row;

#[test]
fn changing_the_player_count_keeps_the_highlight_on_that_option() {
    let mut app = new_app(100, 40);
    let index = menu::games().iter().position(|g| g.id == "splut").unwrap();
    for _ in 0..index {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let players = app
        .setup()
        .unwrap()
        .info
        .options
        .iter()
        .position(|o| o.name == "players")
        .unwrap();
    while app.setup().unwrap().current() != Row::Option(players) {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    let setup = app.setup().unwrap();
    assert_eq!(setup.seat_count(), 4);
    assert_eq!(setup.current(), Row::Option(players));
    // The next key still edits the player count, not Player 3's level.
    press(&mut app, KeyCode::Left);
    assert_eq!(app.setup().unwrap().seat_count(), 3);
}

#[test]
fn switches_read_on_and_off_and_start_has_no_cursor_arrow() {
    let mut app = new_app(100, 40);
    let index = menu::games().iter().position(|g| g.id == "qilin").unwrap();
    for _ in 0..index {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let screen = render(&app);
    assert!(screen.contains("Protect lines"), "{screen}");
    let line = screen
        .lines()
        .find(|l| l.contains("Protect lines"))
        .unwrap();
    assert!(line.contains(" off "), "{line}");
    assert!(!screen.contains("false"), "{screen}");
    assert!(!screen.contains("▶ Start"), "{screen}");
}

#[test]
fn the_theme_changes_in_game_and_is_remembered() {
    use crate::theme::THEMES;
    use crate::theme_store::{starting_theme, theme_file};
    let mut app = new_app(100, 30);
    super::start(&mut app, "replica", &["human", "human"], &[]);
    let before = app.theme;
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(app.theme, (before + 1) % THEMES.len());
    assert!(app.play().is_some(), "the game goes on");
    let saved = std::fs::read_to_string(theme_file().unwrap()).unwrap();
    assert_eq!(saved.trim(), THEMES[app.theme].name);
    if std::env::var_os("NO_COLOR").is_none() {
        assert_eq!(starting_theme(None), app.theme);
    }
    assert_eq!(starting_theme(Some(2)), 2, "--theme wins");
}

#[test]
fn load_lists_the_saved_games_and_tab_steps_through_them() {
    use crate::run::saved_games;
    let dir = super::temp_dir("saves");
    for name in ["old.json", "game.txt", "notes.md"] {
        std::fs::write(dir.path().join(name), "x").unwrap();
    }
    std::fs::create_dir(dir.path().join("folder.json")).unwrap();
    let mut found = saved_games(dir.path());
    found.sort();
    assert_eq!(found, ["game.txt", "old.json"]);
    // The menu's load prompt asks for the list, and Tab fills in each in turn.
    let mut app = new_app(100, 30);
    press(&mut app, KeyCode::Char('l'));
    let prompt = app.prompt.as_mut().expect("the load prompt");
    prompt.choices = found;
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.prompt.as_ref().unwrap().text, "game.txt");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.prompt.as_ref().unwrap().text, "old.json");
    assert!(render(&app).contains("saved games"));
}

#[test]
fn option_descriptions_fit_at_140_columns() {
    for info in ludus_games::GAMES {
        let id = info.id;
        let mut app = new_app(140, 45);
        crate::menu::open_setup(&mut app, info);
        let screen = render(&app);
        for option in info.options {
            let line = screen
                .lines()
                .find(|l| l.contains(&format!(" {} ", option.label())))
                .unwrap_or_else(|| panic!("{id} {}:\n{screen}", option.name));
            assert!(!line.contains('…'), "{id}: {line}");
        }
    }
}

#[test]
fn a_name_is_typed_in_its_field() {
    let mut app = new_app(100, 30);
    press(&mut app, KeyCode::Enter); // the first game's setup
    while app.setup().unwrap().current() != Row::Name(0) {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    super::type_text(&mut app, "Ann");
    let screen = render(&app);
    let field = screen.lines().find(|l| l.contains("  name")).unwrap();
    assert!(field.contains("Ann█"), "{screen}");
    assert!(
        !screen.contains("Name:"),
        "no prompt at the bottom:\n{screen}"
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.setup().unwrap().seats[0].name, "Ann");
}
