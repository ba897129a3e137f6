//! Where the threads of one tree meet (`parallel=tree`), counted rather than timed, so that a
//! machine with few cores can still say what more threads would share: each thread counts
//! its own (no counter is shared, which would be one more meeting) and the counts are summed
//! when the threads are done.
//!
//! A thread meets another where it writes a node's statistics that another thread wrote last:
//! the cache line holding them then comes from the other thread's core (a *handover*, the
//! cost that sets the pace of tree parallelism once the playouts are short). Each node keeps
//! the number of the thread that wrote it last for that (`Node::hand_to`). A *collision* is
//! the tighter meeting: two threads on one node at once, seen as a visit count that changed
//! between a thread's selection reading it and its own visit counting it.

use serde::Serialize;

/// Levels of the tree told apart in [`Meetings::handovers_by_level`]: the root's children,
/// their children, and every level below.
pub const LEVELS: usize = 3;

/// What the threads of the last search met of one another, summed over the threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Meetings {
    /// Iterations run, by all threads.
    pub iterations: u64,
    /// Visits and rewards written to nodes as they happened.
    pub writes: u64,
    /// Of [`Meetings::writes`], those to a node another thread wrote last.
    pub handovers: u64,
    /// [`Meetings::handovers`] by the level of the node: the root's children, the level
    /// below, and all deeper ones.
    pub handovers_by_level: [u64; LEVELS],
    /// Nodes whose statistics selections read (the children scanned at each level).
    ///
    /// Which of them another thread wrote last is not counted: that test of every child
    /// scanned was 7 % of a Replica iteration's instructions on the shared tree
    /// (`docs/SCALING.md`, "Where the threads meet, counted").
    pub reads: u64,
    /// Visits that found the node's count changed by another thread since their selection
    /// read it.
    pub collisions: u64,
    /// Visits and rewards held back on the busiest nodes and written later in bulk (see
    /// `held_back`): not counted in [`Meetings::writes`].
    pub held: u64,
    /// Expansions a thread waited for, another thread creating the same node's children.
    pub waits: u64,
}

impl Meetings {
    /// Counts one write at `level` (1: a child of the root) that was (`handed`) or was not
    /// a handover.
    #[inline]
    pub(super) fn write(&mut self, level: usize, handed: bool) {
        self.writes += 1;
        if handed {
            self.handovers += 1;
            self.handovers_by_level[level.clamp(1, LEVELS) - 1] += 1;
        }
    }

    /// Counts a selection that read `scanned` nodes.
    #[inline]
    pub(super) fn read(&mut self, scanned: u32) {
        self.reads += u64::from(scanned);
    }

    /// Adds another thread's counts.
    pub fn add(&mut self, other: &Meetings) {
        self.iterations += other.iterations;
        self.writes += other.writes;
        self.handovers += other.handovers;
        for (mine, theirs) in self
            .handovers_by_level
            .iter_mut()
            .zip(other.handovers_by_level)
        {
            *mine += theirs;
        }
        self.reads += other.reads;
        self.collisions += other.collisions;
        self.held += other.held;
        self.waits += other.waits;
    }

    /// The counts of `all` summed; `None` if there are none (a search with no shared tree).
    pub fn total(all: impl IntoIterator<Item = Meetings>) -> Option<Meetings> {
        all.into_iter().reduce(|mut sum, met| {
            sum.add(&met);
            sum
        })
    }

    /// `count` per iteration on average (0 without iterations).
    pub fn per_iteration(&self, count: u64) -> f64 {
        count as f64 / self.iterations.max(1) as f64
    }

    /// Handovers per iteration: the lines passed between cores by an iteration on average.
    pub fn handovers_per_iteration(&self) -> f64 {
        self.per_iteration(self.handovers)
    }

    /// The share of the visits and rewards that were held back rather than written at once.
    pub fn held_share(&self) -> f64 {
        self.held as f64 / (self.held + self.writes).max(1) as f64
    }

    /// The counts per iteration, as `ludus bench --json` and `mcts_scaling` print them.
    pub fn rates(&self) -> MeetingRates {
        MeetingRates {
            iterations: self.iterations,
            handovers: self.handovers_per_iteration(),
            handovers_by_level: self.handovers_by_level.map(|n| self.per_iteration(n)),
            writes: self.per_iteration(self.writes),
            collisions_per_1000: 1000.0 * self.per_iteration(self.collisions),
            waits_per_1000: 1000.0 * self.per_iteration(self.waits),
            held_share: self.held_share(),
            reads: self.per_iteration(self.reads),
        }
    }
}

/// [`Meetings`] per iteration (see [`Meetings::rates`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeetingRates {
    /// Iterations run, by all threads.
    pub iterations: u64,
    /// Handovers an iteration.
    pub handovers: f64,
    /// Handovers an iteration by level (see [`Meetings::handovers_by_level`]).
    pub handovers_by_level: [f64; LEVELS],
    /// Writes an iteration.
    pub writes: f64,
    /// Collisions per 1,000 iterations.
    pub collisions_per_1000: f64,
    /// Expansions waited for per 1,000 iterations.
    pub waits_per_1000: f64,
    /// See [`Meetings::held_share`].
    pub held_share: f64,
    /// Nodes read an iteration.
    pub reads: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_are_counted_by_level_and_summed() {
        let mut one = Meetings::default();
        one.write(1, true);
        one.write(2, false);
        one.write(7, true);
        assert_eq!(one.writes, 3);
        assert_eq!(one.handovers, 2);
        assert_eq!(one.handovers_by_level, [1, 0, 1]);
        let mut sum = Meetings {
            iterations: 4,
            ..Meetings::default()
        };
        sum.add(&one);
        sum.add(&one);
        assert_eq!(sum.handovers_by_level, [2, 0, 2]);
        assert!((sum.handovers_per_iteration() - 1.0).abs() < 1e-12);
        assert_eq!(Meetings::total([one, one]).map(|m| m.handovers), Some(4));
        assert_eq!(Meetings::total([]), None);
    }

    #[test]
    fn rates_are_the_counts_per_iteration() {
        let met = Meetings {
            iterations: 200,
            writes: 300,
            handovers: 50,
            handovers_by_level: [10, 0, 40],
            reads: 4000,
            collisions: 3,
            held: 100,
            waits: 1,
        };
        assert_eq!(
            met.rates(),
            MeetingRates {
                iterations: 200,
                handovers: 0.25,
                handovers_by_level: [0.05, 0.0, 0.2],
                writes: 1.5,
                collisions_per_1000: 15.0,
                waits_per_1000: 5.0,
                held_share: 0.25,
                reads: 20.0,
            }
        );
    }
}
