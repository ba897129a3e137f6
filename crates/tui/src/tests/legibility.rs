//! Legibility as the renderer produces it: every glyph of every screen, in every colour
//! theme, stands at least 4.5:1 against what lies under it, with no colour left to the
//! terminal (so dark and light terminals look the same); seats differ without colour.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::Color;
use ratatui::Terminal;

use super::{option_pairs, play_some, press, start};
use crate::app::App;
use crate::contrast::{contrast, MIN_CONTRAST};
use crate::theme::{MONO_INDEX, THEMES};
use crate::view::view;

/// Every game at its defaults, and its test variants that change the number of seats (each
/// seat has its colour).
fn setups() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    ludus_games::test_setups()
        .filter(|(info, options)| {
            let seats = |list: &[&str]| {
                let list: Vec<String> = list.iter().map(ToString::to_string).collect();
                ludus_games::new_game(info.id, &list, None, 0)
                    .expect("valid test options")
                    .seat_count()
            };
            options.is_empty() || seats(options) != seats(&[])
        })
        .map(|(info, options)| (info.id, option_pairs(options)))
        .collect()
}

fn draw(app: &App) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    terminal.draw(|frame| view(app, frame)).unwrap();
    terminal.backend().buffer().clone()
}

/// Every cell: theme colours only, and a glyph reads on its background.
fn assert_legible(buffer: &Buffer, label: &str) {
    for (i, cell) in buffer.content.iter().enumerate() {
        let (x, y) = (i as u16 % buffer.area.width, i as u16 / buffer.area.width);
        assert!(
            cell.fg != Color::Reset && cell.bg != Color::Reset,
            "{label}: terminal colour at {x},{y}"
        );
        if cell.symbol().trim().is_empty() {
            continue;
        }
        let ratio = contrast(cell.fg, cell.bg).unwrap();
        assert!(
            ratio >= MIN_CONTRAST,
            "{label}: '{}' at {x},{y} is {ratio:.2}:1 ({:?} on {:?})",
            cell.symbol(),
            cell.fg,
            cell.bg
        );
    }
}

#[test]
fn every_glyph_of_every_game_reads_in_every_colour_theme() {
    for (index, theme) in THEMES.iter().enumerate().filter(|(_, t)| !t.mono) {
        for size in [(80, 24), (140, 45)] {
            for (id, options) in setups() {
                let mut app = App::new(size, index, 7);
                start(&mut app, id, &["human"; 4], &options);
                let label = format!("{} {id} {options:?} {size:?}", theme.name);
                assert_legible(&draw(&app), &format!("{label} start"));
                play_some(&mut app, 9);
                // A selection, its targets and the cursor on the board.
                press(&mut app, KeyCode::Enter);
                assert_legible(&draw(&app), &format!("{label} middle"));
                press(&mut app, KeyCode::Char('?'));
                assert_legible(&draw(&app), &format!("{label} help"));
            }
            let mut app = App::new(size, index, 7);
            assert_legible(&draw(&app), &format!("{} menu", theme.name));
            press(&mut app, KeyCode::Enter);
            assert_legible(&draw(&app), &format!("{} setup", theme.name));
        }
    }
}

#[test]
fn without_true_colour_every_colour_comes_from_the_palette_and_reads() {
    for (index, theme) in THEMES.iter().enumerate().filter(|(_, t)| !t.mono) {
        let mut app = App::new((80, 24), index, 7);
        app.true_colour = false;
        start(&mut app, "qilin", &["human", "human"], &[]);
        play_some(&mut app, 9);
        press(&mut app, KeyCode::Enter);
        let buffer = draw(&app);
        let rgb = |c: Color| matches!(c, Color::Rgb(..));
        assert!(
            !buffer.content.iter().any(|c| rgb(c.fg) || rgb(c.bg)),
            "{}: 24-bit colour sent",
            theme.name
        );
        assert_legible(&buffer, &format!("{} in 256 colours", theme.name));
    }
}

#[test]
fn seats_differ_without_colour() {
    for (id, options) in setups() {
        let mut app = App::new((100, 30), MONO_INDEX, 7);
        start(&mut app, id, &["human"; 4], &options);
        play_some(&mut app, 6);
        let view = app.play().unwrap().game.view();
        let theme = &THEMES[MONO_INDEX];
        let mut seen: Vec<(Option<ludus_engine::Seat>, String)> = Vec::new();
        for cell in &view.cells {
            for piece in &cell.stack {
                let text = crate::view::piece_text_for_tests(piece, theme);
                seen.push((piece.owner, text));
            }
        }
        for (owner, text) in &seen {
            for (other, other_text) in &seen {
                if owner != other && owner.is_some() && other.is_some() {
                    assert_ne!(text, other_text, "{id}: two seats drawn alike");
                }
            }
        }
    }
}
