//! Action ids and observation tensors of Qawale (see [`ludus_engine::encoding`]), for
//! learning libraries.
//!
//! **Action ids** (20): squares numbered rank × 4 + file (a1 = 0, d1 = 3, a4 = 12, d4 = 15),
//! directions `N E S W` = 0..4.
//!
//! | ids | decision |
//! |---|---|
//! | `0..16` | place a stone on square `s` and lift its stack (`a1`): id `s` |
//! | `16..20` | drop the next stone one square towards `d` (`N`): id `16 + d` |
//!
//! **Observation** `[156, 4, 4]`: files a–d (columns), ranks 4–1 (rows, rank 4 on top).
//! Stones are "mine" (the observer's colour), "theirs" or neutral.
//!
//! | plane | meaning |
//! |---|---|
//! | `l`, `24 + l`, `48 + l` | the stone `l` above the bottom of each stack (l = 0..24) is mine, theirs, neutral |
//! | 72 | stack height / 24 |
//! | 73 | while sowing: the square of the last drop (where the next step starts) |
//! | 74 | while sowing: the square the stack was lifted from |
//! | `75 + i`, `99 + i`, `123 + i` | while sowing: the `i`-th stone still to drop (0: the next) is mine, theirs, neutral (constant planes) |
//! | 147 | stones still to drop / 24 (constant) |
//! | `148 + d` | the direction of the last step, N E S W (constant; none before the first step) |
//! | 152, 153 | stones in hand / 8: mine, theirs (constant) |
//! | 154 | 1 while a stack is being sown (constant) |
//! | 155 | 1 when the observer is to move (constant) |

use ludus_engine::encoding::fill_plane;
use ludus_engine::{Encoding, PackedAction, Rules, Seat};

use super::state::MAX_HEIGHT;
use super::tables::{Dir, Square, NO_DIR};
use super::{Qawale, QawaleAction, QawaleOptions, Stone};

const SQUARES: u32 = 16;
const ACTIONS: u32 = SQUARES + 4;
const CELLS: usize = 16;
const PLANES: usize = 156;

/// The observation cell of square index `s` (rank 4 in the top row).
const fn cell(s: usize) -> usize {
    (3 - s / 4) * 4 + s % 4
}

/// The plane group of `stone` seen by `seat`: 0 mine, 1 theirs, 2 neutral.
fn group(stone: Stone, seat: Seat) -> usize {
    match stone.owner() {
        Some(owner) if owner == seat => 0,
        Some(_) => 1,
        None => 2,
    }
}

/// A decision packs as its action id.
impl PackedAction for QawaleAction {
    fn pack(self) -> u32 {
        match self {
            QawaleAction::Stack(square) => square.to_usize() as u32,
            QawaleAction::Step(dir) => SQUARES + dir.to_usize() as u32,
        }
    }

    fn unpack(bits: u32) -> Self {
        if bits < SQUARES {
            QawaleAction::Stack(Square::ALL[bits as usize])
        } else {
            QawaleAction::Step(Dir::ALL[(bits - SQUARES) as usize % 4])
        }
    }
}

impl Encoding for Qawale {
    fn num_distinct_actions(_: &QawaleOptions) -> usize {
        ACTIONS as usize
    }

    fn action_id(&self, action: QawaleAction) -> u32 {
        action.pack()
    }

    /// 16 turns (one stone from a hand each), each the stack and at most 24 steps.
    fn max_decisions(_: &QawaleOptions) -> usize {
        16 * 25
    }

    fn action_from_id(&self, id: u32) -> Option<QawaleAction> {
        (id < ACTIONS).then(|| QawaleAction::unpack(id))
    }

    fn observation_shape(_: &QawaleOptions) -> [usize; 3] {
        [PLANES, 4, 4]
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        for square in Square::ALL {
            let at = cell(square.to_usize());
            let height = self.height(square).min(MAX_HEIGHT);
            for level in 0..height {
                let plane = group(self.stone_at(square, level), seat) * MAX_HEIGHT + level;
                out[plane * CELLS + at] = 1.0;
            }
            out[72 * CELLS + at] = height as f32 / MAX_HEIGHT as f32;
        }
        let sowing = self.sowing;
        if sowing.left > 0 {
            out[73 * CELLS + cell(sowing.at as usize)] = 1.0;
            out[74 * CELLS + cell(sowing.origin as usize)] = 1.0;
            for i in 0..usize::from(sowing.left).min(MAX_HEIGHT) {
                let stone = Stone::from_code(sowing.stones >> (2 * i));
                fill_plane(out, CELLS, 75 + group(stone, seat) * MAX_HEIGHT + i, 1.0);
            }
            fill_plane(out, CELLS, 147, f32::from(sowing.left) / MAX_HEIGHT as f32);
            if sowing.last != NO_DIR {
                fill_plane(out, CELLS, 148 + usize::from(sowing.last & 3), 1.0);
            }
            fill_plane(out, CELLS, 154, 1.0);
        }
        let other = Seat::new(1 - seat.to_usize().min(1) as u8);
        fill_plane(out, CELLS, 152, f32::from(self.in_hand(seat)) / 8.0);
        fill_plane(out, CELLS, 153, f32::from(self.in_hand(other)) / 8.0);
        fill_plane(out, CELLS, 155, f32::from(self.to_move() == Some(seat)));
    }
}
