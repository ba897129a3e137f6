//! Where things go on screen. Pure functions of the terminal size and the board's shape, used
//! by the view to draw and by `update` to map a mouse click to a cell, so both always agree.

use ludus_engine::{BoardView, CellId, CellShape};
use ratatui::layout::Rect;

/// The smallest terminal the app draws in.
pub const MIN_SIZE: (u16, u16) = (60, 20);

/// The parts of the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameAreas {
    /// The title line: game, turn, status.
    pub title: Rect,
    /// The board.
    pub board: Rect,
    /// The side panel: players, history, messages.
    pub panel: Rect,
    /// The key bar (or the prompt line).
    pub keys: Rect,
}

/// Splits the screen for a game.
pub fn game_areas(area: Rect) -> GameAreas {
    let title = Rect { height: 1, ..area };
    let keys = Rect {
        y: area.bottom().saturating_sub(1),
        height: 1,
        ..area
    };
    let middle_height = area.height.saturating_sub(2);
    let panel_width = (area.width * 2 / 5).clamp(26, 46).min(area.width);
    let board = Rect::new(area.x, area.y + 1, area.width - panel_width, middle_height);
    let panel = Rect::new(board.right(), area.y + 1, panel_width, middle_height);
    GameAreas {
        title,
        board,
        panel,
        keys,
    }
}

/// Cell sizes (columns, rows) tried from the largest down; odd widths centre a piece.
const SQUARE_SIZES: [(u16, u16); 8] = [
    (15, 7),
    (13, 6),
    (11, 5),
    (9, 4),
    (7, 3),
    (5, 2),
    (3, 1),
    (2, 1),
];
// Points and lines at most 10×5 a step: Qilin's seven rows then take 36 of a 45-row terminal,
// not all of it.
const POINT_SIZES: [(u16, u16); 5] = [(10, 5), (8, 4), (6, 3), (4, 2), (3, 1)];

/// Where each cell of a board goes inside an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Left edge of grid column 0.
    pub left: u16,
    /// Top edge of the top grid row.
    pub top: u16,
    /// Columns per cell.
    pub cw: u16,
    /// Rows per cell.
    pub ch: u16,
    /// Grid columns.
    pub width: u8,
    /// Grid rows.
    pub height: u8,
    /// Width of the rank labels at the left (with a space).
    pub label_width: u16,
}

fn uses_points(view: &BoardView) -> bool {
    view.cells.iter().any(|c| c.shape == CellShape::Point)
}

/// Columns needed for the rank labels.
fn label_width(view: &BoardView) -> u16 {
    let longest = view
        .cells
        .iter()
        .map(|c| c.name.chars().filter(char::is_ascii_digit).count())
        .max()
        .unwrap_or(1);
    longest as u16 + 1
}

impl BoardGeometry {
    /// The largest layout of `view` that fits `area`, centred; `None` if none fits.
    pub fn fit(view: &BoardView, area: Rect) -> Option<BoardGeometry> {
        let sizes: &[(u16, u16)] = if uses_points(view) {
            &POINT_SIZES
        } else {
            &SQUARE_SIZES
        };
        let label_width = label_width(view);
        let (w, h) = (u16::from(view.width), u16::from(view.height));
        let &(cw, ch) = sizes
            .iter()
            .find(|(cw, ch)| label_width + w * cw <= area.width && h * ch < area.height)?;
        let used_w = label_width + w * cw;
        let used_h = h * ch + 1;
        Some(BoardGeometry {
            left: area.x + (area.width - used_w) / 2 + label_width,
            top: area.y + (area.height - used_h) / 2,
            cw,
            ch,
            width: view.width,
            height: view.height,
            label_width,
        })
    }

    /// The smallest area `view` can be drawn in (columns, rows).
    pub fn needed(view: &BoardView) -> (u16, u16) {
        let (cw, ch) = if uses_points(view) {
            POINT_SIZES[POINT_SIZES.len() - 1]
        } else {
            SQUARE_SIZES[SQUARE_SIZES.len() - 1]
        };
        (
            label_width(view) + u16::from(view.width) * cw,
            u16::from(view.height) * ch + 1,
        )
    }

    /// The screen rectangle of grid position (x, y), y counted from the bottom.
    pub fn cell_rect(&self, x: u8, y: u8) -> Rect {
        let row = u16::from(self.height.saturating_sub(1).saturating_sub(y));
        Rect::new(
            self.left + u16::from(x) * self.cw,
            self.top + row * self.ch,
            self.cw,
            self.ch,
        )
    }

    /// The centre of grid position (x, y): where a point is drawn.
    pub fn centre(&self, x: u8, y: u8) -> (u16, u16) {
        let r = self.cell_rect(x, y);
        (r.x + self.cw / 2, r.y + self.ch / 2)
    }

    /// The row of the file labels.
    pub fn files_row(&self) -> u16 {
        self.top + u16::from(self.height) * self.ch
    }

    /// The cell drawn at screen position (column, row), if any.
    pub fn cell_at(&self, view: &BoardView, column: u16, row: u16) -> Option<CellId> {
        view.cells
            .iter()
            .position(|c| {
                let r = self.cell_rect(c.x, c.y);
                column >= r.x && column < r.right() && row >= r.y && row < r.bottom()
            })
            .map(|i| CellId(i as u16))
    }
}

/// A rectangle of `width` × `height` centred in `area` (clipped to it).
pub fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// The widest the start and setup screens' frame grows: at 140 columns the option
/// descriptions fit beside their values.
pub const SCREEN_FRAME_WIDTH: u16 = 140;
