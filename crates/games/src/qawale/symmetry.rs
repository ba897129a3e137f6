//! The 8 symmetries of the Qawale board (rotations and reflections of the square) and the
//! canonical key they give: the least Zobrist key over a position's 8 images.
//!
//! The rules are the same in every image: the 10 lines (4 ranks, 4 files, 2 long diagonals)
//! map onto lines, orthogonal steps onto orthogonal steps, and the "no step straight back"
//! rule onto itself; hands and the side to move do not move. So an exact value (win, draw or
//! loss and its distance) is the same for all 8 images, and a solver stores it once.

use super::state::{side_key, stone_key, Qawale, LIGHT};
use super::tables::Square;

/// Square `s`'s image under each symmetry, by square index.
pub(super) static IMAGES: [[u8; 16]; 8] = images();

const fn images() -> [[u8; 16]; 8] {
    let mut out = [[0u8; 16]; 8];
    let mut s = 0;
    while s < 16 {
        let (f, r) = ((s % 4) as u8, (s / 4) as u8);
        let maps = [
            (f, r),
            (r, 3 - f),
            (3 - f, 3 - r),
            (3 - r, f),
            (3 - f, r),
            (f, 3 - r),
            (r, f),
            (3 - r, 3 - f),
        ];
        let mut k = 0;
        while k < 8 {
            out[k][s] = maps[k].1 * 4 + maps[k].0;
            k += 1;
        }
        s += 1;
    }
    out
}

/// The key of the board seen through symmetry `map`: each stack hashed on its image square.
fn image_key(state: &Qawale, map: &[u8; 16]) -> u64 {
    let mut key = if state.core.to_move == LIGHT {
        side_key()
    } else {
        0
    };
    for square in Square::ALL {
        let image = usize::from(map[square.to_usize()]);
        for level in 0..state.height(square) {
            key ^= stone_key(image, level, state.stone_at(square, level));
        }
    }
    key
}

/// The least key over the 8 images between turns; the plain key during a sowing.
pub(super) fn canonical_key(state: &Qawale) -> u64 {
    if state.is_sowing() {
        return state.key;
    }
    IMAGES
        .iter()
        .map(|map| image_key(state, map))
        .min()
        .unwrap_or(state.key)
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};

    use super::*;
    use crate::qawale::QawaleOptions;

    /// The position string of `state`'s board seen through `map`.
    fn image_position(state: &Qawale, map: &[u8; 16]) -> String {
        let mut cells: [String; 16] = core::array::from_fn(|_| "-".to_string());
        for square in Square::ALL {
            let stones: String = (0..state.height(square))
                .map(|level| state.stone_at(square, level).letter())
                .collect();
            if !stones.is_empty() {
                cells[usize::from(map[square.to_usize()])] = stones;
            }
        }
        let ranks: Vec<String> = (0..4)
            .rev()
            .map(|rank| cells[rank * 4..rank * 4 + 4].join(","))
            .collect();
        let side = state
            .position()
            .rsplit(' ')
            .next()
            .unwrap_or("D")
            .to_string();
        format!("{} {side}", ranks.join("/"))
    }

    #[test]
    fn the_images_are_the_eight_symmetries_of_the_square() {
        let mut seen: Vec<[u8; 16]> = IMAGES.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 8);
        assert_eq!(IMAGES[0], core::array::from_fn(|i| i as u8));
    }

    #[test]
    fn every_image_of_a_position_has_its_canonical_key_and_legal_turns() {
        let options = QawaleOptions::default();
        let mut state = Qawale::new(&options, 0);
        let mut actions = Vec::new();
        // Seven turns of varied decisions, ending between turns.
        for i in 0..200 {
            if state.turn() == 7 && !state.is_sowing() {
                break;
            }
            state.legal_actions(&mut actions);
            state.apply(actions[(i * 7 + 3) % actions.len()]);
        }
        assert!(state.outcome().is_none());
        state.legal_actions(&mut actions);
        let count = actions.len();
        let mut plain = Vec::new();
        for map in &IMAGES {
            let image = Qawale::from_position(&image_position(&state, map), &options).unwrap();
            assert_eq!(image.canonical_key(), state.canonical_key());
            image.legal_actions(&mut actions);
            assert_eq!(actions.len(), count);
            plain.push(image.key());
        }
        plain.sort_unstable();
        plain.dedup();
        assert!(plain.len() > 1, "the images differ as positions");
        assert_eq!(image_key(&state, &IMAGES[0]), state.key);
    }
}
