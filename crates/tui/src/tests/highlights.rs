//! Highlights on the board as drawn: the last move, the targets, the selection and the hint
//! each carry glyphs beside their colour, which no piece covers and which read in every
//! theme; the cursor's brackets are unlike any seat's.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

use super::{press, render, start};
use crate::app::App;
use crate::contrast::{contrast, MIN_CONTRAST};
use crate::theme::{MONO_INDEX, THEMES};
use crate::view::view;

fn draw(app: &App) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    terminal.draw(|frame| view(app, frame)).unwrap();
    terminal.backend().buffer().clone()
}

/// The cells of the buffer showing `glyph`, with their colours.
fn cells_with(buffer: &Buffer, glyph: &str) -> Vec<(u16, u16)> {
    let width = buffer.area.width;
    buffer
        .content
        .iter()
        .enumerate()
        .filter(|(_, cell)| cell.symbol() == glyph)
        .map(|(i, _)| (i as u16 % width, i as u16 / width))
        .collect()
}

/// A game of `id` where the human (first seat) played the first legal move and the computer
/// answered.
fn after_the_computer(id: &str, theme: usize, size: (u16, u16)) -> App {
    let mut app = App::new(size, theme, 7);
    start(&mut app, id, &["human", "ai:1"], &[]);
    let play = app.play_mut().unwrap();
    while play.game.to_move() == Some(ludus_engine::Seat::FIRST) {
        let first = play.game.legal_moves()[0].notation.clone();
        play.game.play(&first).unwrap();
    }
    let cmd = crate::play::after_change(&mut app, true);
    super::run_cmd(&mut app, cmd);
    app
}

#[test]
fn the_computer_s_last_move_on_a_board_of_points_is_marked() {
    for size in [(80, 24), (120, 40)] {
        let app = after_the_computer("qilin", 0, size);
        let last = app.play().unwrap().game.view().last_move;
        assert!(!last.is_empty(), "the computer moved");
        let buffer = draw(&app);
        let marks = cells_with(&buffer, "*");
        assert!(
            marks.len() >= 2 * last.len(),
            "{size:?}: {} marks for {} cells:\n{}",
            marks.len(),
            last.len(),
            render(&app)
        );
    }
}

#[test]
fn highlight_glyphs_read_in_every_theme() {
    for (index, theme) in THEMES.iter().enumerate() {
        for id in ludus_games::GAMES.iter().map(|info| info.id) {
            let mut app = after_the_computer(id, index, (100, 30));
            // A selection and its targets, and a hint.
            press(&mut app, KeyCode::Enter);
            let buffer = draw(&app);
            let mut glyphs = 0;
            for glyph in ["*", "+", "»", "«"] {
                for (x, y) in cells_with(&buffer, glyph) {
                    glyphs += 1;
                    let cell = &buffer[(x, y)];
                    if theme.mono {
                        continue;
                    }
                    let ratio = contrast(cell.fg, cell.bg).unwrap();
                    assert!(
                        ratio >= MIN_CONTRAST,
                        "{} {id}: '{glyph}' at {x},{y}: {ratio:.2}:1",
                        theme.name
                    );
                }
            }
            assert!(glyphs >= 2, "{} {id}: no highlight glyphs", theme.name);
        }
    }
}

#[test]
fn the_cursor_is_unlike_any_seat_in_monochrome() {
    let mut app = App::new((100, 30), MONO_INDEX, 7);
    start(&mut app, "replica", &["human", "human"], &[]);
    let before = render(&app);
    press(&mut app, KeyCode::Right);
    let text = render(&app);
    assert!(text.contains('▶') && text.contains('◀'), "{text}");
    // Only the seats' brackets remain as brackets: the cursor adds none.
    let count = |t: &str, c: char| t.chars().filter(|&x| x == c).count();
    assert_eq!(count(&text, '['), count(&before, '['), "{text}");
}

#[test]
fn the_history_says_resigns_in_words() {
    let mut app = App::new((100, 30), 0, 7);
    start(&mut app, "splut", &["human"; 3], &[("players", "3")]);
    app.play_mut()
        .unwrap()
        .game
        .resign(ludus_engine::Seat::new(1));
    let cmd = crate::play::after_change(&mut app, true);
    super::run_cmd(&mut app, cmd);
    let text = render(&app);
    assert!(text.contains("resigns"), "{text}");
    assert!(!text.contains("resign 2"), "{text}");
}

#[test]
fn the_theme_key_is_on_the_help_page_and_the_80_column_key_bar() {
    let mut app = App::new((80, 24), 0, 7);
    start(&mut app, "replica", &["human", "human"], &[]);
    let text = render(&app);
    let bar = text.lines().last().unwrap_or_default();
    assert!(bar.contains("t theme"), "{text}");
    press(&mut app, KeyCode::Char('?'));
    let mut pages = String::new();
    for _ in 0..8 {
        pages.push_str(&render(&app));
        press(&mut app, KeyCode::PageDown);
    }
    assert!(pages.contains("next colour theme"), "{pages}");
}
