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
        (Some(label), _) => label.clone(),
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

/// The board as lines of text: a grid with rank numbers and file letters, the top piece of
/// each cell (`.` for an empty one), the stacks taller than one piece, hands and status.
pub fn render(view: &BoardView) -> String {
    let (width, height) = (view.width as usize, view.height as usize);
    let mut grid: Vec<Vec<Option<usize>>> = vec![vec![None; width]; height];
    for (i, cell) in view.cells.iter().enumerate() {
        if let Some(slot) = grid
            .get_mut(cell.y as usize)
            .and_then(|row| row.get_mut(cell.x as usize))
        {
            *slot = Some(i);
        }
    }
    let mut out = String::new();
    for y in (0..height).rev() {
        let rank = grid[y]
            .iter()
            .flatten()
            .next()
            .map(|&i| name_part(&view.cells[i].name, false))
            .unwrap_or_default();
        let _ = write!(out, "{rank:>3} ");
        for slot in &grid[y] {
            let text = match slot {
                Some(i) => view.cells[*i]
                    .stack
                    .last()
                    .map_or_else(|| ".".to_string(), piece_text),
                None => String::new(),
            };
            let _ = write!(out, "{text:<4}");
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    out.push_str("    ");
    for x in 0..width {
        let file = grid
            .iter()
            .find_map(|row| row[x])
            .map(|i| name_part(&view.cells[i].name, true))
            .unwrap_or_default();
        let _ = write!(out, "{file:<4}");
    }
    out = out.trim_end().to_string();
    out.push('\n');
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
    let _ = write!(out, "{}", view.status);
    out
}
