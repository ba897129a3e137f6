//! The 256-colour fallback: a terminal that does not announce true colour (`COLORTERM` of
//! `truecolor` or `24bit`, as terminals that have it set) gets every RGB colour of a frame as
//! its nearest colour of the xterm palette's cube and grey ramp, which such terminals show,
//! instead of 24-bit codes they might misread.

use ratatui::buffer::Buffer;
use ratatui::style::Color;

use super::contrast::rgb;
use super::theme::Theme;

/// Whether a terminal with this `COLORTERM` value shows 24-bit colour.
pub fn true_colour(colorterm: Option<&str>) -> bool {
    colorterm.is_some_and(|value| {
        let value = value.trim().to_ascii_lowercase();
        value == "truecolor" || value == "24bit"
    })
}

/// `theme` with each of its colours taken from the palette, so that legibility is checked
/// on the colours the terminal will show.
pub fn in_palette(theme: &Theme) -> Theme {
    Theme {
        background: indexed(theme.background),
        text: indexed(theme.text),
        muted: indexed(theme.muted),
        accent: indexed(theme.accent),
        error: indexed(theme.error),
        border: indexed(theme.border),
        square: indexed(theme.square),
        square_shaded: indexed(theme.square_shaded),
        link: indexed(theme.link),
        last_move: indexed(theme.last_move),
        cursor: indexed(theme.cursor),
        selected: indexed(theme.selected),
        target: indexed(theme.target),
        hint: indexed(theme.hint),
        hues: theme.hues.map(indexed),
        ..*theme
    }
}

/// Replaces every RGB colour of `buf` by its nearest palette colour.
pub fn downgrade(buf: &mut Buffer) {
    for cell in &mut buf.content {
        cell.fg = indexed(cell.fg);
        cell.bg = indexed(cell.bg);
    }
}

/// `color` as a palette colour: an RGB colour becomes the nearest of 16..=255 (the first 16
/// are left out because each terminal paints them its own way); others stay as they are.
fn indexed(color: Color) -> Color {
    let Color::Rgb(r, g, b) = color else {
        return color;
    };
    let distance = |index: u8| {
        let (pr, pg, pb) = rgb(Color::Indexed(index)).unwrap_or_default();
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(r, pr) + d(g, pg) + d(b, pb)
    };
    (16..=255u8)
        .min_by_key(|&i| distance(i))
        .map_or(color, Color::Indexed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colorterm_values_and_nearest_colours() {
        assert!(true_colour(Some("truecolor")));
        assert!(true_colour(Some("24bit")));
        assert!(!true_colour(Some("")));
        assert!(!true_colour(None));
        assert_eq!(indexed(Color::Rgb(0, 0, 0)), Color::Indexed(16));
        assert_eq!(indexed(Color::Rgb(255, 255, 255)), Color::Indexed(231));
        assert_eq!(indexed(Color::Rgb(255, 0, 0)), Color::Indexed(196));
        assert_eq!(indexed(Color::Indexed(137)), Color::Indexed(137));
    }
}
