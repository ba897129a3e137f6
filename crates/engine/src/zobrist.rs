//! Zobrist key tables, generated at compile time from a fixed seed with SplitMix64.
//!
//! Each game declares `static KEYS: [u64; N] = zobrist_table(seed)` for its features and XORs
//! entries in and out as pieces move, so `key()` is updated incrementally by `apply`.

/// One step of SplitMix64: a fast, well-mixed 64-bit generator usable in `const` code.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// `N` pseudo-random keys from `seed` (different seeds give unrelated tables).
pub const fn zobrist_table<const N: usize>(seed: u64) -> [u64; N] {
    let mut table = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix64(state);
        state = next;
        table[i] = value;
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        const KEYS: [u64; 512] = zobrist_table(42);
        let mut sorted = KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 512);
        assert!(!KEYS.contains(&0));
        assert_ne!(zobrist_table::<4>(1), zobrist_table::<4>(2));
    }
}
