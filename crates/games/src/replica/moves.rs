//! Replica's actions and their generation: advances (steps and jumps) and transforms
//! (spec §3), in the §3.3 order, with no allocation beyond the caller's buffer.

use super::rules::Sight;
use super::state::Replica;
use super::tables::{nearest, Dir, Square, RAYS};

/// One Replica decision (each turn is exactly one).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ReplicaAction {
    /// The piece on `from` advances to `to`, passing over friendly pieces and capturing an
    /// enemy on `to` (`c3-d4`, `c3xc6`).
    Advance {
        /// The moving piece's square.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// The non-king on this square, seen by a friendly king, becomes a king (`b2*`).
    Transform(Square),
}

/// The three forward directions of each side (spec §3), in generation order: vertical,
/// horizontal, diagonal.
pub const FORWARD: [[Dir; 3]; 2] = [[Dir::N, Dir::E, Dir::NE], [Dir::S, Dir::W, Dir::SW]];

/// The seed's names of the three forward directions, by index into [`FORWARD`].
pub const DIRECTION_NAMES: [&str; 3] = ["vertical", "horizontal", "diagonal"];

/// The squares one step ahead of a piece of `own` (the pieces of `side`) in one of its
/// forward directions that `own` does not hold: where such a square exists, that piece can
/// advance.
#[inline]
fn next_door_steps(own: u64, side: usize) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let ahead = if side == 0 {
        // North (+8), east (+1) and north-east (+9); a step east leaves file h.
        (own << 8) | ((own & !FILE_H) << 1) | ((own & !FILE_H) << 9)
    } else {
        // South (-8), west (-1) and south-west (-9); a step west leaves file a.
        (own >> 8) | ((own & !FILE_A) >> 1) | ((own & !FILE_A) >> 9)
    };
    ahead & !own
}

/// The squares `reached` reaches stepping `SHIFT` bit indices at a time (down the indices
/// for a negative shift) through the squares of `open`, its own squares included: an
/// occluded fill (Kogge-Stone), three doublings covering the seven steps of a board.
#[inline]
fn occluded_fill<const SHIFT: i32>(mut reached: u64, mut open: u64) -> u64 {
    for doubling in [1, 2, 4] {
        let shift = SHIFT.unsigned_abs() * doubling;
        let step = |bits: u64| {
            if SHIFT > 0 {
                bits << shift
            } else {
                bits >> shift
            }
        };
        reached |= open & step(reached);
        open &= step(open);
    }
    reached
}

/// The squares that `kings` (of `side`) see when only `enemy` pieces block sight, the kings'
/// own squares included: one fill per direction for all the kings at once, where walking
/// each king's rays took a loop of unpredictable length.
#[inline]
fn seen_by(kings: u64, enemy: u64, sight: Sight, side: usize) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let open = !enemy;
    // A step east never enters file a, a step west never file h (they would wrap a rank).
    let (east, west) = (open & !FILE_A, open & !FILE_H);
    let up = |kings| {
        // North (+8), east (+1), north-east (+9).
        occluded_fill::<8>(kings, open)
            | occluded_fill::<1>(kings, east)
            | occluded_fill::<9>(kings, east)
    };
    let down = |kings| {
        // South (-8), west (-1), south-west (-9).
        occluded_fill::<-8>(kings, open)
            | occluded_fill::<-1>(kings, west)
            | occluded_fill::<-9>(kings, west)
    };
    match (sight, side) {
        (Sight::Forward3, 0) => up(kings),
        (Sight::Forward3, _) => down(kings),
        // And north-west (+7), south-east (-7).
        (Sight::All8, _) => {
            up(kings)
                | down(kings)
                | occluded_fill::<7>(kings, west)
                | occluded_fill::<-7>(kings, east)
        }
    }
}

/// Where a piece of a side owning `own` on `from` lands moving in `d`: the first square past
/// `from` that holds no friendly piece, or `None` if friendly pieces run to the edge.
#[inline]
pub fn advance_target(own: u64, from: Square, d: Dir) -> Option<Square> {
    let open = RAYS[d.to_usize()][from.to_usize()] & !own;
    (open != 0).then(|| Square::from_index(nearest(open, d)))
}

/// The non-kings of `side` that a friendly king sees (only enemies block sight, §3.2), on
/// the board of `pieces` and `kings` (by side index).
#[inline]
pub(super) fn transformable_in(
    pieces: &[u64; 2],
    kings: &[u64; 2],
    sight: Sight,
    side: usize,
) -> u64 {
    let own_kings = kings[side];
    seen_by(own_kings, pieces[1 - side], sight, side) & pieces[side] & !own_kings
}

/// Whether `side` has any legal action on the board of `pieces` and `kings` (ignoring whether
/// the game is over). Stops at the first one found; the spec proves it is always true for a
/// side with a king.
#[inline]
pub(super) fn has_action_in(
    pieces: &[u64; 2],
    kings: &[u64; 2],
    sight: Sight,
    side: usize,
) -> bool {
    let own = pieces[side];
    // Asked after every decision, and nearly always some piece has a square not its own
    // side's right next to it ahead: three shifts find it before any ray is walked.
    if next_door_steps(own, side) != 0 {
        return true;
    }
    let movable = FORWARD[side].iter().any(|&d| {
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if RAYS[d.to_usize()][from] & !own != 0 {
                return true;
            }
        }
        false
    });
    movable || transformable_in(pieces, kings, sight, side) != 0
}

impl Replica {
    /// Fills `out` (cleared first) with the legal actions of the side to move, in §3.3 order:
    /// squares a1 b1 … h8, and for each piece vertical, horizontal, diagonal, then transform.
    pub(super) fn generate(&self, out: &mut Vec<ReplicaAction>) {
        out.clear();
        if self.core.outcome.is_some() {
            return;
        }
        if self.side() == 0 {
            self.generate_for::<true>(out);
        } else {
            self.generate_for::<false>(out);
        }
    }

    /// The generator for one side, `WHITE` fixed at compile time so that the direction of
    /// every ray (growing bit indices for White, shrinking for Black) is known. Actions go to a
    /// stack buffer first (at most 12 pieces × 4 actions), then into `out` in one copy.
    #[inline]
    fn generate_for<const WHITE: bool>(&self, out: &mut Vec<ReplicaAction>) {
        const MAX_ACTIONS: usize = 48;
        let side = usize::from(!WHITE);
        let own = self.pieces[side];
        let transformable = self.transformable(side);
        let mut buffer = [ReplicaAction::Transform(Square::A1); MAX_ACTIONS];
        let mut n = 0;
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for d in FORWARD[side] {
                let open = RAYS[d.to_usize()][from] & !own;
                if open != 0 {
                    let to = if WHITE {
                        open.trailing_zeros()
                    } else {
                        open.ilog2()
                    };
                    buffer[n] = ReplicaAction::Advance {
                        from: Square::from_index(from as u8),
                        to: Square::from_index(to as u8),
                    };
                    n += 1;
                }
            }
            if transformable >> from & 1 != 0 {
                buffer[n] = ReplicaAction::Transform(Square::from_index(from as u8));
                n += 1;
            }
        }
        out.extend_from_slice(&buffer[..n]);
    }

    /// The non-kings of `side` that a friendly king sees (only enemies block sight, §3.2).
    #[inline]
    pub(super) fn transformable(&self, side: usize) -> u64 {
        transformable_in(&self.pieces, &self.kings, self.core.options.sight, side)
    }

    /// Whether `side` has any legal action (ignoring whether the game is over). Stops at the
    /// first one found; the spec proves it is always true for a side with a king.
    #[inline]
    pub(super) fn has_action(&self, side: usize) -> bool {
        has_action_in(&self.pieces, &self.kings, self.core.options.sight, side)
    }

    /// The forward direction (index into [`FORWARD`]) in which the piece on `from` reaches
    /// `to`, if any.
    pub(super) fn direction_to(&self, from: Square, to: Square) -> Option<usize> {
        let side = self.side();
        let own = self.pieces[side];
        FORWARD[side]
            .iter()
            .position(|&d| advance_target(own, from, d) == Some(to))
    }

    /// Where the piece on `from` of the side to move lands in forward direction `index`.
    pub(super) fn target_in(&self, from: Square, index: usize) -> Option<Square> {
        let side = self.side();
        advance_target(self.pieces[side], from, FORWARD[side][index])
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::super::tables::sight_ray;
    use super::*;

    #[test]
    fn a_jump_passes_friends_and_stops_on_the_first_other_square() {
        let own = Square::new(0, 1).bit() | Square::new(0, 2).bit() | Square::new(0, 3).bit();
        assert_eq!(
            advance_target(own, Square::A1, Dir::N),
            Some(Square::new(0, 4))
        );
        assert_eq!(
            advance_target(own, Square::A1, Dir::E),
            Some(Square::new(1, 0))
        );
        let column = RAYS[Dir::N.to_usize()][0] | 1;
        assert_eq!(advance_target(column, Square::A1, Dir::N), None);
        assert_eq!(
            advance_target(0, Square::H8, Dir::S),
            Some(Square::new(7, 6))
        );
    }

    #[test]
    fn the_squares_next_door_are_the_first_squares_of_the_forward_rays() {
        let mut rng = SmallRng::seed_from_u64(23);
        for case in 0..4_000u32 {
            let bits = rng.next_u64();
            // Sets of every density: random, sparse, dense, and all but one square.
            let own = match case % 4 {
                0 => bits,
                1 => bits & rng.next_u64(),
                2 => bits | rng.next_u64(),
                _ => !0 ^ (1 << (bits % 64)),
            };
            for (side, dirs) in FORWARD.iter().enumerate() {
                let mut expected = 0;
                for from in (0..64).filter(|&i| own & (1 << i) != 0) {
                    for d in dirs {
                        let ray = RAYS[d.to_usize()][from];
                        if ray != 0 {
                            expected |= (1u64 << nearest(ray, *d)) & !own;
                        }
                    }
                }
                assert_eq!(
                    next_door_steps(own, side),
                    expected,
                    "{own:#x}, side {side}"
                );
            }
        }
    }

    #[test]
    fn the_fills_see_what_the_kings_rays_see() {
        let mut rng = SmallRng::seed_from_u64(41);
        for case in 0..4_000u32 {
            let kings = rng.next_u64() & rng.next_u64() & rng.next_u64();
            let enemy = match case % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() & rng.next_u64() & rng.next_u64(),
            } & !kings;
            for (sight, dirs) in [
                (Sight::Forward3, &FORWARD[0][..]),
                (Sight::Forward3, &FORWARD[1][..]),
                (Sight::All8, &Dir::ALL[..]),
            ] {
                let side = usize::from(dirs == FORWARD[1]);
                let mut rays = kings;
                for king in (0..64).filter(|&i| kings >> i & 1 != 0) {
                    for &d in dirs {
                        rays |= sight_ray(Square::from_index(king), d, enemy);
                    }
                }
                let fills = seen_by(kings, enemy, sight, side);
                assert_eq!(
                    fills, rays,
                    "kings {kings:#x} enemy {enemy:#x} {sight:?} {side}"
                );
            }
        }
    }
}
