//! The board, drawn from any game's `BoardView` with no game knowledge: square grids with
//! coordinates (Replica, Qawale, Yoxii, Splut!'s diamond, whose missing squares are simply not
//! drawn), points joined by lines (Qilin), the top piece of each stack with its height, marked
//! pieces (kings, pressed pieces, locked rocks) as filled chips, and highlights for the cursor,
//! the selection, the legal targets, the last move and a hint.

use ludus_engine::{BoardView, CellId, CellShape, CellView, PieceView};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

use super::text::{put, wrap};
use crate::board_text::axis_labels;
use crate::contrast::ink_on;
use crate::layout::BoardGeometry;
use crate::theme::Theme;

/// What to highlight on the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks<'a> {
    /// The cursor cell.
    pub cursor: Option<CellId>,
    /// Cells selected for the next decision.
    pub selected: &'a [CellId],
    /// Cells that continue the selection.
    pub targets: &'a [CellId],
    /// The hinted move's cells.
    pub hint: &'a [CellId],
}

/// The highlight of one cell, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Highlight {
    Selected,
    Hint,
    Target,
    Last,
    None,
}

/// Draws `view` in `area`; says so in words when it does not fit.
pub fn draw_board(buf: &mut Buffer, area: Rect, view: &BoardView, theme: &Theme, marks: &Marks) {
    let Some(geometry) = BoardGeometry::fit(view, area) else {
        let (w, h) = BoardGeometry::needed(view);
        let text = format!("The board needs {w}×{h} characters: enlarge the terminal.");
        // Wrapped inside the board's area: the panel beside it is drawn over anything wider.
        let lines = wrap(&text, usize::from(area.width.saturating_sub(1)).max(1));
        let top = area.y + (area.height / 2).saturating_sub(lines.len() as u16 / 2);
        for (row, line) in (top..area.bottom()).zip(&lines) {
            put(buf, area.x, row, line, theme.error());
        }
        return;
    };
    draw_coordinates(buf, &geometry, view, theme);
    if !theme.mono && view.cells.iter().any(|c| c.shape == CellShape::Point) {
        // A board of points and lines gets a wooden ground, so every piece colour shows.
        let ground = Style::new().bg(theme.square);
        let width = u16::from(geometry.width) * geometry.cw;
        for row in 0..u16::from(geometry.height) * geometry.ch {
            put(
                buf,
                geometry.left,
                geometry.top + row,
                &" ".repeat(width as usize),
                ground,
            );
        }
    }
    for &(a, b) in &view.links {
        if let (Some(a), Some(b)) = (view.cells.get(a.to_usize()), view.cells.get(b.to_usize())) {
            draw_link(buf, &geometry, a, b, theme);
        }
    }
    // Boards whose rules shade no square get a checker pattern, so every cell shows.
    let checker = !view.cells.iter().any(|c| c.shaded);
    for (i, cell) in view.cells.iter().enumerate() {
        let id = CellId(i as u16);
        let highlight = highlight_of(id, view, marks);
        let cursor = marks.cursor == Some(id);
        let shaded = cell.shaded || (checker && (cell.x + cell.y) % 2 == 1);
        match cell.shape {
            CellShape::Square => {
                draw_square(buf, &geometry, cell, shaded, highlight, cursor, theme);
            }
            CellShape::Point => draw_point(buf, &geometry, cell, highlight, cursor, theme),
        }
    }
}

fn highlight_of(id: CellId, view: &BoardView, marks: &Marks) -> Highlight {
    if marks.selected.contains(&id) {
        Highlight::Selected
    } else if marks.hint.contains(&id) {
        Highlight::Hint
    } else if marks.targets.contains(&id) {
        Highlight::Target
    } else if view.last_move.contains(&id) {
        Highlight::Last
    } else {
        Highlight::None
    }
}

/// The background of a cell, and in monochrome the modifier that replaces it.
fn background(
    cell: &CellView,
    shaded: bool,
    highlight: Highlight,
    cursor: bool,
    theme: &Theme,
) -> Style {
    if theme.mono {
        let modifier = match highlight {
            Highlight::Selected => Modifier::REVERSED,
            Highlight::Hint => Modifier::BOLD | Modifier::UNDERLINED,
            Highlight::Last => Modifier::UNDERLINED,
            Highlight::Target | Highlight::None => Modifier::empty(),
        };
        return Style::new().add_modifier(modifier);
    }
    let bg = match (cursor, highlight) {
        (true, _) => theme.cursor,
        (_, Highlight::Selected) => theme.selected,
        (_, Highlight::Hint) => theme.hint,
        (_, Highlight::Target) => theme.target,
        (_, Highlight::Last) => theme.last_move,
        (_, Highlight::None) if cell.shape == CellShape::Point => theme.square,
        (_, Highlight::None) if shaded => theme.square_shaded,
        (_, Highlight::None) => theme.square,
    };
    Style::new().bg(bg)
}

fn draw_square(
    buf: &mut Buffer,
    g: &BoardGeometry,
    cell: &CellView,
    shaded: bool,
    highlight: Highlight,
    cursor: bool,
    theme: &Theme,
) {
    let rect = g.cell_rect(cell.x, cell.y);
    let bg = background(cell, shaded, highlight, cursor, theme);
    for y in rect.top()..rect.bottom() {
        put(buf, rect.x, y, &" ".repeat(rect.width as usize), bg);
    }
    let middle = rect.y + rect.height / 2;
    match cell.stack.last() {
        Some(top) => {
            // The piece fills its cell but for a one-column rim, where highlights show.
            let room = rect.width.saturating_sub(2).max(1);
            let (text, style) = piece_chip(top, theme, room);
            let width = text.chars().count() as u16;
            let x = rect.x + rect.width.saturating_sub(width) / 2;
            if !theme.mono && rect.height >= 3 {
                let pad = " ".repeat(width as usize);
                put(buf, x, middle - 1, &pad, bg.patch(style));
            }
            put(buf, x, middle, &text, bg.patch(style));
            draw_height(buf, rect, cell.stack.len(), bg, theme);
        }
        None if highlight == Highlight::Target => {
            put(
                buf,
                rect.x + rect.width / 2,
                middle,
                "•",
                bg.patch(marker(theme)),
            );
        }
        None => put(
            buf,
            rect.x + rect.width / 2,
            middle,
            "·",
            bg.patch(theme.muted()),
        ),
    }
    if rect.width >= 3 {
        let how = (highlight, cursor, !cell.stack.is_empty());
        draw_rim(buf, (rect.x, rect.right() - 1), middle, how, bg, theme);
    }
}

/// The glyphs either side of a highlighted cell: a cue beside its colour, for eyes (and
/// themes) where the colours are close. The cursor's brackets take their place; an empty
/// target already shows its own dot.
fn rim_glyphs(
    (highlight, cursor, occupied): (Highlight, bool, bool),
) -> Option<(&'static str, &'static str)> {
    if cursor {
        return Some(CURSOR_GLYPHS);
    }
    match highlight {
        Highlight::Selected => Some(("»", "«")),
        Highlight::Hint => Some(("?", "?")),
        Highlight::Target if occupied => Some(("+", "+")),
        Highlight::Target => None,
        Highlight::Last => Some(("*", "*")),
        Highlight::None => None,
    }
}

/// The cursor's brackets: unlike any seat's brackets (`SEAT_BRACKETS`), so that a piece under
/// the cursor never reads as another seat's, with or without colour.
pub const CURSOR_GLYPHS: (&str, &str) = ("▶", "◀");

/// Draws the rim glyphs of a cell in columns `left` and `right` of row `y`.
fn draw_rim(
    buf: &mut Buffer,
    (left, right): (u16, u16),
    y: u16,
    how: (Highlight, bool, bool),
    bg: Style,
    theme: &Theme,
) {
    let cursor = how.1;
    let Some((open, close)) = rim_glyphs(how) else {
        return;
    };
    let style = if cursor {
        bg.patch(cursor_style(theme))
    } else {
        bg.patch(rim_style(bg, theme))
    };
    put(buf, left, y, open, style);
    put(buf, right, y, close, style);
}

/// The ink of the highlight glyphs: black or white, whichever reads on the highlight.
fn rim_style(bg: Style, theme: &Theme) -> Style {
    match bg.bg {
        Some(colour) if !theme.mono => Style::new().fg(ink_on(colour)).add_modifier(Modifier::BOLD),
        _ => Style::new().add_modifier(Modifier::BOLD),
    }
}

/// The stack height under the piece, inside the cell (not against the neighbour), for stacks
/// of two or more.
fn draw_height(buf: &mut Buffer, rect: Rect, height: usize, bg: Style, theme: &Theme) {
    if height < 2 || rect.width < 4 {
        return;
    }
    let text = format!("×{height}");
    let x = rect.x + rect.width.saturating_sub(text.chars().count() as u16) / 2;
    let y = if rect.height >= 2 {
        rect.bottom() - 1
    } else {
        rect.y
    };
    let style = bg.patch(Style::new().fg(theme.text).add_modifier(Modifier::BOLD));
    if rect.height >= 2 {
        put(buf, x, y, &text, style);
    } else {
        put(buf, rect.right() - 1, y, &height.to_string(), style);
    }
}

fn draw_point(
    buf: &mut Buffer,
    g: &BoardGeometry,
    cell: &CellView,
    highlight: Highlight,
    cursor: bool,
    theme: &Theme,
) {
    let (cx, cy) = g.centre(cell.x, cell.y);
    let bg = background(cell, false, highlight, cursor, theme);
    let wide = g.cw >= 3;
    // A piece takes the room its point has between the lines (odd, so it stays centred),
    // with a column each side for the cursor's brackets.
    let room = if wide {
        (g.cw.saturating_sub(4) | 1).clamp(3, 7)
    } else {
        1
    };
    let half = room / 2;
    let how = (highlight, cursor, !cell.stack.is_empty());
    if wide && rim_glyphs(how).is_some() {
        // The highlight reaches a column past the piece each side, where its glyphs go, so
        // a piece's chip never hides it.
        put(
            buf,
            cx - half - 1,
            cy,
            &" ".repeat(usize::from(room) + 2),
            bg,
        );
    } else if wide && highlight != Highlight::None {
        put(buf, cx - half, cy, &" ".repeat(usize::from(room)), bg);
    }
    match cell.stack.last() {
        Some(top) => {
            let (text, style) = piece_chip(top, theme, room);
            let x = cx - (text.chars().count() as u16 - 1) / 2;
            put(buf, x, cy, &text, bg.patch(style));
        }
        None if highlight == Highlight::Target => put(buf, cx, cy, "•", bg.patch(marker(theme))),
        None => put(
            buf,
            cx,
            cy,
            "∙",
            bg.patch(Style::new().fg(theme.link).add_modifier(Modifier::BOLD)),
        ),
    }
    if wide {
        // Outside the piece, so its seat's brackets stay readable under the cursor.
        draw_rim(buf, (cx - half - 1, cx + half + 1), cy, how, bg, theme);
    }
}

fn cursor_style(theme: &Theme) -> Style {
    if theme.mono {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new()
            .fg(ink_on(theme.cursor))
            .add_modifier(Modifier::BOLD)
    }
}

fn marker(theme: &Theme) -> Style {
    if theme.mono {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(theme.accent).add_modifier(Modifier::BOLD)
    }
}

/// The text of a piece: its label (a Yoxii value) or its kind letter, inside its owner's
/// brackets (`(D)`, `[L]`, `{S}`, `<T>`), so seats are told apart without colour.
pub fn piece_text(piece: &PieceView, _theme: &Theme) -> String {
    let base = piece
        .label
        .as_deref()
        .map_or_else(|| piece.kind.to_string(), str::to_string);
    match piece.owner {
        Some(seat) => {
            let (open, close) = SEAT_BRACKETS[seat.to_usize() % 4].split_at(1);
            format!("{open}{base}{close}")
        }
        None => base,
    }
}

/// The brackets of each seat's pieces and swatch, in seat order.
pub const SEAT_BRACKETS: [&str; 4] = ["()", "[]", "{}", "<>"];

/// The style of a piece's text: a chip of its seat's colour with black or white letters.
pub fn piece_style(piece: &PieceView, theme: &Theme) -> Style {
    let mut style = Style::new().add_modifier(Modifier::BOLD);
    if !theme.mono {
        let hue = theme.hue(piece.hue);
        style = style.bg(hue).fg(ink_on(hue));
    }
    if piece.marked {
        // Kings, pressed pieces, locked rocks: underlined in colour, reversed without.
        style = style.add_modifier(if theme.mono {
            Modifier::REVERSED
        } else {
            Modifier::UNDERLINED
        });
    }
    style
}

/// A piece as drawn in a cell `room` columns wide: its text centred in a chip as wide as the
/// room (monochrome: the text alone, padded when marked).
fn piece_chip(piece: &PieceView, theme: &Theme, room: u16) -> (String, Style) {
    let mut text = piece_text(piece, theme);
    if !theme.mono && text.chars().count() as u16 > room {
        // No room for the brackets: the chip's colour tells the seat.
        text = piece
            .label
            .as_deref()
            .map_or_else(|| piece.kind.to_string(), str::to_string);
    }
    let len = text.chars().count() as u16;
    let width = if theme.mono {
        if piece.marked && len + 2 <= room {
            len + 2
        } else {
            len
        }
    } else {
        room.max(len)
    };
    let left = (width - len) / 2;
    let text = format!(
        "{}{text}{}",
        " ".repeat(left as usize),
        " ".repeat((width - len - left) as usize)
    );
    (text, piece_style(piece, theme))
}

fn draw_coordinates(buf: &mut Buffer, g: &BoardGeometry, view: &BoardView, theme: &Theme) {
    let style = theme.muted();
    for (x, label) in axis_labels(view, true).iter().enumerate() {
        let rect = g.cell_rect(x as u8, 0);
        let at = rect.x + (rect.width.saturating_sub(label.len() as u16)) / 2;
        put(buf, at, g.files_row(), label, style);
    }
    for (y, label) in axis_labels(view, false).iter().enumerate() {
        let rect = g.cell_rect(0, y as u8);
        let at = g.left - g.label_width;
        put(
            buf,
            at,
            rect.y + rect.height / 2,
            &format!("{label:>w$}", w = g.label_width as usize - 1),
            style,
        );
    }
}

/// A line between two points, drawn with box characters between their centres.
fn draw_link(buf: &mut Buffer, g: &BoardGeometry, from: &CellView, to: &CellView, theme: &Theme) {
    let (x0, y0) = g.centre(from.x, from.y);
    let (x1, y1) = g.centre(to.x, to.y);
    let (dx, dy) = (i32::from(x1) - i32::from(x0), i32::from(y1) - i32::from(y0));
    let glyph = match (dx.signum(), dy.signum()) {
        (0, _) => "│",
        (_, 0) => "─",
        (right, down) if right == down => "╲",
        _ => "╱",
    };
    let steps = dx.abs().max(dy.abs());
    let style = Style::new().fg(theme.link);
    for step in 1..steps {
        let column = i32::from(x0) + (dx * step + dx.signum() * steps / 2) / steps;
        let row = i32::from(y0) + (dy * step + dy.signum() * steps / 2) / steps;
        put(buf, column as u16, row as u16, glyph, style);
    }
}
