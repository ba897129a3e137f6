//! The transposition table: a fixed-size array of two-entry buckets indexed by the position's
//! Zobrist `key()`, shared without locks by the threads of one search (Lazy SMP).
//!
//! Replacement: the first entry of a bucket keeps the deepest result of the current search
//! (it is replaced by a deeper or equal draft, or by anything once it is from an older
//! search); the second entry always takes the newest result. An entry for the same key is
//! always updated. Forced-result scores are stored relative to the node (distance from it, not
//! from the root) and converted back on probing, so they stay right wherever a position recurs.
//!
//! Lock-free sharing: an entry is two `AtomicU64`s, the packed data and `key ^ data` (the
//! "xor trick" of Hyatt and Mann). Two threads writing the same slot at once may leave one's
//! key word with the other's data word; the key recomputed from them then no longer matches,
//! so a torn entry reads as empty rather than as a wrong result. Actions are generic, so an
//! entry keeps the best decision as its index in the position's `legal_actions` order, which
//! the rules make deterministic; the caller turns it back into an action.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::score::MATE_BOUND;

/// The index stored for "no decision" (14 bits: positions with more decisions store none).
const NO_MOVE: u64 = (1 << 14) - 1;

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

impl Bound {
    /// Never 0, so that packed data is never 0: 0 marks an empty slot.
    fn code(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Entry {
    /// The full key, to tell apart positions sharing a bucket.
    pub key: u64,
    /// The best decision found, if any, as its index in the position's legal decisions.
    pub action: Option<usize>,
    /// The score, relative to the node for forced results.
    pub score: i32,
    /// The remaining depth the score was searched to (at most 255).
    pub depth: u16,
    /// How the score bounds the value.
    pub bound: Bound,
    age: u8,
}

impl Entry {
    /// The entry as one word: score (32 bits), action (14), depth (8), bound (2), age (8).
    fn pack(&self) -> u64 {
        let action = self.action.map_or(NO_MOVE, |i| (i as u64).min(NO_MOVE));
        u64::from(self.score as u32)
            | action << 32
            | u64::from(self.depth.min(255)) << 46
            | self.bound.code() << 54
            | u64::from(self.age) << 56
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match (data >> 54) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let action = (data >> 32) & NO_MOVE;
        Some(Entry {
            key,
            action: (action != NO_MOVE).then_some(action as usize),
            score: data as u32 as i32,
            depth: ((data >> 46) & 255) as u16,
            bound,
            age: (data >> 56) as u8,
        })
    }
}

/// The layout of an entry before the table was shared, kept only to size tables as then.
#[allow(dead_code)]
pub(crate) struct FormerEntry<A> {
    key: u64,
    action: Option<A>,
    score: i32,
    depth: u16,
    bound: Bound,
    age: u8,
}

/// One slot: the packed entry and its key xor-ed with it.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry stored here if it is whole and for `key`.
    fn read(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Entry::unpack(key, data)
    }

    /// Whatever entry is stored here, for the replacement decision (its key is unchecked).
    fn any(&self) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        Entry::unpack(check ^ data, data)
    }

    fn write(&self, entry: &Entry) {
        let data = entry.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(entry.key ^ data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// A transposition table of fixed size; size 0 disables it. Probes and stores take `&self`,
/// so any number of threads may share one table.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Slot>,
    wanted: usize,
    age: u8,
}

impl Table {
    /// A table of about `megabytes` MB (a power of two of buckets), allocated on first use.
    /// The number of buckets is counted with the size the entries had when they held an
    /// action of type `A` itself ([`FormerEntry`]), so that a given `hash` keeps its buckets
    /// and the search fingerprints (`ludus bench --search-depth`) their values.
    pub(crate) fn with_megabytes<A>(megabytes: usize) -> Self {
        let bytes = megabytes.saturating_mul(1 << 20);
        let buckets = bytes / (2 * std::mem::size_of::<Option<FormerEntry<A>>>());
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

    /// A table of at most `megabytes` MB as allocated: the most slots, a power of two, that
    /// fit (what a driver's `Hash` option asks for).
    pub(crate) fn with_allocated_megabytes(megabytes: usize) -> Self {
        let slots = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Slot>();
        Table {
            slots: Vec::new(),
            wanted: if slots < 2 { 0 } else { 1 << slots.ilog2() },
            age: 0,
        }
    }

    /// Prepares for a new search: allocates on first use and ages the old entries.
    pub(crate) fn new_search(&mut self) {
        self.allocate();
        self.age = self.age.wrapping_add(1);
    }

    /// Allocates the table now if it is not yet; returns its size in bytes.
    pub(crate) fn allocate(&mut self) -> usize {
        if self.slots.len() != self.wanted {
            self.slots = std::iter::repeat_with(Slot::default)
                .take(self.wanted)
                .collect();
        }
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.slots.iter().for_each(Slot::clear);
    }

    fn bucket(&self, key: u64) -> usize {
        // `slots.len()` is zero or twice a power of two.
        (key as usize & (self.slots.len() / 2).wrapping_sub(1)) * 2
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().find_map(|slot| slot.read(key))
    }

    /// Stores a result for `key` (see the module doc for the replacement scheme); `action`
    /// is the index of the best decision among the position's legal decisions.
    pub(crate) fn store(
        &self,
        key: u64,
        action: Option<usize>,
        score: i32,
        depth: u16,
        bound: Bound,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let b = self.bucket(key);
        let age = self.age;
        let (first, second) = (self.slots[b].read(key), self.slots[b + 1].read(key));
        let index = if first.is_some() {
            b
        } else if second.is_some() {
            b + 1
        } else {
            match self.slots[b].any() {
                Some(old) if old.age == age && old.depth > depth.min(255) => b + 1,
                _ => b,
            }
        };
        let action = action.or_else(|| first.or(second).and_then(|e| e.action));
        self.slots[index].write(&Entry {
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
        let mut table = Table::with_megabytes::<u8>(1);
        table.new_search();
        assert!(table.probe(5).is_none());
        table.store(5, Some(1), 10, 3, Bound::Exact);
        let entry = table.probe(5).unwrap();
        assert_eq!((entry.action, entry.score, entry.depth), (Some(1), 10, 3));
        // A same-key store without a move keeps the old move.
        table.store(5, None, -12, 4, Bound::Lower);
        let entry = table.probe(5).unwrap();
        assert_eq!(
            (entry.action, entry.score, entry.bound),
            (Some(1), -12, Bound::Lower)
        );
        // Another key in the same bucket goes to the always-replace slot.
        let other = 5 + (table.slots.len() as u64 / 2);
        table.store(other, Some(2), 0, 1, Bound::Upper);
        assert!(table.probe(5).is_some() && table.probe(other).is_some());
        // Key 0 is a key like any other, not an empty slot.
        assert!(table.probe(0).is_none());
        table.store(0, None, 7, 2, Bound::Exact);
        assert_eq!(table.probe(0).map(|e| (e.action, e.score)), Some((None, 7)));
    }

    #[test]
    fn a_zero_size_table_stores_nothing() {
        let mut table = Table::with_megabytes::<u8>(0);
        table.new_search();
        table.store(5, Some(1), 10, 3, Bound::Exact);
        assert!(table.probe(5).is_none());
    }

    #[test]
    fn a_torn_entry_reads_as_empty() {
        let mut table = Table::with_megabytes::<u8>(1);
        table.new_search();
        table.store(9, Some(3), 40, 5, Bound::Exact);
        // What a race leaves: the data word of another store under the first one's check.
        let b = table.bucket(9);
        let foreign = Entry::unpack(9, table.slots[b].data.load(Ordering::Relaxed))
            .map(|e| Entry { score: -40, ..e })
            .unwrap();
        table.slots[b].data.store(foreign.pack(), Ordering::Relaxed);
        assert!(table.probe(9).is_none());
    }

    #[test]
    fn threads_sharing_the_table_never_read_a_torn_entry() {
        // Each key's score is a function of the key: any entry read must carry it.
        let mut table = Table::with_megabytes::<u8>(1);
        table.new_search();
        let buckets = table.slots.len() as u64 / 2;
        let score_of = |key: u64| (key % 1000) as i32 - 500;
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for n in 0..50_000u64 {
                        // Few buckets, many keys: threads keep overwriting each other.
                        let key = (n * 7 + thread) % 64 * buckets / 64 + (n % 5) * buckets;
                        table.store(key, Some(n as usize % 50), score_of(key), 4, Bound::Lower);
                        if let Some(entry) = table.probe(key ^ buckets) {
                            assert_eq!(entry.score, score_of(key ^ buckets));
                        }
                    }
                });
            }
        });
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
