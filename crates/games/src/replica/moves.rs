//! Replica's actions and their generation: advances (steps and jumps) and transforms
//! (spec §3), in the §3.3 order, with no allocation beyond the caller's buffer.

use super::rules::{Replica, Sight};
use super::tables::{nearest, sight_ray, Direction, Square, RAYS};

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
pub const FORWARD: [[Direction; 3]; 2] = [
    [Direction::N, Direction::E, Direction::NE],
    [Direction::S, Direction::W, Direction::SW],
];

/// The seed's names of the three forward directions, by index into [`FORWARD`].
pub const DIRECTION_NAMES: [&str; 3] = ["vertical", "horizontal", "diagonal"];

/// Where a piece of a side owning `own` on `from` lands moving in `d`: the first square past
/// `from` that holds no friendly piece, or `None` if friendly pieces run to the edge.
#[inline]
pub fn advance_target(own: u64, from: Square, d: Direction) -> Option<Square> {
    let open = RAYS[d.to_usize()][from.to_usize()] & !own;
    (open != 0).then(|| Square::from_index(nearest(open, d)))
}

impl Replica {
    /// Fills `out` (cleared first) with the legal actions of the side to move, in §3.3 order:
    /// squares a1 b1 … h8, and for each piece vertical, horizontal, diagonal, then transform.
    pub(super) fn generate(&self, out: &mut Vec<ReplicaAction>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let side = self.side();
        let own = self.pieces[side];
        let transformable = self.transformable(side);
        let dirs = FORWARD[side];
        let mut rest = own;
        while rest != 0 {
            let from = Square::from_index(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            for d in dirs {
                if let Some(to) = advance_target(own, from, d) {
                    out.push(ReplicaAction::Advance { from, to });
                }
            }
            if transformable & from.bit() != 0 {
                out.push(ReplicaAction::Transform(from));
            }
        }
    }

    /// The non-kings of `side` that a friendly king sees (only enemies block sight, §3.2).
    pub(super) fn transformable(&self, side: usize) -> u64 {
        let enemy = self.pieces[1 - side];
        let dirs: &[Direction] = match self.options.sight {
            Sight::Forward3 => &FORWARD[side],
            Sight::All8 => &Direction::ALL,
        };
        let mut seen = 0;
        let mut kings = self.kings[side];
        while kings != 0 {
            let king = Square::from_index(kings.trailing_zeros() as u8);
            kings &= kings - 1;
            for &d in dirs {
                seen |= sight_ray(king, d, enemy);
            }
        }
        seen & self.pieces[side] & !self.kings[side]
    }

    /// Whether `side` has any legal action (ignoring whether the game is over). Stops at the
    /// first one found; the spec proves it is always true for a side with a king.
    pub(super) fn has_action(&self, side: usize) -> bool {
        let own = self.pieces[side];
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
        movable || self.transformable(side) != 0
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
    use super::*;

    #[test]
    fn a_jump_passes_friends_and_stops_on_the_first_other_square() {
        let own = Square::new(0, 1).bit() | Square::new(0, 2).bit() | Square::new(0, 3).bit();
        assert_eq!(
            advance_target(own, Square::A1, Direction::N),
            Some(Square::new(0, 4))
        );
        assert_eq!(
            advance_target(own, Square::A1, Direction::E),
            Some(Square::new(1, 0))
        );
        let column = RAYS[Direction::N.to_usize()][0] | 1;
        assert_eq!(advance_target(column, Square::A1, Direction::N), None);
        assert_eq!(
            advance_target(0, Square::H8, Direction::S),
            Some(Square::new(7, 6))
        );
    }
}
