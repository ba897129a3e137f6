//! The board view (the diamond only; grid cells outside it are not drawn) and how a person
//! points at a step: the piece's cell, then the destination, with a label telling apart a
//! pull, a throw direction or the levitated rock.

use std::borrow::Cow;
use std::sync::LazyLock;

use ludus_engine::smallvec::smallvec;
use ludus_engine::{
    ActionInput, BoardView, CellId, CellShape, CellView, Hue, InputCells, PieceView, Presentation,
    Rules, Seat, SeatView, Stack,
};

use super::moves::{Extra, Hit, SplutAction};
use super::slots::{SLOTS, SLOT_STEPS};
use super::state::{content, team_obj, Content, Lev, Splut, COLOURS};
use super::tables::{size_index, sizes, squares, Square};

/// Seat colours in turn order (§2 DECISION).
pub(super) const HUES: [Hue; 4] = [Hue::Blue, Hue::Red, Hue::Green, Hue::Yellow];

impl Splut {
    pub(super) fn board_view(&self) -> BoardView {
        let mut view = self.panel();
        view.cells = layout(self.core.options.size)
            .iter()
            .map(|cell| self.drawn(cell))
            .collect();
        view
    }

    /// A cell of the layout with what stands on it.
    fn drawn(&self, cell: &CellView) -> CellView {
        CellView {
            name: cell.name.clone(),
            stack: self
                .piece_view(Square::new(cell.x, cell.y))
                .into_iter()
                .collect(),
            ..*cell
        }
    }

    /// How `sq` is drawn, as one number: its object's code and, for a rock, whether it is
    /// the one levitating and whether it is locked (all that `piece_view` reads).
    fn square_code(&self, sq: Square) -> u64 {
        let code = self.code(sq);
        let rock_marks = match content(code) {
            Content::Rock(id) => {
                u64::from(self.lev == Lev::Active(id)) << 8 | u64::from(self.is_locked(id)) << 9
            }
            Content::Piece(..) | Content::Empty | Content::Off => 0,
        };
        u64::from(code) | rock_marks
    }

    /// The view without cells: the seats, the side to move and the status.
    fn panel(&self) -> BoardView {
        let size = self.core.options.size;
        let seats = (0..self.seats())
            .map(|s| SeatView {
                seat: Seat::new(s as u8),
                name: format!("{} ({})", COLOURS[s], title(self.side(s).name())),
                hue: HUES[s],
                alive: self.is_alive(s),
            })
            .collect();
        BoardView {
            width: size as u8,
            height: size as u8,
            cells: Vec::new(),
            links: Vec::new(),
            seats,
            hands: Vec::new(),
            to_move: self.to_move(),
            last_move: Vec::new(),
            status: self.status(),
        }
    }

    fn piece_view(&self, sq: Square) -> Option<PieceView> {
        match content(self.code(sq)) {
            Content::Rock(id) => Some(PieceView {
                owner: None,
                hue: Hue::Neutral,
                kind: 'R',
                label: (self.lev == Lev::Active(id)).then_some(Cow::Borrowed("lev")),
                marked: self.is_locked(id),
            }),
            Content::Piece(seat, kind) => Some(PieceView {
                owner: Some(Seat::new(seat as u8)),
                hue: HUES[seat],
                kind: kind.letter(),
                label: None,
                marked: false,
            }),
            Content::Empty | Content::Off => None,
        }
    }

    fn status(&self) -> String {
        if let Some(outcome) = &self.core.outcome {
            // The winner by colour, as the other games' status lines name theirs.
            return match outcome.winner() {
                Some(seat) => format!("{} wins: {}", COLOURS[seat.to_usize()], outcome.reason),
                None => format!("Draw: {}", outcome.reason),
            };
        }
        let seat = self.core.to_move.to_usize();
        let left = self.steps_left();
        let lev = match self.lev {
            Lev::Unused => String::new(),
            Lev::Active(id) => format!(", levitating the rock on {}", self.rock(id)),
            Lev::Spent => ", levitation spent".to_string(),
        };
        format!(
            "{} ({}): {left} step{} left{lev}",
            COLOURS[seat],
            title(self.side(seat).name()),
            if left == 1 { "" } else { "s" },
        )
    }

    /// Cells `[piece, destination]` and a label: `pull`, `throw n` (`throw n: kills Red's
    /// sorcerer`, `throw s: crushes Blue's dwarf`), `levitate b5`, or `move`
    /// for a plain step whose cells another legal step shares. A pass has no cells.
    pub(super) fn input(&self, action: SplutAction) -> ActionInput {
        let SplutAction::Step(s) = action else {
            return ActionInput {
                cells: InputCells::new(),
                label: Some("pass".into()),
            };
        };
        let from = self.pos[team_obj(self.core.to_move.to_usize(), s.kind)];
        let to = from.step(s.dir);
        let label = match s.extra {
            Extra::Plain => self.shares_cells(action).then_some(Cow::Borrowed("move")),
            Extra::Pull => Some("pull".into()),
            // What the throw hits, by whose piece it is (one's own dwarf can be crushed).
            Extra::Throw(d) => Some(Cow::Owned(match self.throw_hit(s) {
                Hit::Kill(seat) => {
                    format!("throw {}: kills {}'s sorcerer", d.letter(), COLOURS[seat])
                }
                Hit::Crush(seat) => {
                    format!("throw {}: crushes {}'s dwarf", d.letter(), COLOURS[seat])
                }
                Hit::Nothing => format!("throw {}", d.letter()),
            })),
            Extra::Levitate(id) => Some(format!("levitate {}", self.rock(id)).into()),
        };
        ActionInput {
            cells: smallvec![self.cell_id(from), self.cell_id(to)],
            label,
        }
    }

    /// Whether another legal step has the same piece and direction as `action`.
    fn shares_cells(&self, action: SplutAction) -> bool {
        let SplutAction::Step(s) = action else {
            return false;
        };
        // The legal slots' mask, not a list: a client is sent every legal step's label after
        // every move, so a list here made labelling them all quadratic.
        let legal = self.legal_slots();
        (0..SLOTS)
            .filter(|&slot| legal >> slot & 1 == 1)
            .any(|slot| match SLOT_STEPS[slot] {
                SplutAction::Step(o) => o.kind == s.kind && o.dir == s.dir && o.extra != s.extra,
                SplutAction::Pass => false,
            })
    }

    /// The index of `sq` in the view's cells (rank by rank from the south, west to east).
    fn cell_id(&self, sq: Square) -> CellId {
        let c = (self.core.options.size as i32 - 1) / 2;
        let (x, y) = (i32::from(sq.file()), i32::from(sq.rank()));
        // Cells on ranks below y: rank r has 2·(c − |r − c|) + 1 squares.
        let below: i32 = (0..y).map(|r| 2 * (c - (r - c).abs()) + 1).sum();
        let first_x = (y - c).abs();
        CellId((below + x - first_x) as u16)
    }
}

/// The cells of the N×N diamond (names and places, nothing on them) in the view's order, rank
/// by rank from the south, west to east: made once per size, because a server builds a view
/// after every move and naming and placing its up to 313 cells each time was most of a view.
fn layout(size: u32) -> &'static [CellView] {
    static LAYOUTS: LazyLock<Vec<Vec<CellView>>> = LazyLock::new(|| {
        sizes()
            .map(|size| {
                squares(size)
                    .map(|sq| CellView {
                        name: sq.name(),
                        x: sq.file(),
                        y: sq.rank(),
                        shape: CellShape::Square,
                        stack: Stack::new(),
                        shaded: false,
                    })
                    .collect()
            })
            .collect()
    });
    &LAYOUTS[size_index(size)]
}

/// "south" → "South".
fn title(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

impl Presentation for Splut {
    fn view(&self) -> BoardView {
        self.board_view()
    }

    fn cell_codes(&self, codes: &mut Vec<u64>) -> bool {
        codes.clear();
        codes.extend(
            layout(self.core.options.size)
                .iter()
                .map(|cell| self.square_code(Square::new(cell.x, cell.y))),
        );
        true
    }

    fn cell_view(&self, cell: CellId) -> Option<CellView> {
        let cell = layout(self.core.options.size).get(cell.to_usize())?;
        Some(self.drawn(cell))
    }

    fn panel_view(&self) -> BoardView {
        self.panel()
    }

    fn action_input(&self, action: SplutAction) -> ActionInput {
        self.input(action)
    }
}
