//! The view: draws the whole app from a shared borrow of the model, with no I/O and no search.

mod board;
mod game;
mod menu;
mod popup;
mod text;

pub use menu::{menu_body, setup_visible_rows};
pub use popup::{game_over_lines, GAME_OVER_KEYS, GAME_OVER_KEY_WIDTH};

use ratatui::Frame;

use super::app::{App, Prompt, PromptKind, ScreenKind};
use super::contrast::guard;
use super::layout::MIN_SIZE;
use super::palette::{downgrade, in_palette};
use super::theme::{Theme, THEMES};

/// A piece's text as the board draws it (for tests of seat marks).
#[cfg(test)]
pub fn piece_text_for_tests(
    piece: &ludus_engine::PieceView,
    theme: &super::theme::Theme,
) -> String {
    board::piece_text(piece, theme)
}

/// Draws the app into a frame.
pub fn view(app: &App, frame: &mut Frame) {
    let theme = &THEMES[app.theme % THEMES.len()];
    let in_palette = in_palette(theme);
    let theme = if app.true_colour { theme } else { &in_palette };
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        popup::draw_too_small(frame, theme);
        finish(app, frame, theme);
        return;
    }
    match app.screen.kind() {
        ScreenKind::Menu => menu::draw_menu(app, frame, theme),
        ScreenKind::Setup => menu::draw_setup(app, frame, theme),
        ScreenKind::Help => menu::draw_help(app, frame, theme),
        ScreenKind::Playing => {
            game::draw_game(app, frame, theme);
            if let Some(chooser) = app.screen.play().and_then(|p| p.chooser.as_ref()) {
                popup::draw_chooser(frame, chooser, theme);
            }
        }
        ScreenKind::GameOver => {
            game::draw_game(app, frame, theme);
            if let Some(play) = app.screen.play() {
                popup::draw_game_over(frame, play, theme);
            }
        }
        ScreenKind::Replay => game::draw_replay(app, frame, theme),
    }
    if let Some(confirm) = app.confirm {
        popup::draw_confirm(frame, app, confirm, theme);
    }
    // A name is typed in its field on the setup screen, not at the bottom.
    let in_field =
        |p: &&Prompt| matches!(p.kind, PromptKind::Name(_)) && app.screen == ScreenKind::Setup;
    if let Some(prompt) = app.prompt.as_ref().filter(|p| !in_field(p)) {
        popup::draw_prompt(frame, prompt, theme);
    }
    finish(app, frame, theme);
}

/// The last pass over a frame: legible colours, from the palette without true colour.
fn finish(app: &App, frame: &mut Frame, theme: &Theme) {
    guard(frame.buffer_mut(), theme);
    if !app.true_colour {
        // The theme was already in palette colours; the ink `guard` may choose (black or
        // white, which the palette has exactly) is too.
        downgrade(frame.buffer_mut());
    }
}
