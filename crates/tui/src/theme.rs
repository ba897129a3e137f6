//! Colour themes: one [`Theme`] table per theme, chosen on the start screen.
//!
//! A colour theme paints its own background everywhere, so it looks the same on a dark or a
//! light terminal; its text colours stand at least 4.5:1 on that background, and pieces are
//! chips in their seat's colour with black or white letters (see `contrast`).
//!
//! `Classic` is the default (256-colour palette, so it works on most terminals); `Dracula` and
//! `Gruvbox` follow the original Replica program's alternative themes (true colour, drawn from
//! the 256-colour palette where `COLORTERM` does not announce it: see `palette`); `Mono`
//! uses no colour at all and tells pieces apart by brackets and emphasis, for terminals without
//! colour or `NO_COLOR` users.

use ludus_engine::Hue;
use ratatui::style::{Color, Modifier, Style};

/// Every colour the app uses, in one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// The name shown in the menu.
    pub name: &'static str,
    /// The background of every screen (the terminal's own colour is never shown).
    pub background: Color,
    /// Ordinary text.
    pub text: Color,
    /// Less important text: hints, coordinates, placeholders.
    pub muted: Color,
    /// Titles and the selected menu row.
    pub accent: Color,
    /// Error messages.
    pub error: Color,
    /// Box borders.
    pub border: Color,
    /// A light board square.
    pub square: Color,
    /// A shaded board square.
    pub square_shaded: Color,
    /// Lines between points and empty points (Qilin), drawn on `square`.
    pub link: Color,
    /// Background of the cells of the last move.
    pub last_move: Color,
    /// Background of the cursor cell.
    pub cursor: Color,
    /// Background of selected cells.
    pub selected: Color,
    /// Background of the legal targets of the selection.
    pub target: Color,
    /// Background of the hinted move's cells.
    pub hint: Color,
    /// Piece colours: Dark, Light, Red, Blue, Green, Yellow, Neutral.
    pub hues: [Color; 7],
    /// No colour at all: emphasis by modifiers and brackets only.
    pub mono: bool,
}

impl Theme {
    /// The colour of a piece hue.
    pub fn hue(&self, hue: Hue) -> Color {
        let index = match hue {
            Hue::Dark => 0,
            Hue::Light => 1,
            Hue::Red => 2,
            Hue::Blue => 3,
            Hue::Green => 4,
            Hue::Yellow => 5,
            Hue::Neutral => 6,
        };
        self.hues[index]
    }

    /// Plain text.
    pub fn text(&self) -> Style {
        Style::new().fg(self.text)
    }

    /// Muted text.
    pub fn muted(&self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::DIM)
        } else {
            Style::new().fg(self.muted)
        }
    }

    /// Titles and highlighted rows.
    pub fn accent(&self) -> Style {
        Style::new().fg(self.accent).add_modifier(Modifier::BOLD)
    }

    /// Error lines.
    pub fn error(&self) -> Style {
        Style::new().fg(self.error).add_modifier(Modifier::BOLD)
    }

    /// Borders.
    pub fn border(&self) -> Style {
        Style::new().fg(self.border)
    }

    /// The selected row of a list.
    pub fn selected_row(&self) -> Style {
        if self.mono {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new()
                .fg(self.accent)
                .bg(self.selected)
                .add_modifier(Modifier::BOLD)
        }
    }
}

/// The default theme: a warm wooden board in the 256-colour palette.
pub const CLASSIC: Theme = Theme {
    name: "Classic",
    background: Color::Indexed(235),
    text: Color::Indexed(252),
    muted: Color::Indexed(248),
    accent: Color::Indexed(214),
    error: Color::Indexed(210),
    border: Color::Indexed(246),
    square: Color::Indexed(137),
    square_shaded: Color::Indexed(94),
    link: Color::Indexed(235),
    last_move: Color::Indexed(64),
    cursor: Color::Indexed(75),
    selected: Color::Indexed(33),
    target: Color::Indexed(30),
    hint: Color::Indexed(163),
    hues: [
        Color::Indexed(232),
        Color::Indexed(231),
        Color::Indexed(196),
        Color::Indexed(39),
        Color::Indexed(46),
        Color::Indexed(226),
        Color::Indexed(208),
    ],
    mono: false,
};

/// Dracula colours, as in the original Replica's theme.
pub const DRACULA: Theme = Theme {
    name: "Dracula",
    background: Color::Rgb(40, 42, 54),
    text: Color::Rgb(248, 248, 242),
    muted: Color::Rgb(160, 170, 210),
    accent: Color::Rgb(189, 147, 249),
    error: Color::Rgb(255, 85, 85),
    border: Color::Rgb(150, 160, 200),
    // Both squares lighter than the background, so the board's edge and cells show.
    square: Color::Rgb(88, 92, 118),
    square_shaded: Color::Rgb(62, 66, 86),
    link: Color::Rgb(150, 160, 200),
    last_move: Color::Rgb(80, 90, 60),
    cursor: Color::Rgb(98, 114, 164),
    selected: Color::Rgb(120, 80, 150),
    target: Color::Rgb(40, 110, 80),
    hint: Color::Rgb(160, 60, 120),
    hues: [
        Color::Rgb(25, 26, 34),
        Color::Rgb(248, 248, 242),
        Color::Rgb(255, 85, 85),
        Color::Rgb(139, 233, 253),
        Color::Rgb(80, 250, 123),
        Color::Rgb(241, 250, 140),
        Color::Rgb(255, 184, 108),
    ],
    mono: false,
};

/// Gruvbox colours, as in the original Replica's theme.
pub const GRUVBOX: Theme = Theme {
    name: "Gruvbox",
    background: Color::Rgb(40, 40, 40),
    text: Color::Rgb(235, 219, 178),
    muted: Color::Rgb(189, 174, 147),
    accent: Color::Rgb(250, 189, 47),
    error: Color::Rgb(255, 120, 100),
    border: Color::Rgb(168, 153, 132),
    square: Color::Rgb(189, 174, 147),
    square_shaded: Color::Rgb(124, 111, 100),
    link: Color::Rgb(80, 73, 69),
    last_move: Color::Rgb(121, 116, 14),
    cursor: Color::Rgb(69, 133, 136),
    selected: Color::Rgb(7, 102, 120),
    target: Color::Rgb(152, 151, 26),
    hint: Color::Rgb(177, 98, 134),
    hues: [
        Color::Rgb(29, 32, 33),
        Color::Rgb(251, 241, 199),
        Color::Rgb(157, 0, 6),
        Color::Rgb(7, 102, 120),
        Color::Rgb(66, 123, 88),
        Color::Rgb(181, 118, 20),
        Color::Rgb(175, 58, 3),
    ],
    mono: false,
};

/// No colour: pieces are told apart by brackets, highlights by modifiers.
pub const MONO: Theme = Theme {
    name: "Monochrome",
    background: Color::Reset,
    text: Color::Reset,
    muted: Color::Reset,
    accent: Color::Reset,
    error: Color::Reset,
    border: Color::Reset,
    square: Color::Reset,
    square_shaded: Color::Reset,
    link: Color::Reset,
    last_move: Color::Reset,
    cursor: Color::Reset,
    selected: Color::Reset,
    target: Color::Reset,
    hint: Color::Reset,
    hues: [Color::Reset; 7],
    mono: true,
};

/// Every theme, in menu order; the first is the default.
pub const THEMES: [Theme; 4] = [CLASSIC, DRACULA, GRUVBOX, MONO];

/// The index of the monochrome theme.
pub const MONO_INDEX: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contrast::{contrast, MIN_CONTRAST};

    /// The theme's own text colours, before any guard: each reads on the background.
    #[test]
    fn every_text_colour_reads_on_its_background() {
        for theme in THEMES.iter().filter(|t| !t.mono) {
            for (what, fg) in [
                ("text", theme.text),
                ("muted", theme.muted),
                ("accent", theme.accent),
                ("error", theme.error),
                ("border", theme.border),
            ] {
                let ratio = contrast(fg, theme.background).expect("explicit colours");
                assert!(ratio >= MIN_CONTRAST, "{} {what}: {ratio:.2}", theme.name);
            }
        }
    }
}
