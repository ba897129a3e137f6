//! The names of a grid board's squares (`a1`, `y25`: the file as a letter from `a`, the rank as
//! a number from 1), made once for the whole program. A view names every cell of its board on
//! every call, and a server builds a view after every move: lending these names instead of
//! formatting a `String` per cell keeps a view's cost to the board's contents.

use std::borrow::Cow;
use std::sync::OnceLock;

/// Files `a`..`z`.
const FILES: u8 = 26;
/// Ranks 1..=26: enough for every board a game offers.
const RANKS: u8 = 26;

/// The name of the square on `file` and `rank`, both counted from 0: `grid_name(0, 0)` is `a1`.
/// Squares beyond the table (no game's board reaches them) are named the same way, in an owned
/// string.
pub fn grid_name(file: u8, rank: u8) -> Cow<'static, str> {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    if file >= FILES || rank >= RANKS {
        return Cow::Owned(format!(
            "{}{}",
            char::from(b'a'.saturating_add(file)),
            u32::from(rank) + 1
        ));
    }
    let names = NAMES.get_or_init(|| {
        (0..RANKS)
            .flat_map(|rank| {
                (0..FILES).map(move |file| format!("{}{}", char::from(b'a' + file), rank + 1))
            })
            .collect()
    });
    Cow::Borrowed(&names[usize::from(rank) * usize::from(FILES) + usize::from(file)])
}

#[cfg(test)]
mod tests {
    use super::grid_name;

    #[test]
    fn squares_are_named_file_letter_then_rank_from_one() {
        assert_eq!(grid_name(0, 0), "a1");
        assert_eq!(grid_name(4, 9), "e10");
        assert_eq!(grid_name(24, 24), "y25");
        assert_eq!(grid_name(25, 25), "z26");
        assert!(matches!(grid_name(3, 3), std::borrow::Cow::Borrowed(_)));
    }
}
