//! What each square's four neighbours hold, one byte per square, kept up to date as objects
//! move: bit `d` is set where the neighbour in direction `d` is empty, bit `4 + d` where it
//! holds a rock. The legal steps read a piece's or a rock's four neighbours in one load.
//!
//! The bytes lie one grid row further into the array than the squares' cells, with a row
//! of room after the last cell: a square's cell (masked into the board array, as
//! [`Square::cell`] is) plus or minus a step is then an index the compiler knows to be in
//! bounds, so each neighbour is an address offset from one index, with no mask or bound of
//! its own. Masking each neighbour's cell instead made the compiler build the four indices
//! in a vector register and extract them one by one.

use super::tables::{Dir, Square, BOARD, STRIDE};

/// The neighbour bytes of every cell of the padded grid (cells off the board hold
/// anything).
#[derive(Clone, Debug)]
pub(super) struct Around([u8; BOARD + 2 * STRIDE]);

impl Around {
    /// The bytes of the empty board whose squares reach as far as `reach` says
    /// (`tables::reach`): every neighbour on the board is empty, none holds a rock.
    pub(super) fn empty(reach: &[u8; BOARD]) -> Around {
        let mut bytes = [0; BOARD + 2 * STRIDE];
        for (byte, reach) in bytes[STRIDE..STRIDE + BOARD].iter_mut().zip(reach) {
            *byte = reach & 0xF;
        }
        Around(bytes)
    }

    /// The byte of the square `sq`.
    #[inline]
    pub(super) fn of(&self, sq: Square) -> u8 {
        self.0[sq.cell() + STRIDE]
    }

    /// The square `sq` became empty or stopped being empty (and `rock`: the object that
    /// came or went is a rock): its four neighbours see it change, each in the bits of
    /// the direction that leads back to `sq`.
    #[inline]
    pub(super) fn toggle(&mut self, sq: Square, rock: bool) {
        let flip = 1 | u8::from(rock) << 4;
        let at = sq.cell() + STRIDE;
        self.0[at + STRIDE] ^= flip << Dir::South as u32;
        self.0[at + 1] ^= flip << Dir::West as u32;
        self.0[at - STRIDE] ^= flip << Dir::North as u32;
        self.0[at - 1] ^= flip << Dir::East as u32;
    }
}
