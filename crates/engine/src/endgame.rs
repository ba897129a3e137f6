//! Endgame tablebases, the game's side: how a game numbers the positions of an ending and
//! lists the turns between them, so that game-independent code (`ludus-ai`'s retrograde
//! driver) can compute every value and distance, and a search can look positions up.
//!
//! A table holds every position of one [`Material`] (pieces of the side to move and of the
//! other side) at the start of a turn, the side to move being implied: both seats share the
//! table when the rules treat them alike. A turn either keeps the material (a **quiet** turn:
//! the sides swap, so the position lands in the swapped material's table) or takes pieces
//! (an **exit** to a table with fewer pieces, computed first).

use std::fmt;

/// The pieces on the board of the side to move and of the other side: one table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Material {
    /// Pieces of the side to move.
    pub mover: u8,
    /// Pieces of the other side.
    pub other: u8,
}

impl Material {
    /// The material seen by the other side (after a quiet turn).
    #[must_use]
    pub const fn swapped(self) -> Material {
        Material {
            mover: self.other,
            other: self.mover,
        }
    }
}

impl fmt::Display for Material {
    /// `3v2`: three pieces for the side to move, two for the other.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.mover, self.other)
    }
}

/// Where a turn that takes pieces leads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Exit {
    /// The turn wins at once (the other side has nothing left).
    Won,
    /// The position `index` of the table `material` (smaller than the one the turn starts
    /// in), seen from the side that moves next.
    To(Material, u64),
}

/// The turns from one position of a table, filled by [`Endgames::successors`].
#[derive(Clone, Default, Debug)]
pub struct Successors {
    /// The quiet turns: indices into the swapped material's table, each once.
    pub quiet: Vec<u64>,
    /// The turns that take pieces (one entry per distinct result).
    pub exits: Vec<Exit>,
}

/// A game's endgame positions, numbered for tablebases. A position with no turn at all is
/// lost for the side to move; the rules must make the value of a position depend on the
/// position alone (no history: draw rules that count earlier turns are left out and
/// [`EndgameProbe::within`] says where they could change a stored value).
pub trait Endgames: Send + Sync {
    /// Every material with at most `pieces` a side that the tables cover, in an order where
    /// a material's exits lead only to materials listed before it, or to its own group
    /// (itself and its swap).
    fn materials(&self, pieces: u8) -> Vec<Material>;

    /// The number of positions of `material`: indices run from 0 below it.
    fn size(&self, material: Material) -> u64;

    /// Clears `out` and fills it with the turns from position `index` of `material`.
    fn successors(&self, material: Material, index: u64, out: &mut Successors);

    /// Clears `out` and fills it with the positions of `material.swapped()` from which a
    /// quiet turn leads to position `index` of `material`: exactly the inverse of the
    /// `quiet` lists of [`Endgames::successors`].
    fn predecessors(&self, material: Material, index: u64, out: &mut Vec<u64>);

    /// The position string of position `index` of `material` (with one seat to move), for
    /// messages and tests.
    fn position(&self, material: Material, index: u64) -> String;
}

/// Where a position lies in the tables, with how far the stored distances can be trusted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EndgameProbe {
    /// Its table.
    pub material: Material,
    /// Its index there.
    pub index: u64,
    /// A stored win or loss in `d` turns holds under the game's draw rules when `d` is at
    /// most this (the turns left before a draw rule could end the game); `u32::MAX` without
    /// such rules. A stored draw always holds.
    pub within: u32,
}
