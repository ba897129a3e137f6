//! Pictures of a position for videos of agents: the board of a [`BoardView`] as SVG, in the web
//! page's colours and shapes (square cells or points joined by lines, pieces as discs in their
//! seat's colour with their letter, stacks with their height, the last move in yellow,
//! coordinates on the edges), rasterised by resvg into an RGB array.

use std::fmt::Write as _;
use std::sync::OnceLock;

use ludus_engine::{BoardView, CellShape, Hue, PieceView};

/// One cell of the drawing grid, in SVG units.
const UNIT: f32 = 100.0;
/// Room for the coordinates around the board.
const MARGIN: f32 = 40.0;

/// Fill and ink (the letter's colour) of a hue, as the web page's light theme has them.
fn colours(hue: Hue) -> (&'static str, &'static str) {
    match hue {
        Hue::Dark => ("#1b1b1b", "#ffffff"),
        Hue::Light => ("#fbfbf5", "#1b1b1b"),
        Hue::Red => ("#d55e00", "#000000"),
        Hue::Blue => ("#0072b2", "#ffffff"),
        Hue::Green => ("#009e73", "#000000"),
        Hue::Yellow => ("#f0e442", "#000000"),
        Hue::Neutral => ("#a8a8a8", "#000000"),
    }
}

/// Text as SVG character data (a label is game text, but never markup).
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The picture's size in SVG units.
pub fn size(view: &BoardView) -> (f32, f32) {
    (
        2.0 * MARGIN + f32::from(view.width) * UNIT,
        2.0 * MARGIN + f32::from(view.height) * UNIT,
    )
}

/// The centre of grid cell `(x, y)` (y upward, as the games' coordinates read).
fn centre(view: &BoardView, x: u8, y: u8) -> (f32, f32) {
    (
        MARGIN + (f32::from(x) + 0.5) * UNIT,
        MARGIN + (f32::from(view.height - 1 - y) + 0.5) * UNIT,
    )
}

fn piece(svg: &mut String, (cx, cy): (f32, f32), piece: &PieceView, stacked: usize) {
    let (fill, ink) = colours(piece.hue);
    let width = if piece.marked { 8 } else { 3 };
    let _ = write!(
        svg,
        r##"<circle cx="{cx}" cy="{cy}" r="36" fill="{fill}" stroke="#1d1b18" stroke-width="{width}"/>"##
    );
    let letter = piece
        .label
        .as_deref()
        .map_or_else(|| piece.kind.to_string(), str::to_string);
    let _ = write!(
        svg,
        r#"<text x="{cx}" y="{}" font-size="34" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
        cy + 12.0,
        escaped(&letter)
    );
    if stacked > 1 {
        let _ = write!(
            svg,
            r##"<circle cx="{}" cy="{}" r="15" fill="#1d1b18"/><text x="{}" y="{}" font-size="20" text-anchor="middle" fill="#ffffff">{stacked}</text>"##,
            cx + 33.0,
            cy + 33.0,
            cx + 33.0,
            cy + 40.0
        );
    }
}

/// The position as an SVG document.
pub fn svg(view: &BoardView) -> String {
    let (width, height) = size(view);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="#f7f4ee"/>"##
    );
    let points = view.cells.iter().any(|c| c.shape == CellShape::Point);
    if points {
        let _ = write!(
            svg,
            r##"<rect x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" rx="12" fill="#e8cc9c"/>"##,
            width - 2.0 * MARGIN,
            height - 2.0 * MARGIN
        );
    }
    for &(a, b) in &view.links {
        let (Some(a), Some(b)) = (view.cells.get(a.to_usize()), view.cells.get(b.to_usize()))
        else {
            continue;
        };
        let ((x1, y1), (x2, y2)) = (centre(view, a.x, a.y), centre(view, b.x, b.y));
        let _ = write!(
            svg,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#2b2118" stroke-width="5"/>"##
        );
    }
    for (index, cell) in view.cells.iter().enumerate() {
        let (cx, cy) = centre(view, cell.x, cell.y);
        let last = view.last_move.iter().any(|c| c.to_usize() == index);
        match cell.shape {
            CellShape::Square => {
                let fill = match (last, cell.shaded) {
                    (true, _) => "#f0e07c",
                    (false, true) => "#b98b5c",
                    (false, false) => "#efd9b4",
                };
                let _ = write!(
                    svg,
                    r##"<rect x="{}" y="{}" width="{UNIT}" height="{UNIT}" fill="{fill}" stroke="#1d1b18" stroke-width="1.5"/>"##,
                    cx - UNIT / 2.0,
                    cy - UNIT / 2.0
                );
            }
            CellShape::Point => {
                let (fill, r) = if last {
                    ("#f0e07c", 40)
                } else {
                    ("#2b2118", 12)
                };
                let _ = write!(
                    svg,
                    r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}"/>"#
                );
            }
        }
        if let Some(top) = cell.stack.last() {
            piece(&mut svg, (cx, cy), top, cell.stack.len());
        }
    }
    coordinates(&mut svg, view);
    svg.push_str("</svg>");
    svg
}

/// Column letters below and row numbers left of the board, from the cells' names: each
/// column's lowest cell names the column, each row's leftmost cell names the row.
fn coordinates(svg: &mut String, view: &BoardView) {
    let (_, height) = size(view);
    let mut lowest = vec![u8::MAX; usize::from(view.width)];
    let mut leftmost = vec![u8::MAX; usize::from(view.height)];
    for cell in &view.cells {
        let (x, y) = (usize::from(cell.x), usize::from(cell.y));
        lowest[x] = lowest[x].min(cell.y);
        leftmost[y] = leftmost[y].min(cell.x);
    }
    for cell in &view.cells {
        let (cx, cy) = centre(view, cell.x, cell.y);
        let digits = cell.name.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
        let (column, row) = cell.name.split_at(digits);
        if lowest[usize::from(cell.x)] == cell.y {
            let _ = write!(
                svg,
                r##"<text x="{cx}" y="{}" font-size="24" text-anchor="middle" fill="#1d1b18">{}</text>"##,
                height - 10.0,
                escaped(column)
            );
        }
        if leftmost[usize::from(cell.y)] == cell.x {
            let _ = write!(
                svg,
                r##"<text x="20" y="{}" font-size="24" text-anchor="middle" fill="#1d1b18">{}</text>"##,
                cy + 8.0,
                escaped(row)
            );
        }
    }
}

/// The fonts for the letters, read once from the system.
fn options() -> &'static resvg::usvg::Options<'static> {
    static OPTIONS: OnceLock<resvg::usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut options = resvg::usvg::Options::default();
        options.fontdb_mut().load_system_fonts();
        options
    })
}

/// The position as RGB pixels, `scale` pixels per SVG unit: `(height, width, bytes)`.
pub fn rgb(view: &BoardView, scale: f32) -> Result<(usize, usize, Vec<u8>), String> {
    if !(0.01..=4.0).contains(&scale) {
        return Err(format!("scale {scale}: expected 0.01 to 4 pixels per unit"));
    }
    let tree = resvg::usvg::Tree::from_str(&svg(view), options()).map_err(|e| e.to_string())?;
    let (width, height) = size(view);
    let (w, h) = (
        (width * scale).ceil() as u32,
        (height * scale).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| format!("no picture of {w}×{h} pixels: expected a scale above 0"))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let rgb = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Ok((h as usize, w as usize, rgb))
}
