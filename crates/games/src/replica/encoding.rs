//! Action ids and observation tensors of Replica (see [`ludus_engine::encoding`]), for
//! learning libraries.
//!
//! **Action ids** (4160), with squares numbered rank × 8 + file (a1 = 0, h1 = 7, h8 = 63):
//!
//! | ids | decision |
//! |---|---|
//! | `0..4096` | the piece on `f` advances to `t` (`c3-d4`, `c3xc6`): id `f * 64 + t` |
//! | `4096..4160` | the non-king on `s` becomes a king (`b2*`): id `4096 + s` |
//!
//! **Observation** `[6, 8, 8]`: files a–h (columns), ranks 8–1 (rows, rank 8 on top), the
//! board as White sees it whoever observes.
//!
//! | plane | meaning |
//! |---|---|
//! | 0, 1 | the observer's non-kings, kings |
//! | 2, 3 | the opponent's non-kings, kings |
//! | 4 | 1 when the observer is White (seat 1), who heads for h8 (constant) |
//! | 5 | 1 when the observer is to move (constant) |

use ludus_engine::encoding::fill_plane;
use ludus_engine::{Encoding, PackedAction, Rules, Seat};

use super::{Replica, ReplicaAction, ReplicaOptions, Square};

const SQUARES: u32 = 64;
const TRANSFORMS: u32 = SQUARES * SQUARES;
const ACTIONS: u32 = TRANSFORMS + SQUARES;
const CELLS: usize = 64;
const PLANES: usize = 6;

/// A decision packs as its action id.
impl PackedAction for ReplicaAction {
    fn pack(self) -> u32 {
        match self {
            ReplicaAction::Advance { from, to } => {
                from.to_usize() as u32 * SQUARES + to.to_usize() as u32
            }
            ReplicaAction::Transform(square) => TRANSFORMS + square.to_usize() as u32,
        }
    }

    fn unpack(bits: u32) -> Self {
        // Every index is taken below 64, so no bits make an invalid square.
        let square = |index: u32| Square::from_index((index % SQUARES) as u8);
        if bits < TRANSFORMS {
            ReplicaAction::Advance {
                from: square(bits / SQUARES),
                to: square(bits),
            }
        } else {
            ReplicaAction::Transform(square(bits - TRANSFORMS))
        }
    }
}

impl Encoding for Replica {
    fn num_distinct_actions(_: &ReplicaOptions) -> usize {
        ACTIONS as usize
    }

    fn action_id(&self, action: ReplicaAction) -> u32 {
        action.pack()
    }

    /// Every decision lowers the mover's potential: at most 302 (spec §4).
    fn max_decisions(_: &ReplicaOptions) -> usize {
        Replica::INFO.max_turns as usize
    }

    fn action_from_id(&self, id: u32) -> Option<ReplicaAction> {
        (id < ACTIONS).then(|| ReplicaAction::unpack(id))
    }

    fn observation_shape(_: &ReplicaOptions) -> [usize; 3] {
        [PLANES, 8, 8]
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        let me = seat.to_usize().min(1);
        for (group, side) in [me, 1 - me].into_iter().enumerate() {
            let kings = self.kings[side];
            let mut pieces = self.pieces[side];
            while pieces != 0 {
                let square = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let king = usize::from(kings >> square & 1 != 0);
                let cell = (7 - square / 8) * 8 + square % 8;
                out[(2 * group + king) * CELLS + cell] = 1.0;
            }
        }
        fill_plane(out, CELLS, 4, f32::from(me == 0));
        fill_plane(out, CELLS, 5, f32::from(self.to_move() == Some(seat)));
    }
}
