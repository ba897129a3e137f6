//! The solver's transposition table: bounds on a position's value, keyed by the game's
//! canonical key (so the images of a position under the board's symmetries share one entry).
//!
//! An entry holds a lower and an upper bound in node-relative scores (distances counted from
//! the position itself, so that the same position met at another turn reads right). Bounds
//! found without meeting the search horizon hold for the true value and serve every later
//! search; bounds that depend on the horizon are kept with the horizon mode and the turns
//! searched, and serve only searches of that mode no deeper than they were.

use super::proved::SOLVER_INFINITY;

/// How an entry's bounds were found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// Without meeting the horizon: bounds on the true value.
    Exact,
    /// With the horizon scored as a loss for the seat to move here (`against_mover`) or for
    /// the other seat, `turns` turns deep.
    Horizon { against_mover: bool, turns: u32 },
}

/// One slot.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub key: u64,
    pub lower: i32,
    pub upper: i32,
    pub kind: Kind,
    /// The index (in legal-action order) of the best decision found, for ordering.
    pub best: u16,
}

const EMPTY: Entry = Entry {
    key: 0,
    lower: -SOLVER_INFINITY,
    upper: SOLVER_INFINITY,
    kind: Kind::Exact,
    best: u16::MAX,
};

/// A fixed-size table, one entry per slot, the newest search's entry winning a slot.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Entry>,
    mask: u64,
}

impl Table {
    /// A table of about `megabytes` MB (at least one slot).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes << 20) / std::mem::size_of::<Entry>();
        let size = wanted.max(2).next_power_of_two() / 2;
        Table {
            slots: vec![EMPTY; size.max(1)],
            mask: size.max(1) as u64 - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // The table has at most 2^63 slots, so the masked key fits a usize on 64-bit targets.
        usize::try_from(key & self.mask).unwrap_or(0)
    }

    /// The entry for `key`, if the slot holds it.
    pub fn get(&self, key: u64) -> Option<&Entry> {
        let entry = &self.slots[self.slot(key)];
        (entry.key == key).then_some(entry)
    }

    /// Stores bounds for `key`; bounds of the same key and kind already there are kept too
    /// (both hold), and an exact entry is not replaced by a horizon one of the same key.
    pub fn put(&mut self, mut entry: Entry) {
        let slot = self.slot(entry.key);
        let old = self.slots[slot];
        if old.key == entry.key {
            if old.kind == entry.kind {
                entry.lower = entry.lower.max(old.lower);
                entry.upper = entry.upper.min(old.upper);
            } else if old.kind == Kind::Exact {
                return;
            }
        }
        self.slots[slot] = entry;
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(EMPTY);
    }
}

/// `score` (root-relative: distances from the search root) as stored: relative to a node
/// `elapsed` turns below the root.
pub(crate) fn to_node(score: i32, elapsed: u32) -> i32 {
    shift(score, -i32::try_from(elapsed).unwrap_or(0))
}

/// A stored node-relative `score` read back at a node `elapsed` turns below the root.
pub(crate) fn to_root(score: i32, elapsed: u32) -> i32 {
    shift(score, i32::try_from(elapsed).unwrap_or(0))
}

/// Moves a win or loss `by` turns further away (closer when negative); draws and the
/// infinities stay.
fn shift(score: i32, by: i32) -> i32 {
    if score.abs() >= SOLVER_INFINITY || score == 0 {
        score
    } else if score > 0 {
        score - by
    } else {
        score + by
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Proved;

    #[test]
    fn distances_move_with_the_node() {
        let win3 = Proved::Win(3).score();
        assert_eq!(to_node(win3, 1), Proved::Win(2).score());
        assert_eq!(to_root(to_node(win3, 1), 1), win3);
        assert_eq!(to_node(0, 4), 0);
        assert_eq!(to_node(-SOLVER_INFINITY, 4), -SOLVER_INFINITY);
    }

    #[test]
    fn bounds_of_one_key_are_combined() {
        let mut table = Table::new(1);
        let key = 12345;
        let entry = Entry {
            key,
            lower: 0,
            upper: SOLVER_INFINITY,
            kind: Kind::Exact,
            best: 0,
        };
        table.put(entry);
        table.put(Entry {
            lower: -5,
            upper: 0,
            ..entry
        });
        let got = table.get(key).unwrap();
        assert_eq!((got.lower, got.upper), (0, 0));
        assert!(table.get(key + 1).is_none());
    }
}
