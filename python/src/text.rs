//! `str(game)`: a plain-text board drawn from any game's [`BoardView`], so that this crate
//! needs no game knowledge to print a position.

use std::fmt::Write;

use ludus_engine::{BoardView, PieceView};

/// How a piece is written in a cell: its kind letter and its label or owner's seat number
/// (1-based), e.g. `K1`, `N `, `S2`, `3` with owner 2 is `32`.
fn piece_text(piece: &PieceView) -> String {
    let tag = match (&piece.label, piece.owner) {
        (Some(label), Some(owner)) if piece.kind.is_ascii_digit() => {
            format!("{label}{}", owner.number())
        }
        (Some(label), _) => label.to_string(),
        (None, Some(owner)) => owner.number().to_string(),
        (None, None) => String::new(),
    };
    let text = if piece.kind.is_ascii_digit() && piece.label.is_some() {
        tag
    } else {
        format!("{}{tag}", piece.kind)
    };
    let marked = if piece.marked { "*" } else { "" };
    format!("{text}{marked}")
}

/// The part of a cell name made of letters (`a` of `a10`) or of digits (`10`).
fn name_part(name: &str, letters: bool) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphabetic() == letters)
        .collect()
}

/// The drawing grid: the index of the cell at each `(y, x)`, if any.
fn grid_of(view: &BoardView) -> Vec<Vec<Option<usize>>> {
    let mut grid = vec![vec![None; view.width as usize]; view.height as usize];
    for (i, cell) in view.cells.iter().enumerate() {
        if let Some(slot) = grid
            .get_mut(cell.y as usize)
            .and_then(|row: &mut Vec<Option<usize>>| row.get_mut(cell.x as usize))
        {
            *slot = Some(i);
        }
    }
    grid
}

/// The rows from the top, each with its rank label, then the line of file letters.
fn board_lines(view: &BoardView, grid: &[Vec<Option<usize>>], out: &mut String) {
    for row in grid.iter().rev() {
        let rank = row
            .iter()
            .flatten()
            .next()
            .map(|&i| name_part(&view.cells[i].name, false))
            .unwrap_or_default();
        let mut line = format!("{rank:>3} ");
        for slot in row {
            let text = slot.map_or_else(String::new, |i| {
                view.cells[i]
                    .stack
                    .last()
                    .map_or_else(|| ".".to_string(), piece_text)
            });
            let _ = write!(line, "{text:<4}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let mut files = String::from("    ");
    for x in 0..view.width as usize {
        let file = grid
            .iter()
            .find_map(|row| row[x])
            .map(|i| name_part(&view.cells[i].name, true))
            .unwrap_or_default();
        let _ = write!(files, "{file:<4}");
    }
    let _ = writeln!(out, "{}", files.trim_end());
}

/// The stacks taller than one piece, the hands and the status line.
fn extra_lines(view: &BoardView, out: &mut String) {
    let stacks: Vec<String> = view
        .cells
        .iter()
        .filter(|c| c.stack.len() > 1)
        .map(|c| {
            let pieces: Vec<String> = c.stack.iter().map(piece_text).collect();
            format!("{} {}", c.name, pieces.join(","))
        })
        .collect();
    if !stacks.is_empty() {
        let _ = writeln!(out, "stacks (bottom first): {}", stacks.join("; "));
    }
    for hand in &view.hands {
        let pieces: Vec<String> = hand
            .pieces
            .iter()
            .map(|(piece, count)| format!("{}x{count}", piece_text(piece)))
            .collect();
        let _ = writeln!(out, "hand of {}: {}", hand.seat, pieces.join(" "));
    }
    out.push_str(&view.status);
}

/// The board as lines of text: a grid with rank numbers and file letters, the top piece of
/// each cell (`.` for an empty one), the stacks taller than one piece, hands and status.
pub fn render(view: &BoardView) -> String {
    let mut out = String::new();
    board_lines(view, &grid_of(view), &mut out);
    extra_lines(view, &mut out);
    out
}
