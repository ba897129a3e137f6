//! Scripted key sequences: the app driven through `update` as a person would drive it.

use ludus_engine::{CellId, GameRecord, Seat, Verdict};
use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use super::{new_app, press, render, send, start, temp_dir, type_text};
use crate::app::{App, Confirm, PromptKind, ScreenKind};
use crate::layout::{game_areas, BoardGeometry};
use crate::menu;
use crate::msg::Msg;
use crate::run::process;
use crate::setup::Row;
use crate::worker::{run_job, AiRunner, Job};

fn cell(app: &App, name: &str) -> CellId {
    let view = app.play().unwrap().game.view();
    view.cell_named(name).unwrap()
}

fn history(app: &App) -> Vec<String> {
    let game = &app.play().unwrap().game;
    game.history().iter().map(|t| t.text.clone()).collect()
}

/// A left click in the middle of the cell `id`.
fn click(app: &mut App, id: CellId) {
    let view = app.play().unwrap().game.view();
    let area = game_areas(Rect::new(0, 0, app.size.0, app.size.1)).board;
    let geometry = BoardGeometry::fit(&view, area).unwrap();
    let c = &view.cells[id.to_usize()];
    let rect = geometry.cell_rect(c.x, c.y);
    send(
        app,
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: rect.x + rect.width / 2,
            row: rect.y + rect.height / 2,
            modifiers: KeyModifiers::NONE,
        }),
    );
}

fn clear_prompt(app: &mut App) {
    press(app, KeyCode::Backspace);
    let ctrl_u =
        ratatui::crossterm::event::KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL);
    send(app, Msg::Key(ctrl_u));
    assert_eq!(app.prompt.as_ref().unwrap().text, "");
}

fn save_as(app: &mut App, path: &std::path::Path) {
    press(app, KeyCode::Char('s'));
    assert_eq!(app.prompt.as_ref().unwrap().kind, PromptKind::Save);
    clear_prompt(app);
    type_text(app, &path.display().to_string());
    press(app, KeyCode::Enter);
    assert!(app.prompt.is_none());
}

/// From the start screen to a Replica game of a person against computer level 1, by keys.
fn replica_against_level_1_by_keys() -> App {
    let mut app = new_app(80, 24);
    // Start screen: down to Replica, open its setup.
    let index = menu::games()
        .iter()
        .position(|g| g.id == "replica")
        .unwrap();
    for _ in 0..index {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, ScreenKind::Setup);
    assert_eq!(app.setup().unwrap().mode_label(), "Human / Computer");
    // The computer's level: from the default 3 down to 1.
    while app.setup().unwrap().current() != Row::Player(1) {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    assert_eq!(app.setup().unwrap().seats[1].spec, "ai:1");
    while app.setup().unwrap().current() != Row::Start {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, ScreenKind::Playing);
    app
}

#[test]
fn human_against_computer_replica_by_cursor_undo_save_quit() {
    let dir = temp_dir("script");
    let mut app = replica_against_level_1_by_keys();

    // White, a person, moves b2 to c3 with the cursor, which starts on a1.
    assert_eq!(app.play().unwrap().cursor, cell(&app, "a1"));
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.play().unwrap().cursor, cell(&app, "b2"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.play().unwrap().selection, vec![cell(&app, "b2")]);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    // The computer answered at once (it runs synchronously in tests).
    let moves = history(&app);
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[0], "b2-c3");
    assert_eq!(app.play().unwrap().game.to_move(), Some(Seat::FIRST));

    // Undo goes back to the person's last decision: the computer's reply goes too.
    press(&mut app, KeyCode::Char('u'));
    let play = app.play().unwrap();
    assert!(history(&app).is_empty());
    assert_eq!(play.game.entry_count(), 0);
    assert_eq!(play.game.redo_len(), 2);
    assert_eq!(play.game.to_move(), Some(Seat::FIRST));

    // Save: the prompt offers a default name, replaced by a file in the temporary folder.
    let first = dir.path().join("undone.json");
    save_as(&mut app, &first);
    let record = GameRecord::load(&first).unwrap();
    assert_eq!(record.game, "replica");
    assert!(record.moves.is_empty());
    let kinds: Vec<_> = record.players.iter().map(|p| p.kind.as_str()).collect();
    assert_eq!(kinds, ["human", "ai:1"]);
    assert!(!app.play().unwrap().unsaved());

    // Redo brings both moves back; then a move by mouse, and the computer's reply.
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(history(&app), moves);
    let legal = app.play().unwrap().game.legal_moves();
    let advance = legal
        .iter()
        .find(|m| m.input.cells.len() == 2 && m.input.cells[0] != m.input.cells[1])
        .unwrap()
        .clone();
    click(&mut app, advance.input.cells[0]);
    click(&mut app, advance.input.cells[1]);
    let after = history(&app);
    assert_eq!(after.len(), 4, "{after:?}");
    assert_eq!(after[2], advance.notation);

    // Save again and load the file back through the rules.
    let second = dir.path().join("game.json");
    save_as(&mut app, &second);
    let record = GameRecord::load(&second).unwrap();
    assert_eq!(record.moves, after);
    let loaded = ludus_games::load_record(&record).unwrap();
    assert_eq!(loaded.position(), app.play().unwrap().game.position());

    // Quit asks first, then closes the app.
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.confirm, Some(Confirm::Quit));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}

#[test]
fn illegal_attempts_change_nothing_and_say_why() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["human", "ai:1"], &[]);
    let before = app.play().unwrap().game.position();
    // An empty square, then an enemy piece: nothing starts there.
    let e5 = cell(&app, "e5");
    click(&mut app, e5);
    let h8 = cell(&app, "h8");
    click(&mut app, h8);
    let play = app.play().unwrap();
    assert_eq!(play.game.position(), before);
    assert!(play.selection.is_empty());
    let last = play.notes.last().unwrap();
    assert!(last.error && last.text.contains("h8"), "{last:?}");
    // A selected piece, then a square it cannot reach.
    let b2 = cell(&app, "b2");
    click(&mut app, b2);
    click(&mut app, e5);
    let play = app.play().unwrap();
    assert_eq!(play.selection, vec![b2]);
    assert!(play
        .notes
        .last()
        .unwrap()
        .text
        .contains("not a legal target"));
    // A typed move the rules refuse.
    press(&mut app, KeyCode::Esc);
    type_text(&mut app, ":a1-h8");
    press(&mut app, KeyCode::Enter);
    let play = app.play().unwrap();
    assert_eq!(play.game.position(), before);
    assert!(play.notes.last().unwrap().error);
    assert!(render(&app).contains("a1-h8"));
}

#[test]
fn typed_moves_and_clicking_a_piece_twice_to_transform() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["human", "human"], &[]);
    type_text(&mut app, ":b2-c3");
    press(&mut app, KeyCode::Enter);
    assert_eq!(history(&app), ["b2-c3"]);
    // Black transforms g7, seen by its king on h8: the piece clicked twice.
    let g7 = cell(&app, "g7");
    click(&mut app, g7);
    click(&mut app, g7);
    assert_eq!(history(&app), ["b2-c3", "g7*"]);
}

#[test]
fn computers_play_to_the_end_then_replay_and_play_again() {
    let mut app = new_app(100, 30);
    start(&mut app, "replica", &["ai:1", "ai:1"], &[]);
    // The watching delay counts down in ticks.
    let mut ticks = 0;
    while app.screen == ScreenKind::Playing && ticks < 20_000 {
        send(&mut app, Msg::Tick);
        ticks += 1;
    }
    assert_eq!(app.screen, ScreenKind::GameOver);
    let play = app.play().unwrap();
    let outcome = play.game.outcome().unwrap();
    assert!(matches!(outcome.verdict, Verdict::Win(_)));
    let total = play.game.entry_count();
    assert!(render(&app).contains(" wins: "));

    press(&mut app, KeyCode::Char('v'));
    assert_eq!(app.screen, ScreenKind::Replay);
    assert_eq!(app.screen.replay().unwrap().game.entry_count(), 0);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    assert_eq!(app.screen.replay().unwrap().game.entry_count(), 2);
    press(&mut app, KeyCode::End);
    assert_eq!(app.screen.replay().unwrap().game.entry_count(), total);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, ScreenKind::GameOver);

    press(&mut app, KeyCode::Char('a'));
    assert_eq!(app.screen, ScreenKind::Playing);
    assert_eq!(app.play().unwrap().game.entry_count(), 0);
    press(&mut app, KeyCode::Char('m'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.screen, ScreenKind::Menu);
    assert!(app.play().is_none());
}

#[test]
fn pause_step_and_speed() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["ai:1", "ai:1"], &[]);
    press(&mut app, KeyCode::Char('p'));
    for _ in 0..50 {
        send(&mut app, Msg::Tick);
    }
    assert_eq!(app.play().unwrap().game.entry_count(), 0);
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.play().unwrap().game.entry_count(), 1);
    press(&mut app, KeyCode::Char('+'));
    press(&mut app, KeyCode::Char('+'));
    assert_eq!(app.play().unwrap().speed, 0);
    // At full speed computers answer each other at once.
    press(&mut app, KeyCode::Char('p'));
    let play = app.play().unwrap();
    assert!(play.game.outcome().is_some(), "{}", play.game.entry_count());
    // Undo between computers takes back one decision and pauses.
    press(&mut app, KeyCode::Char('u'));
    let play = app.play().unwrap();
    assert!(play.paused && play.game.outcome().is_none());
    assert_eq!(app.screen, ScreenKind::Playing);
}

/// Keeps jobs instead of running them, to answer late.
#[derive(Default)]
struct Deferred(Vec<Job>);

impl AiRunner for Deferred {
    fn start(&mut self, job: Job) -> Option<Msg> {
        self.0.push(job);
        None
    }
}

#[test]
fn an_answer_made_stale_by_undo_is_dropped_and_its_search_stopped() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["human", "ai:1"], &[]);
    let mut jobs = Deferred::default();
    let key = |code| Msg::Key(ratatui::crossterm::event::KeyEvent::from(code));
    for c in ":b2-c3".chars() {
        process(&mut app, key(KeyCode::Char(c)), &mut jobs);
    }
    process(&mut app, key(KeyCode::Enter), &mut jobs);
    assert_eq!(jobs.0.len(), 1, "the computer was asked to move");
    assert!(render(&app).contains("thinking"));
    process(&mut app, key(KeyCode::Char('u')), &mut jobs);
    let job = jobs.0.remove(0);
    assert!(job.stop.is_raised());
    let answer = run_job(&job, &mut |_| {});
    process(&mut app, answer, &mut jobs);
    let play = app.play().unwrap();
    assert_eq!(
        play.game.entry_count(),
        0,
        "the stale answer was not played"
    );
    assert!(play.thinking.is_none());
}

#[test]
fn hint_resign_and_load() {
    let dir = temp_dir("load");
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["human", "ai:1"], &[]);
    press(&mut app, KeyCode::Char('h'));
    let play = app.play().unwrap();
    let (notation, cells) = play.hint.clone().expect("a hint");
    assert!(!cells.is_empty());
    assert!(play
        .game
        .legal_moves()
        .iter()
        .any(|m| m.notation == notation));

    type_text(&mut app, ":b2-c3");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(app.confirm, Some(Confirm::Resign(Seat::FIRST)));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.screen, ScreenKind::GameOver);
    let game = &app.play().unwrap().game;
    assert_eq!(game.outcome().unwrap().verdict, Verdict::Win(Seat::SECOND));
    let path = dir.path().join("resigned.json");
    save_as(&mut app, &path);
    assert!(render(&app).contains("saved in"));
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.screen, ScreenKind::Menu);

    // Load it from the start screen: a finished game opens on its summary.
    press(&mut app, KeyCode::Char('l'));
    type_text(&mut app, &path.display().to_string());
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, ScreenKind::GameOver);
    assert_eq!(history(&app).last().unwrap(), "resign 1");
    // A missing file is reported on the start screen.
    press(&mut app, KeyCode::Char('m'));
    press(&mut app, KeyCode::Char('l'));
    type_text(&mut app, "/nonexistent/ludus.json");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, ScreenKind::Menu);
    assert!(app.notice.as_ref().unwrap().error);
}

#[test]
fn save_failures_are_reported_and_nothing_is_lost() {
    let mut app = new_app(80, 24);
    start(&mut app, "replica", &["human", "human"], &[]);
    type_text(&mut app, ":b2-c3");
    press(&mut app, KeyCode::Enter);
    save_as(&mut app, std::path::Path::new("/nonexistent-dir/x.json"));
    let play = app.play().unwrap();
    assert!(play.notes.last().unwrap().error);
    assert!(play.unsaved());
    assert_eq!(play.game.entry_count(), 1);
}

#[test]
fn setup_rows_change_mode_levels_names_and_options() {
    let mut app = new_app(80, 24);
    let info = ludus_games::game_info("replica").unwrap();
    menu::open_setup(&mut app, info);
    let modes: Vec<String> = (0..4)
        .map(|_| {
            press(&mut app, KeyCode::Right);
            app.setup().unwrap().mode_label()
        })
        .collect();
    assert_eq!(
        modes,
        [
            "Computer / Human",
            "Computer / Computer",
            "Human / Human",
            "Human / Computer"
        ]
    );
    // A name typed on the name row.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "Ann");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.setup().unwrap().display_name(0), "Ann");
    // The sight option cycles through its choices.
    while !matches!(app.setup().unwrap().current(), Row::Option(_)) {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Right);
    assert_eq!(app.setup().unwrap().option_pairs(), ["sight=all8"]);
    press(&mut app, KeyCode::Char('?'));
    assert_eq!(app.screen, ScreenKind::Help);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, ScreenKind::Setup);
    // Start (with level 1 for the computer) and check names and options reached the game.
    app.screen.setup_mut().unwrap().seats[1].spec = "ai:1".into();
    press(&mut app, KeyCode::Char('s'));
    let game = &app.play().unwrap().game;
    assert_eq!(game.players()[0].name, "Ann");
    assert!(game.options().contains(&("sight".into(), "all8".into())));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.confirm, Some(Confirm::Menu));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.screen, ScreenKind::Playing);
}

#[test]
fn qawale_sowing_step_by_step_makes_one_turn() {
    let mut app = new_app(80, 24);
    start(&mut app, "qawale", &["human", "human"], &[]);
    for name in ["a1", "a2", "a3", "b3"] {
        let id = cell(&app, name);
        click(&mut app, id);
    }
    assert_eq!(history(&app), ["a1:NNE"]);
    let view = app.play().unwrap().game.view();
    let b3 = &view.cells[cell(&app, "b3").to_usize()];
    assert_eq!(b3.stack.len(), 1);
    // Light's stack on d1, one step north, then straight back: refused with a reason.
    for name in ["d1", "d2", "d1"] {
        let id = cell(&app, name);
        click(&mut app, id);
    }
    let play = app.play().unwrap();
    assert!(play.notes.last().unwrap().error);
    assert_eq!(play.game.entry_count(), 6);
    let turns = history(&app);
    assert_eq!(turns.len(), 2);
    assert!(turns[1].starts_with("d1"), "{turns:?}");
}
