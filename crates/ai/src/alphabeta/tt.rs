//! The transposition table: a fixed-size array of two-entry buckets indexed by the position's
//! Zobrist `key()`.
//!
//! Replacement: the first entry of a bucket keeps the deepest result of the current search
//! (it is replaced by a deeper or equal draft, or by anything once it is from an older
//! search); the second entry always takes the newest result. An entry for the same key is
//! always updated. Forced-result scores are stored relative to the node (distance from it, not
//! from the root) and converted back on probing, so they stay right wherever a position recurs.

use crate::score::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<A> {
    /// The full key, to tell apart positions sharing a bucket.
    pub key: u64,
    /// The best decision found, if any.
    pub action: Option<A>,
    /// The score, relative to the node for forced results.
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: u16,
    /// How the score bounds the value.
    pub bound: Bound,
    age: u8,
}

/// A transposition table of fixed size; size 0 disables it.
#[derive(Debug)]
pub(crate) struct Table<A> {
    slots: Vec<Option<Entry<A>>>,
    wanted: usize,
    age: u8,
}

impl<A: Copy> Table<A> {
    /// A table of about `megabytes` MB (a power of two of buckets), allocated on first use.
    pub(crate) fn with_megabytes(megabytes: usize) -> Self {
        let bytes = megabytes.saturating_mul(1 << 20);
        let bucket = 2 * std::mem::size_of::<Option<Entry<A>>>();
        let buckets = bytes / bucket;
        let wanted = if buckets == 0 {
            0
        } else {
            2 * (1usize << buckets.ilog2())
        };
        Table {
            slots: Vec::new(),
            wanted,
            age: 0,
        }
    }

    /// Prepares for a new search: allocates on first use and ages the old entries.
    pub(crate) fn new_search(&mut self) {
        if self.slots.len() != self.wanted {
            self.slots = vec![None; self.wanted];
        }
        self.age = self.age.wrapping_add(1);
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot = None);
    }

    fn bucket(&self, key: u64) -> usize {
        // `slots.len()` is zero or twice a power of two.
        (key as usize & (self.slots.len() / 2).wrapping_sub(1)) * 2
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<&Entry<A>> {
        if self.slots.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .flatten()
            .find(|entry| entry.key == key)
    }

    /// Stores a result for `key` (see the module doc for the replacement scheme).
    pub(crate) fn store(
        &mut self,
        key: u64,
        action: Option<A>,
        score: i32,
        depth: u16,
        bound: Bound,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let b = self.bucket(key);
        let age = self.age;
        let same = |slot: &Option<Entry<A>>| slot.as_ref().is_some_and(|e| e.key == key);
        let index = if same(&self.slots[b]) {
            b
        } else if same(&self.slots[b + 1]) {
            b + 1
        } else {
            match &self.slots[b] {
                Some(old) if old.age == age && old.depth > depth => b + 1,
                _ => b,
            }
        };
        let action = action.or_else(|| {
            self.slots[index]
                .as_ref()
                .filter(|e| e.key == key)
                .and_then(|e| e.action)
        });
        self.slots[index] = Some(Entry {
            key,
            action,
            score,
            depth,
            bound,
            age,
        });
    }
}

/// A score as stored: forced results counted from the node `ply` decisions below the root.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score read back at a node `ply` decisions below the root.
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::WIN_SCORE;

    use super::*;

    #[test]
    fn entries_are_found_by_key_and_replaced_by_scheme() {
        let mut table = Table::<u8>::with_megabytes(1);
        table.new_search();
        assert!(table.probe(5).is_none());
        table.store(5, Some(1), 10, 3, Bound::Exact);
        let entry = table.probe(5).unwrap();
        assert_eq!((entry.action, entry.score, entry.depth), (Some(1), 10, 3));
        // A same-key store without a move keeps the old move.
        table.store(5, None, 12, 4, Bound::Lower);
        assert_eq!(table.probe(5).unwrap().action, Some(1));
        // Another key in the same bucket goes to the always-replace slot.
        let other = 5 + (table.slots.len() as u64 / 2);
        table.store(other, Some(2), 0, 1, Bound::Upper);
        assert!(table.probe(5).is_some() && table.probe(other).is_some());
    }

    #[test]
    fn a_zero_size_table_stores_nothing() {
        let mut table = Table::<u8>::with_megabytes(0);
        table.new_search();
        table.store(5, Some(1), 10, 3, Bound::Exact);
        assert!(table.probe(5).is_none());
    }

    #[test]
    fn forced_scores_are_stored_relative_to_the_node() {
        let win_in_5 = WIN_SCORE - 5;
        assert_eq!(from_table(to_table(win_in_5, 2), 2), win_in_5);
        assert_eq!(from_table(to_table(win_in_5, 2), 4), WIN_SCORE - 7);
        assert_eq!(to_table(-win_in_5, 2), -(WIN_SCORE - 3));
        assert_eq!(to_table(37, 9), 37);
    }
}
