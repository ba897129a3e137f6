//! `sqrt(ln(visits))`, the factor of a parent's visits in every UCT score, from a table made
//! once for the counts below [`TABLE`], and in `f32` past it.
//!
//! Selection takes it once per node on its path, and the logarithm's call was 3–5 % of a
//! thread's time: in Qawale, whose trees are deep (nine selections an iteration), mostly at
//! nodes of few visits, which the table answers; in Replica, whose trees are shallow, mostly
//! at the root and the first levels, past the table, where the `f32` logarithm costs less than
//! the `f64` one. The scores it enters are `f32` (`Node::mean`, `Node::spread`): an `f64`
//! factor bought nothing.

use std::sync::LazyLock;

/// Visit counts the table covers: 4 KiB, the counts of all but the first few levels.
const TABLE: usize = 1024;

static SQRT_LN: LazyLock<[f32; TABLE]> = LazyLock::new(|| std::array::from_fn(compute));

fn compute(visits: usize) -> f32 {
    // 0 counts as 1 (ln 1 = 0), as the scores always did.
    (visits.max(1) as f32).ln().sqrt()
}

/// `sqrt(ln(visits))`, 0 for 0 and 1 visits; the same bits as computing it.
#[inline]
pub(super) fn sqrt_ln(visits: u32) -> f32 {
    let visits = visits as usize;
    match SQRT_LN.get(visits) {
        Some(&factor) => factor,
        None => compute(visits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_gives_what_computing_gives_to_the_bit() {
        for visits in (0..3 * TABLE as u32).chain([u32::MAX - 1, u32::MAX]) {
            let computed = (visits.max(1) as f32).ln().sqrt();
            assert_eq!(
                sqrt_ln(visits).to_bits(),
                computed.to_bits(),
                "{visits} visits"
            );
        }
    }
}
