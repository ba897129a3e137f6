//! What one thread of a tree-parallel search owns (`parallel=tree`): its generator, its
//! buffer of legal decisions, where it creates nodes, and its count of where it met the
//! other threads; and its visit of a node, written at once or held back.

use crossbeam_utils::CachePadded;
use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::held_back::HeldBack;
use super::meetings::Meetings;
use super::shared_tree::{Node, Room};

/// What one search thread owns: its generator, its buffer of legal decisions and where it
/// creates nodes.
#[derive(Debug)]
pub(super) struct Worker<A> {
    /// The thread's number, from 1, written into the nodes it writes (see `meetings`).
    pub(super) id: u8,
    /// What it met of the other threads in the last search.
    pub(super) meetings: Meetings,
    pub(super) rng: SmallRng,
    pub(super) actions: Vec<A>,
    /// Nodes counted in the tree's size for this thread and not created yet (see
    /// `tree_parallel`'s `children`).
    pub(super) reserved: usize,
    /// Where it creates the children it expands (see `Arena`).
    pub(super) room: Room,
}

impl<A: Copy> Worker<A> {
    /// Counts a visit of `node` at `level` (1: a child of the root), whose visits selection
    /// read as `seen`: on a busy node, held back and added with the reward on the way back
    /// up; else written at once. Returns the visits before it and whether it was held back.
    #[inline]
    pub(super) fn visit(
        &mut self,
        node: &Node<A>,
        seen: u32,
        level: usize,
        held: &HeldBack<'_, A>,
    ) -> (u32, bool) {
        if held.holds(seen) {
            // Counted with the reward on the way back up (`HeldBack::add`): no selection
            // of this thread reads the node before then, and another's reads none of
            // what it holds.
            self.meetings.held += 1;
            return (seen, true);
        }
        let before = node.count_visit();
        self.meetings.write(level, node.hand_to(self.id));
        self.meetings.collisions += u64::from(before != seen);
        (before, false)
    }
}

impl<A> Worker<A> {
    /// The workers of `threads` threads, each seeded from `seed` differently.
    ///
    /// Each on cache lines of its own: a playout writes its worker's generator and buffer
    /// length at every decision, and workers side by side in one `Vec` shared lines, which
    /// the cores then passed back and forth at every step of every playout.
    pub(super) fn team(threads: usize, seed: u64) -> Vec<CachePadded<Self>> {
        (0..threads as u64)
            .map(|i| {
                CachePadded::new(Worker {
                    // At most `MAX_THREADS` (64) threads: the number fits.
                    id: u8::try_from(i + 1).unwrap_or(u8::MAX),
                    meetings: Meetings::default(),
                    rng: SmallRng::seed_from_u64(seed ^ (i << 32)),
                    actions: Vec::new(),
                    reserved: 0,
                    room: Room::default(),
                })
            })
            .collect()
    }
}
