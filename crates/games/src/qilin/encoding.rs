//! Action ids and observation tensors of Qilin Chess XiaSanZi (see
//! [`ludus_engine::encoding`]), for learning libraries.
//!
//! **Action ids** (624, whatever the options), with points numbered in the canonical order
//! `a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7` (0..24):
//!
//! | ids | decision |
//! |---|---|
//! | `0..24` | place on point `p` (`d1`): id `p` |
//! | `24..48` | press, remove or remove an own piece on `p` (`xd1`): id `24 + p` |
//! | `48..624` | slide from `f` to `t` (`a1-a4`): id `48 + f * 24 + t` |
//!
//! **Observation** `[12, 7, 7]`: the 7×7 grid of files a–g (columns) and ranks 7–1 (rows, rank
//! 7 on top); cells that are not points are 0 in every plane but plane 3.
//!
//! | plane | meaning |
//! |---|---|
//! | 0 | the observer's pieces |
//! | 1 | the opponent's pieces |
//! | 2 | pressed points |
//! | 3 | 1 on the 24 points |
//! | 4, 5 | pieces in hand / 18: the observer's, the opponent's (constant planes) |
//! | 6, 7, 8 | the stage: placement, transition, movement (one of them all ones) |
//! | 9 | presses or removals the side to act still owes / 4 |
//! | 10 | 1 when the observer is to act |
//! | 11 | movement turns without a removal / `draw_no_removal_plies` (0 when off) |

use ludus_engine::encoding::fill_plane;
use ludus_engine::{Encoding, PackedAction, Rules, Seat};

use super::state::Stage;
use super::tables::{Point, POINT_COUNT};
use super::{Qilin, QilinAction, QilinOptions};

const POINTS: u32 = POINT_COUNT as u32;
const TAKES: u32 = POINTS;
const SLIDES: u32 = 2 * POINTS;
const ACTIONS: u32 = SLIDES + POINTS * POINTS;
const SIDE: usize = 7;
const CELLS: usize = SIDE * SIDE;
const PLANES: usize = 12;
/// The cap on decisions when the draw rules are off.
const UNBOUNDED: usize = 100_000;

/// A decision packs as its action id.
impl PackedAction for QilinAction {
    fn pack(self) -> u32 {
        match self {
            QilinAction::Place(p) => p.to_usize() as u32,
            QilinAction::Take(p) => TAKES + p.to_usize() as u32,
            QilinAction::Slide(from, to) => {
                SLIDES + from.to_usize() as u32 * POINTS + to.to_usize() as u32
            }
        }
    }

    fn unpack(bits: u32) -> Self {
        // Every index is taken below the point count, so no bits make an invalid point.
        let point = |index: u32| Point::new((index % POINTS) as u8);
        match bits {
            _ if bits < TAKES => QilinAction::Place(point(bits)),
            _ if bits < SLIDES => QilinAction::Take(point(bits - TAKES)),
            _ => {
                let rest = bits - SLIDES;
                QilinAction::Slide(point(rest / POINTS), point(rest % POINTS))
            }
        }
    }
}

impl Encoding for Qilin {
    fn num_distinct_actions(_: &QilinOptions) -> usize {
        ACTIONS as usize
    }

    fn action_id(&self, action: QilinAction) -> u32 {
        action.pack()
    }

    /// 26 turns of placement and transition, then at most `draw_no_removal_plies` turns
    /// before each of at most 24 removal turns; a turn is a placement or slide and at most
    /// three presses or removals.
    fn max_decisions(options: &QilinOptions) -> usize {
        match options.draw_no_removal_plies {
            0 => UNBOUNDED,
            quiet => 4 * (26 + (usize::from(quiet) + 1) * 25),
        }
    }

    fn action_from_id(&self, id: u32) -> Option<QilinAction> {
        (id < ACTIONS).then(|| QilinAction::unpack(id))
    }

    fn observation_shape(_: &QilinOptions) -> [usize; 3] {
        [PLANES, SIDE, SIDE]
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        let me = seat.to_usize().min(1);
        let planes = [self.pieces[me], self.pieces[1 - me], self.pressed, u32::MAX];
        for point in Point::all() {
            let (file, rank) = point.coords();
            let cell = (SIDE - 1 - rank as usize) * SIDE + file as usize;
            for (plane, bits) in planes.iter().enumerate() {
                if bits & point.bit() != 0 {
                    out[plane * CELLS + cell] = 1.0;
                }
            }
        }
        let (mine, theirs) = (Seat::new(me as u8), Seat::new(1 - me as u8));
        fill_plane(out, CELLS, 4, f32::from(self.hands[mine]) / 18.0);
        fill_plane(out, CELLS, 5, f32::from(self.hands[theirs]) / 18.0);
        let stage = match self.stage {
            Stage::Place => 6,
            Stage::Transition => 7,
            Stage::Move => 8,
        };
        fill_plane(out, CELLS, stage, 1.0);
        fill_plane(out, CELLS, 9, f32::from(self.pending) / 4.0);
        fill_plane(out, CELLS, 10, f32::from(self.to_move() == Some(seat)));
        let limit = self.core.options.draw_no_removal_plies;
        let quiet = if limit == 0 {
            0.0
        } else {
            f32::from(self.quiet) / f32::from(limit)
        };
        fill_plane(out, CELLS, 11, quiet);
    }
}
