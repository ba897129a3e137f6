//! Action ids and observation tensors of Yoxii (see [`ludus_engine::encoding`]), for
//! learning libraries.
//!
//! **Action ids** (245), with squares numbered by their grid index file × 7 + rank (a1 = 0,
//! a7 = 6, b1 = 7, d4 = 24, g7 = 48; the 12 cut corners are never used):
//!
//! | ids | decision |
//! |---|---|
//! | `0..49` | move the Totem to square `s` (`d5`): id `s` |
//! | `49..245` | place a piece of value `v` (1..=4) on `s` (`3@d4`): id `49 + (v - 1) * 49 + s` |
//!
//! **Observation** `[20, 7, 7]`: files a–g (columns), ranks 7–1 (rows, rank 7 on top).
//!
//! | plane | meaning |
//! |---|---|
//! | `v - 1` | the observer's pieces of value `v` (1..=4) |
//! | `4 + v - 1` | the opponent's pieces of value `v` |
//! | 8 | the Totem |
//! | 9 | 1 on the 37 squares of the board |
//! | 10 | 1 when the Totem has moved and the placement is pending (constant) |
//! | `11 + v - 1` | the observer's pieces of value `v` in hand / 5 (constant) |
//! | `15 + v - 1` | the opponent's pieces of value `v` in hand / 5 (constant) |
//! | 19 | 1 when the observer is to move (constant) |

use ludus_engine::encoding::fill_plane;
use ludus_engine::{Encoding, PackedAction, Rules, Seat};

use super::tables::{GRID, ON_BOARD, SIZE};
use super::{Square, Yoxii, YoxiiAction, YoxiiOptions};

const SQUARES: u32 = GRID as u32;
const ACTIONS: u32 = SQUARES * 5;
const SIDE: usize = SIZE as usize;
const CELLS: usize = GRID;
const PLANES: usize = 20;

/// The observation cell of `square` (rank 7 in the top row).
fn cell(square: Square) -> usize {
    (SIDE - 1 - square.rank() as usize) * SIDE + square.file() as usize
}

/// A decision packs as its action id.
impl PackedAction for YoxiiAction {
    fn pack(self) -> u32 {
        match self {
            YoxiiAction::Totem(square) => square.to_usize() as u32,
            YoxiiAction::Place { value, square } => {
                SQUARES * u32::from(value) + square.to_usize() as u32
            }
        }
    }

    fn unpack(bits: u32) -> Self {
        // `bits % SQUARES` is below the grid's size, so always a square; the stand-in is
        // never taken, and keeps this free of a panic path.
        let square = Square::from_index((bits % SQUARES) as u8).unwrap_or(Square::new(0, 0));
        match (bits / SQUARES) % 5 {
            0 => YoxiiAction::Totem(square),
            value => YoxiiAction::Place {
                value: value as u8,
                square,
            },
        }
    }
}

impl Encoding for Yoxii {
    fn num_distinct_actions(_: &YoxiiOptions) -> usize {
        ACTIONS as usize
    }

    fn action_id(&self, action: YoxiiAction) -> u32 {
        action.pack()
    }

    /// 36 turns (one piece placed each), two decisions each.
    fn max_decisions(_: &YoxiiOptions) -> usize {
        2 * Yoxii::INFO.max_turns as usize
    }

    fn action_from_id(&self, id: u32) -> Option<YoxiiAction> {
        (id < ACTIONS).then(|| YoxiiAction::unpack(id))
    }

    fn observation_shape(_: &YoxiiOptions) -> [usize; 3] {
        [PLANES, SIDE, SIDE]
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        for square in Square::iter(ON_BOARD) {
            let at = cell(square);
            if let Some(piece) = self.piece_at(square) {
                let group = if piece.seat == seat { 0 } else { 4 };
                out[(group + usize::from(piece.value) - 1) * CELLS + at] = 1.0;
            }
            out[9 * CELLS + at] = 1.0;
        }
        out[8 * CELLS + cell(self.totem())] = 1.0;
        fill_plane(out, CELLS, 10, f32::from(self.is_placing()));
        let other = Seat::new(1 - seat.to_usize().min(1) as u8);
        for value in 1..=4u8 {
            let plane = 10 + usize::from(value);
            fill_plane(
                out,
                CELLS,
                plane,
                f32::from(self.in_hand(seat, value)) / 5.0,
            );
            fill_plane(
                out,
                CELLS,
                plane + 4,
                f32::from(self.in_hand(other, value)) / 5.0,
            );
        }
        fill_plane(out, CELLS, 19, f32::from(self.to_move() == Some(seat)));
    }
}
