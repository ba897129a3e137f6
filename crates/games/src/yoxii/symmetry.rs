//! The 8 symmetries of the Yoxii board (the 7×7 grid without its corners is a square with its
//! corners cut, so every rotation and reflection of the square maps it onto itself) and the
//! canonical key they give: the least Zobrist key over a position's 8 images.
//!
//! The rules are the same in every image: the Totem's 8 directions map onto the 8 directions,
//! "adjacent" (the 8-neighbourhood) onto itself, and scoring counts values around the Totem,
//! which the symmetries keep; hands, the side to move and a pending placement do not move.

use super::state::{Yoxii, RED};
use super::tables::{piece_key, totem_key, Square, KEYS, ON_BOARD, PLACING_KEY, RED_KEY, SIZE};

/// The image of `square` under symmetry `k` (0 is the identity).
fn image(square: Square, k: usize) -> Square {
    let (f, r, n) = (square.file(), square.rank(), SIZE - 1);
    let (f, r) = match k {
        0 => (f, r),
        1 => (r, n - f),
        2 => (n - f, n - r),
        3 => (n - r, f),
        4 => (n - f, r),
        5 => (f, n - r),
        6 => (r, f),
        _ => (n - r, n - f),
    };
    Square::new(f, r)
}

/// The key of the position seen through symmetry `k`.
fn image_key(state: &Yoxii, k: usize) -> u64 {
    let mut key = totem_key(image(state.totem, k));
    for (seat, colour) in [
        (0, state.colour[super::state::WHITE]),
        (1, state.colour[RED]),
    ] {
        for square in Square::iter(colour & ON_BOARD) {
            let value = state.values[square.to_usize()];
            key ^= piece_key(seat, value, image(square, k));
        }
    }
    if state.core.to_move == RED {
        key ^= KEYS[RED_KEY];
    }
    if state.placing {
        key ^= KEYS[PLACING_KEY];
    }
    key
}

/// The least key over the 8 images.
pub(super) fn canonical_key(state: &Yoxii) -> u64 {
    (0..8)
        .map(|k| image_key(state, k))
        .min()
        .unwrap_or(state.key)
}

#[cfg(test)]
mod tests {
    use ludus_engine::Rules;

    use super::*;
    use crate::yoxii::YoxiiOptions;

    #[test]
    fn the_images_keep_the_board_and_the_identity_keeps_the_key() {
        for square in Square::iter(ON_BOARD) {
            for k in 0..8 {
                assert_ne!(ON_BOARD & (1 << image(square, k).to_usize()), 0);
            }
        }
        let mut state = Yoxii::new(&YoxiiOptions::default(), 0);
        let mut actions = Vec::new();
        for i in 0..9 {
            state.legal_actions(&mut actions);
            state.apply(actions[(i * 5 + 2) % actions.len()]);
            assert_eq!(image_key(&state, 0), state.key());
            let keys: Vec<u64> = (0..8).map(|k| image_key(&state, k)).collect();
            assert_eq!(keys.iter().min(), state.canonical_key().as_ref());
        }
    }
}
