//! The board as coloured text, for the plain line mode and `ludus replay`.
//!
//! Draws any game's [`BoardView`]: a grid with file letters and rank numbers taken from the
//! cell names, the top piece of each cell, the last move underlined, every stack taller than
//! one piece listed bottom to top, the pieces in hand and the status line. Without colour
//! (`NO_COLOR`, or output that is not a terminal), where the same letter serves several seats
//! (Yoxii's values, Splut!'s S/D/T) each piece on the board carries its seat number, and a
//! legend line names the seats.

use std::fmt::Write;
use std::io::IsTerminal;

use crossterm::style::{Attribute, Color, Stylize};
use ludus_engine::{BoardView, CellId, Hue, PieceView};

/// Whether to draw with colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// ANSI colours.
    Colour,
    /// Plain text only.
    Plain,
}

impl Style {
    /// Colour on a terminal unless `NO_COLOR` is set.
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        if !no_color && std::io::stdout().is_terminal() {
            Style::Colour
        } else {
            Style::Plain
        }
    }
}

/// The terminal colour of a hue.
pub fn hue_color(hue: Hue) -> Color {
    match hue {
        Hue::Dark => Color::Magenta,
        Hue::Light => Color::White,
        Hue::Red => Color::Red,
        Hue::Blue => Color::Blue,
        Hue::Green => Color::Green,
        Hue::Yellow => Color::Yellow,
        Hue::Neutral => Color::DarkYellow,
    }
}

/// Draws the view as lines of text.
pub fn render_board(view: &BoardView, style: Style) -> String {
    let grid = cell_grid(view);
    let marks = OwnerMarks::of(view, style);
    let texts: Vec<String> = view
        .cells
        .iter()
        .map(|c| {
            c.stack
                .last()
                .map_or_else(|| ".".to_string(), |p| piece_text(p, marks))
        })
        .collect();
    let width = texts
        .iter()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(1)
        .max(1)
        + 1;
    let files = axis_labels(view, true);
    let ranks = axis_labels(view, false);
    let rank_width = ranks.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    let header = files.iter().fold(String::new(), |mut acc, f| {
        let _ = write!(acc, "{f:<width$}");
        acc
    });
    let _ = writeln!(out, "{:rank_width$}  {}", "", header.trim_end());
    for y in (0..view.height as usize).rev() {
        let _ = write!(out, "{:>rank_width$}  ", ranks[y]);
        for slot in &grid[y] {
            match slot {
                None => out.push_str(&" ".repeat(width)),
                Some(i) => {
                    let piece = view.cells[*i].stack.last();
                    let last = view.last_move.contains(&CellId(*i as u16));
                    out.push_str(&styled_cell(&texts[*i], piece, last, style));
                    out.push_str(&" ".repeat(width - texts[*i].chars().count()));
                }
            }
        }
        let _ = writeln!(out, " {}", ranks[y]);
    }
    let _ = writeln!(out, "{:rank_width$}  {}", "", header.trim_end());
    if marks == OwnerMarks::Numbers {
        write_legend(&mut out, view);
    }
    write_stacks(&mut out, view, style, marks);
    write_hands(&mut out, view, style);
    if !view.status.is_empty() {
        let _ = writeln!(out, "{}", view.status);
    }
    out
}

/// The index of the cell at each `[y][x]` of the view's grid, if any.
fn cell_grid(view: &BoardView) -> Vec<Vec<Option<usize>>> {
    let mut grid = vec![vec![None; view.width as usize]; view.height as usize];
    for (i, cell) in view.cells.iter().enumerate() {
        if let Some(slot) = grid
            .get_mut(cell.y as usize)
            .and_then(|row| row.get_mut(cell.x as usize))
        {
            *slot = Some(i);
        }
    }
    grid
}

/// Whether pieces on the board carry their seat number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum OwnerMarks {
    /// Colours (or distinct letters) tell the seats apart.
    None,
    /// Plain text where one letter serves several seats.
    Numbers,
}

impl OwnerMarks {
    fn of(view: &BoardView, style: Style) -> OwnerMarks {
        if style == Style::Plain && letters_are_shared(view) {
            OwnerMarks::Numbers
        } else {
            OwnerMarks::None
        }
    }
}

/// Whether some kind letter is used by pieces of two different seats (on the board or in
/// hand): then, without colour, only a seat number tells them apart.
fn letters_are_shared(view: &BoardView) -> bool {
    let on_board = view.cells.iter().flat_map(|c| c.stack.iter());
    let in_hand = view
        .hands
        .iter()
        .flat_map(|h| h.pieces.iter().map(|(p, _)| p));
    let mut seen: Vec<(char, ludus_engine::Seat)> = Vec::new();
    for piece in on_board.chain(in_hand) {
        let Some(owner) = piece.owner else { continue };
        if seen.iter().any(|&(k, o)| k == piece.kind && o != owner) {
            return true;
        }
        if !seen.contains(&(piece.kind, owner)) {
            seen.push((piece.kind, owner));
        }
    }
    false
}

/// The kind letter, the label where it says more (a Yoxii value is its own letter), the seat
/// number when `marks` asks for it, and `*` for a marked piece in plain text.
fn piece_text(piece: &PieceView, marks: OwnerMarks) -> String {
    let mut text = piece.kind.to_string();
    if let Some(label) = piece.label.as_deref().filter(|&l| l != text) {
        text.push_str(label);
    }
    if marks == OwnerMarks::Numbers {
        if let Some(owner) = piece.owner {
            text.push_str(&owner.number().to_string());
        }
        if piece.marked {
            text.push('*');
        }
    }
    text
}

/// "pieces: 1 = White, 2 = Red", for plain boards whose pieces carry seat numbers.
fn write_legend(out: &mut String, view: &BoardView) {
    let seats: Vec<String> = view
        .seats
        .iter()
        .map(|s| format!("{} = {}", s.seat.number(), s.name))
        .collect();
    let _ = writeln!(out, "seat numbers: {}", seats.join(", "));
}

fn styled_cell(text: &str, piece: Option<&PieceView>, last: bool, style: Style) -> String {
    if style == Style::Plain {
        return text.to_string();
    }
    let mut styled = text.stylize();
    if let Some(piece) = piece {
        styled = styled.with(hue_color(piece.hue)).attribute(Attribute::Bold);
        if piece.marked {
            styled = styled.attribute(Attribute::Reverse);
        }
    } else {
        styled = styled.with(Color::DarkGrey);
    }
    if last {
        styled = styled.attribute(Attribute::Underlined);
    }
    styled.to_string()
}

/// File letters (x) or rank numbers (y) from the cell names: the letter or digit part of any
/// cell in that column or row.
pub fn axis_labels(view: &BoardView, files: bool) -> Vec<String> {
    let len = if files { view.width } else { view.height } as usize;
    let mut labels = vec![String::new(); len];
    for cell in &view.cells {
        let index = if files { cell.x } else { cell.y } as usize;
        if index < len && labels[index].is_empty() {
            let part: String = cell
                .name
                .chars()
                .filter(|c| {
                    if files {
                        c.is_ascii_alphabetic()
                    } else {
                        c.is_ascii_digit()
                    }
                })
                .collect();
            labels[index] = part;
        }
    }
    labels
}

fn write_stacks(out: &mut String, view: &BoardView, style: Style, marks: OwnerMarks) {
    let tall: Vec<_> = view.cells.iter().filter(|c| c.stack.len() > 1).collect();
    if tall.is_empty() {
        return;
    }
    let _ = writeln!(out, "stacks (bottom → top):");
    for cell in tall {
        let pieces: Vec<String> = cell
            .stack
            .iter()
            .map(|p| styled_cell(&piece_text(p, marks), Some(p), false, style))
            .collect();
        let _ = writeln!(out, "  {}: {}", cell.name, pieces.join(" "));
    }
}

fn write_hands(out: &mut String, view: &BoardView, style: Style) {
    for hand in &view.hands {
        let name = view
            .seats
            .iter()
            .find(|s| s.seat == hand.seat)
            .map_or_else(|| hand.seat.to_string(), |s| s.name.clone());
        let pieces: Vec<String> = hand
            .pieces
            .iter()
            .map(|(p, n)| {
                format!(
                    "{}×{n}",
                    styled_cell(&piece_text(p, OwnerMarks::None), Some(p), false, style)
                )
            })
            .collect();
        let _ = writeln!(out, "{name} in hand: {}", pieces.join(" "));
    }
}
