//! Legibility by construction: the contrast ratio of two terminal colours (WCAG 2), the ink
//! (black or white) that reads best on a colour, and the guard `view` runs over every frame,
//! so that every glyph the app draws stands at least [`MIN_CONTRAST`] against what lies under
//! it, in every colour theme, whatever the terminal's own colours.

use ludus_engine::contrast::contrast_ratio;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use super::theme::Theme;

/// The least contrast a glyph may have against its background (WCAG AA for text).
pub const MIN_CONTRAST: f64 = 4.5;

const BLACK: Color = Color::Rgb(0, 0, 0);
const WHITE: Color = Color::Rgb(255, 255, 255);

/// The red, green and blue of a colour as xterm shows it; `None` for `Reset` (the terminal's
/// own colour, unknown to the app).
pub fn rgb(color: Color) -> Option<(u8, u8, u8)> {
    const BASIC: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    let index = match color {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => return Some((r, g, b)),
        Color::Indexed(i) => i,
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
    };
    Some(match index {
        0..=15 => BASIC[usize::from(index)],
        16..=231 => {
            let level = |n: u8| if n == 0 { 0 } else { 55 + 40 * n };
            let n = index - 16;
            (level(n / 36), level(n / 6 % 6), level(n % 6))
        }
        _ => {
            let grey = 8 + 10 * (index - 232);
            (grey, grey, grey)
        }
    })
}

/// The contrast ratio of two colours, from 1 (the same) to 21 (black on white); `None` when
/// either is the terminal's own colour.
pub fn contrast(a: Color, b: Color) -> Option<f64> {
    let ((ar, ag, ab), (br, bg, bb)) = (rgb(a)?, rgb(b)?);
    Some(contrast_ratio([ar, ag, ab], [br, bg, bb]))
}

/// Black or white, whichever reads better on `background` (always at least 4.58:1).
pub fn ink_on(background: Color) -> Color {
    let on_black = contrast(background, BLACK).unwrap_or(21.0);
    let on_white = contrast(background, WHITE).unwrap_or(21.0);
    if on_black >= on_white {
        BLACK
    } else {
        WHITE
    }
}

/// Makes every cell of `buf` legible in a colour theme: the terminal's own colours are
/// replaced by the theme's (so a dark or light terminal changes nothing), and a glyph that
/// would stand under [`MIN_CONTRAST`] against its background is drawn in [`ink_on`] it.
/// Monochrome uses the terminal's own colours and is left alone.
pub fn guard(buf: &mut Buffer, theme: &Theme) {
    if theme.mono {
        return;
    }
    for cell in &mut buf.content {
        if cell.bg == Color::Reset {
            cell.bg = theme.background;
        }
        if cell.fg == Color::Reset {
            cell.fg = theme.text;
        }
        let blank = cell.symbol().chars().all(char::is_whitespace);
        let weak = contrast(cell.fg, cell.bg).is_none_or(|ratio| ratio < MIN_CONTRAST);
        if !blank && weak {
            cell.fg = ink_on(cell.bg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ratios() {
        let ratio = contrast(BLACK, WHITE).unwrap();
        assert!((ratio - 21.0).abs() < 1e-9);
        // The measurement: pure red on the Classic tan square (256-colour 137).
        let red_on_tan = contrast(Color::Rgb(255, 0, 0), Color::Indexed(137)).unwrap();
        assert!((red_on_tan - 1.23).abs() < 0.02, "{red_on_tan}");
        assert_eq!(rgb(Color::Indexed(196)), Some((255, 0, 0)));
        assert_eq!(rgb(Color::Indexed(244)), Some((128, 128, 128)));
    }

    #[test]
    fn ink_reads_on_every_colour() {
        for index in 0..=255u8 {
            let bg = Color::Indexed(index);
            assert!(contrast(ink_on(bg), bg).unwrap() >= MIN_CONTRAST, "{index}");
        }
    }
}
