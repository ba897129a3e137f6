//! The tree that several MCTS threads search at once (`parallel=tree`): nodes whose
//! statistics are atomics in an arena of segments, children created once per node, the
//! re-rooting that keeps the tree between decisions, and the analysis read from it when the
//! threads are done.
//!
//! Each node is 32 bytes and holds all that a thread going down needs: its statistics, its
//! decision and where its children are (a `u32` index). A thread going down a level thus
//! waits for one load from memory, that of the children's lines; the chosen child's decision
//! and children are on the lines it has just read. The siblings are contiguous, created all
//! at once by the first thread to expand their parent, in a segment of the arena that this
//! thread took for itself, so that creating nodes needs neither an allocation nor a lock:
//! a thread claims the parent (a compare-and-swap of its child index), writes the children
//! into its segment and publishes them with one release store; a thread arriving meanwhile
//! waits for that (a few stores a child). Boxed children (one allocation per expansion,
//! reached through a pointer, with the statistics of the siblings apart from the rest or with
//! them) measured slower: a second load from memory per level, and the allocator
//! (`docs/SCALING.md`). The arena is flat, so that dropping a tree however deep frees a few
//! segments, with no recursion.
//!
//! Visits and rewards are atomics updated without locks, each by one `fetch_add`: the reward
//! total is kept in fixed point ([`REWARD_UNIT`] units a reward of 1), since a
//! compare-and-swap loop on an `f64`'s bits is repeated whenever another thread wrote the node
//! meanwhile, which the nodes near the root, written by every thread at every iteration, made
//! the rule.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::atomic::{
    AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize,
    Ordering::{Acquire, Relaxed, Release},
};
use std::sync::OnceLock;

use crossbeam_utils::CachePadded;
use ludus_engine::{Game, PackedAction};

use super::{NO_ACTION, NO_SEAT};
use crate::params::MAX_THREADS;
use crate::{Analysis, Evaluation};

/// Units of the fixed-point reward totals for a reward of 1. Rewards lie in `0..=1`, so a
/// node holds up to 2^40 visits' rewards in 64 bits, and a reward is rounded by at most
/// 2^-25, far below what a node's mean can tell apart. Wins, losses and the draw share of two
/// seats are exact.
pub(super) const REWARD_UNIT: f64 = (1u64 << 24) as f64;

/// Bits of a node index that are its place in its segment: 2^16 nodes (2 MiB) a segment, few
/// enough that a small tree takes little memory. Smaller in tests, so that they cross
/// segments.
const SEGMENT_BITS: u32 = if cfg!(test) { 6 } else { 16 };
/// Nodes in a segment.
pub(super) const SEGMENT: usize = 1 << SEGMENT_BITS;
/// The most children a node may have (a node with more is left unexpanded, as in a full
/// tree): a node's children lie in one segment, and a thread leaves its segment for a new one
/// only when the next children do not fit, so each segment it leaves is at least half full.
pub(super) const MAX_CHILDREN: usize = SEGMENT / 2;
/// `first` of a node whose children a thread is creating.
const CLAIMED: u32 = u32::MAX;

/// One node of the shared tree: 32 bytes, its decision packed in 4 of them.
///
/// Aligned to its size so that no node straddles two cache lines: unaligned, a segment's
/// nodes began 16 bytes into a line and every other node lay on two, which cost 3–4 % of
/// the iterations on two threads (Qawale, Yoxii). Siblings are contiguous, two to a line, so
/// two threads updating two siblings can pass one line between the cores (false sharing);
/// giving each node a line of its own (`#[repr(align(64))]`) measured 9 % fewer iterations
/// on two threads (Qawale), as it did 5 % more CPU per iteration with the boxed nodes
/// (Yoxii): the larger tree costs more than the sharing did.
#[derive(Debug)]
#[repr(align(32))]
pub(super) struct Node<A> {
    /// Iterations through this node, counted on the way down: an iteration still running
    /// counts as a visit with no reward yet (the virtual loss that steers the other threads
    /// elsewhere), and when it backs up only its reward is added. The root's is added when the
    /// threads are done (`tree_parallel::search`), so that they need not share its line.
    pub(super) visits: AtomicU32,
    /// `1 / sqrt(visits)` as `f32` bits, stored by the thread that counts a visit, so that
    /// selection (every child of every node on a path) needs no square root. Two threads
    /// counting at once may leave the value of one visit fewer until the next visit: a cache
    /// for exploration, not a statistic (`visits` and `value` stay exact), so an `f32` is
    /// enough, and keeps the node at 32 bytes.
    spread: AtomicU32,
    /// `value / visits` as `f32` bits (0 before the first visit), stored by the thread that
    /// writes either, so that selection reads a child's mean in one load: `value × spread²`
    /// took a conversion and three multiplications a child scanned (a selection scans 108
    /// children an iteration in Replica), where a write (5.6 an iteration) now takes a
    /// division. A cache like `spread`: two threads writing at once may leave it one update
    /// behind until the next write; the analysis reads `value` and `visits` themselves.
    quick_mean: AtomicU32,
    /// Total reward of the seat that chose `action`, in [`REWARD_UNIT`]s.
    value: AtomicU64,
    /// The arena index of the first child: 0 before the node is expanded (the root, index 0,
    /// is no node's child), [`CLAIMED`] while a thread expands it.
    first: AtomicU32,
    /// How many children, and the seat deciding here (`NO_SEAT` if none), whose reward the
    /// children keep: written before `first` is published.
    count: AtomicU16,
    mover: AtomicU8,
    /// The thread that last wrote `visits` or `value`, numbered from 1 (0: none yet), for
    /// the count of meetings (`meetings`): the byte the other fields leave free, on the line
    /// the write has just brought in.
    writer: AtomicU8,
    /// The decision that led here, packed ([`PackedAction`]; [`NO_ACTION`] at the root):
    /// stored by the thread that creates the node, before its parent's `first` publishes it.
    /// A plain store: a once-cell per child, the safe way to publish any decision type, took
    /// two locked atomic operations and a call a child (7.7 ns against 0.3 for the store,
    /// `docs/SCALING.md`), and an expansion creates all the children at once.
    action: AtomicU32,
    decision: PhantomData<A>,
}

impl<A> Node<A> {
    pub(super) fn new() -> Self {
        Node {
            visits: AtomicU32::new(0),
            spread: AtomicU32::new(0f32.to_bits()),
            quick_mean: AtomicU32::new(0f32.to_bits()),
            value: AtomicU64::new(0),
            first: AtomicU32::new(0),
            count: AtomicU16::new(0),
            mover: AtomicU8::new(NO_SEAT),
            writer: AtomicU8::new(0),
            action: AtomicU32::new(NO_ACTION),
            decision: PhantomData,
        }
    }

    /// Notes that thread `thread` (from 1) writes this node; whether another thread wrote
    /// it last. A load and, when the writer changes, a store: two threads writing at once
    /// may both see a handover, a count of meetings and not a statistic.
    #[inline]
    pub(super) fn hand_to(&self, thread: u8) -> bool {
        let last = self.writer.load(Relaxed);
        if last == thread {
            return false;
        }
        self.writer.store(thread, Relaxed);
        last != 0
    }

    /// A copy of `node`'s statistics and decision, with no children.
    fn copy(node: &Node<A>) -> Self {
        let visits = node.visits.load(Relaxed);
        let copy = Node::new();
        copy.visits.store(visits, Relaxed);
        copy.spread.store(spread_of(visits).to_bits(), Relaxed);
        let value = node.value.load(Relaxed);
        copy.value.store(value, Relaxed);
        copy.store_mean(value, visits);
        copy.action.store(node.action.load(Relaxed), Relaxed);
        copy
    }

    /// The seat whose reward the children keep.
    pub(super) fn mover(&self) -> u8 {
        self.mover.load(Relaxed)
    }

    pub(super) fn value(&self) -> f64 {
        // Converted as signed: a total stays below 2^56 (under 2^32 visits of 2^24 units), and
        // the signed conversion is one instruction where the unsigned one takes five (before
        // AVX-512), for every child that selection scans.
        self.value.load(Relaxed) as i64 as f64 / REWARD_UNIT
    }

    /// The mean reward so far (0 before the first visit).
    pub(super) fn mean(&self) -> f64 {
        self.value() / f64::from(self.visits.load(Relaxed).max(1))
    }

    /// Counts a visit on the way down (see `visits`); returns the visits before it.
    pub(super) fn count_visit(&self) -> u32 {
        let before = self.count_visits(1);
        self.store_mean(self.value.load(Relaxed), before.saturating_add(1));
        before
    }

    /// Counts `visits` visits and stores the spread (not the mean); returns the visits
    /// before them.
    fn count_visits(&self, visits: u32) -> u32 {
        let before = self.visits.fetch_add(visits, Relaxed);
        self.spread
            .store(spread_of(before.saturating_add(visits)).to_bits(), Relaxed);
        before
    }

    /// Adds visits and reward units held back by a thread (see `held_back`).
    pub(super) fn add(&self, visits: u32, units: u64) {
        let visits = if visits > 0 {
            self.count_visits(visits).saturating_add(visits)
        } else {
            self.visits.load(Relaxed)
        };
        let value = if units > 0 {
            self.value.fetch_add(units, Relaxed) + units
        } else {
            self.value.load(Relaxed)
        };
        self.store_mean(value, visits);
    }

    /// Stores the mean of `value` units over `visits` as [`Node::quick_mean`]'s.
    fn store_mean(&self, value: u64, visits: u32) {
        let mean = value as i64 as f64 / REWARD_UNIT / f64::from(visits.max(1));
        self.quick_mean.store((mean as f32).to_bits(), Relaxed);
    }

    /// The mean reward as of a recent write (see `quick_mean`): what selection reads.
    #[inline]
    pub(super) fn quick_mean(&self) -> f32 {
        f32::from_bits(self.quick_mean.load(Relaxed))
    }

    /// `1 / sqrt(visits)` as of a recent visit (0 before the first).
    pub(super) fn spread(&self) -> f32 {
        f32::from_bits(self.spread.load(Relaxed))
    }

    /// Adds `reward` to the total (the visit was counted on the way down).
    pub(super) fn add_reward(&self, reward: f64) {
        let units = reward_units(reward);
        let value = self.value.fetch_add(units, Relaxed) + units;
        self.store_mean(value, self.visits.load(Relaxed));
    }
}

impl<A: PackedAction> Node<A> {
    /// The decision that led here (`None` at the root).
    pub(super) fn action(&self) -> Option<A> {
        super::unpacked(self.action.load(Relaxed))
    }
}

/// `1 / sqrt(visits)`, 0 for none.
fn spread_of(visits: u32) -> f32 {
    if visits == 0 {
        0.0
    } else {
        (visits as f32).sqrt().recip()
    }
}

/// `reward` in [`REWARD_UNIT`]s.
#[inline] // Not generic: called for every node of every path.
pub(super) fn reward_units(reward: f64) -> u64 {
    // In range and rounded, the conversion is exact.
    (reward.clamp(0.0, 1.0) * REWARD_UNIT).round() as u64
}

/// The nodes of a shared tree: segments of [`SEGMENT`] nodes, each created by the thread
/// that first needs it, found by the high bits of a node's index. Flat, so dropping it frees
/// a few boxes however deep the tree.
#[derive(Debug)]
pub(super) struct Arena<A> {
    segments: Box<[OnceLock<Segment<A>>]>,
    /// Segments handed out so far.
    taken: AtomicUsize,
}

/// [`SEGMENT`] nodes (fewer for the first segments of a reused tree).
type Segment<A> = Box<[Node<A>]>;

/// Where a thread creates the children it expands: the free part of the segment it took.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Room {
    next: u32,
    end: u32,
}

impl<A: PackedAction> Arena<A> {
    /// An arena for a tree of at most `limit` nodes (a few more when threads expand at once),
    /// its first segments being `segments`.
    fn new(limit: usize, segments: Vec<Segment<A>>) -> Self {
        // Every thread leaves at most one segment less than half full (see `MAX_CHILDREN`).
        let capacity = 2 * limit.div_ceil(SEGMENT) + MAX_THREADS + segments.len() + 1;
        let taken = AtomicUsize::new(segments.len());
        let mut table: Vec<OnceLock<Segment<A>>> = Vec::with_capacity(capacity);
        table.extend(segments.into_iter().map(OnceLock::from));
        table.resize_with(capacity, OnceLock::new);
        Arena {
            segments: table.into_boxed_slice(),
            taken,
        }
    }

    /// The segment that holds the node at `index`.
    fn segment(&self, index: u32) -> &Segment<A> {
        self.segments[(index >> SEGMENT_BITS) as usize]
            .get()
            .expect("an index points into a created segment")
    }

    /// The node at `index`.
    pub(super) fn node(&self, index: u32) -> &Node<A> {
        &self.segment(index)[index as usize & (SEGMENT - 1)]
    }

    /// The `count` nodes from `first`, which lie in one segment.
    fn run(&self, first: u32, count: usize) -> &[Node<A>] {
        let start = first as usize & (SEGMENT - 1);
        &self.segment(first)[start..start + count]
    }

    /// The children of `node` with the index of the first; `None` if it is not expanded (or
    /// is being expanded).
    pub(super) fn children(&self, node: &Node<A>) -> Option<(u32, &[Node<A>])> {
        match node.first.load(Acquire) {
            0 | CLAIMED => None,
            first => Some((
                first,
                self.run(first, usize::from(node.count.load(Relaxed))),
            )),
        }
    }

    /// Whether a thread is creating the children of `node`.
    pub(super) fn is_claimed(node: &Node<A>) -> bool {
        node.first.load(Acquire) == CLAIMED
    }

    /// Makes sure that `room` holds `count` nodes, taking a new segment if it does not; false
    /// if the arena has none left.
    pub(super) fn make_room(&self, room: &mut Room, count: usize) -> bool {
        if (room.end - room.next) as usize >= count {
            return true;
        }
        let number = self.taken.fetch_add(1, Relaxed);
        let Some(slot) = self.segments.get(number) else {
            return false;
        };
        slot.get_or_init(|| (0..SEGMENT).map(|_| Node::new()).collect());
        // Segment 0, with the root, is never taken: no child has index 0.
        let first = (number << SEGMENT_BITS) as u32;
        *room = Room {
            next: first,
            end: first + SEGMENT as u32,
        };
        true
    }

    /// Makes `actions` the children of `parent`, whose mover is `mover`, in `room` (which
    /// holds them), if no other thread expands `parent` first. Returns the first child's
    /// index and the children, or `None` if `parent` is expanded or being expanded.
    pub(super) fn expand(
        &self,
        parent: &Node<A>,
        mover: u8,
        actions: &[A],
        room: &mut Room,
    ) -> Option<(u32, &[Node<A>])> {
        parent
            .first
            .compare_exchange(0, CLAIMED, Acquire, Relaxed)
            .ok()?;
        let first = room.next;
        room.next += actions.len() as u32;
        let children = self.run(first, actions.len());
        for (child, &action) in children.iter().zip(actions) {
            child.action.store(action.pack(), Relaxed);
        }
        parent.count.store(actions.len() as u16, Relaxed);
        parent.mover.store(mover, Relaxed);
        parent.first.store(first, Release);
        Some((first, children))
    }
}

/// A shared tree with the state at its root (node 0 of the arena).
#[derive(Debug)]
pub(super) struct SharedTree<G: Game> {
    pub(super) state: G,
    pub(super) arena: Arena<G::Action>,
    /// Nodes in the tree, for the `tree` limit: on cache lines of its own, as the threads
    /// update it at nearly every iteration and read `state` at every one.
    pub(super) size: CachePadded<AtomicUsize>,
}

impl<G: Game> SharedTree<G> {
    /// A tree of the root alone, of at most `limit` nodes.
    pub(super) fn new(state: G, limit: usize) -> Self {
        let root: Segment<G::Action> = Box::new([Node::new()]);
        SharedTree {
            state,
            arena: Arena::new(limit, vec![root]),
            size: CachePadded::new(AtomicUsize::new(1)),
        }
    }

    pub(super) fn root(&self) -> &Node<G::Action> {
        self.arena.node(0)
    }

    /// The tree to search from `state`: the matching part of `old` (the state found by key at
    /// most [`super::REUSE_DEPTH`] decisions below its root, [`Self::find`]) copied into a
    /// new arena, or a new tree.
    pub(super) fn reuse(old: Option<Self>, state: &G, limit: usize) -> Self {
        let found = old.and_then(|old| old.find(state).map(|index| (old, index)));
        let Some((old, index)) = found else {
            return SharedTree::new(state.clone(), limit);
        };
        let (segments, size) = copy_subtree(&old.arena, old.arena.node(index));
        SharedTree {
            state: state.clone(),
            arena: Arena::new(limit, segments),
            size: CachePadded::new(AtomicUsize::new(size)),
        }
    }

    /// The arena index of the node whose state is `state` ([`super::kept_node`]).
    pub(super) fn find(&self, state: &G) -> Option<u32> {
        super::kept_node::find_kept(0, &self.state, state, |index| {
            let children = self.arena.children(self.arena.node(index));
            children
                .into_iter()
                .flat_map(|(first, children)| (first..).zip(children))
                .map(|(index, child)| (index, child.action(), child.visits.load(Relaxed)))
        })
    }

    /// The children of `node` (none if it is not expanded).
    pub(super) fn children_of(&self, node: &Node<G::Action>) -> &[Node<G::Action>] {
        self.arena
            .children(node)
            .map_or(&[], |(_, children)| children)
    }

    /// Each root decision with its visits so far.
    pub(super) fn root_visits(&self) -> impl Iterator<Item = (G::Action, u32)> + '_ {
        self.children_of(self.root())
            .iter()
            .filter_map(|child| Some((child.action()?, child.visits.load(Relaxed))))
    }

    /// The analysis of a finished search: the most visited root child and its mean reward.
    pub(super) fn report(&self, iterations: u64, depth: u32) -> Analysis<G::Action> {
        let best_child = |node: &Node<G::Action>| {
            self.children_of(node).iter().max_by(|a, b| {
                let visits = |n: &Node<G::Action>| n.visits.load(Relaxed);
                visits(a)
                    .cmp(&visits(b))
                    .then(a.mean().total_cmp(&b.mean()))
            })
        };
        let Some(first) = best_child(self.root()) else {
            // Not even one expansion (a full arena): any legal decision.
            let mut actions = Vec::new();
            self.state.legal_actions(&mut actions);
            return Analysis {
                nodes: iterations,
                ..Analysis::bare(actions[0])
            };
        };
        let mut pv = Vec::new();
        let mut node = first;
        loop {
            pv.extend(node.action());
            match best_child(node) {
                Some(next) if next.visits.load(Relaxed) > 0 => node = next,
                _ => break,
            }
        }
        Analysis {
            action: pv[0],
            evaluation: Some(Evaluation::Reward(first.mean())),
            depth,
            nodes: iterations,
            pv,
        }
    }
}

/// The subtree under `root` (which becomes a root: no decision) copied breadth-first into
/// new segments, each node's children in one segment; with its node count.
fn copy_subtree<A: PackedAction>(arena: &Arena<A>, root: &Node<A>) -> (Vec<Segment<A>>, usize) {
    let top = Node::copy(root);
    top.action.store(NO_ACTION, Relaxed);
    let mut segments: Vec<Vec<Node<A>>> = vec![vec![top]];
    let mut queue = VecDeque::from([(root, 0u32)]);
    let mut size = 1;
    while let Some((old, new)) = queue.pop_front() {
        let Some((_, children)) = arena.children(old) else {
            continue;
        };
        if segments.last().map_or(0, Vec::len) + children.len() > SEGMENT {
            segments.push(Vec::with_capacity(SEGMENT));
        }
        let number = segments.len() - 1;
        let segment = &mut segments[number];
        let first = ((number << SEGMENT_BITS) + segment.len()) as u32;
        segment.extend(children.iter().map(Node::copy));
        queue.extend(children.iter().zip(first..));
        size += children.len();
        let parent = &mut segments[(new >> SEGMENT_BITS) as usize][new as usize & (SEGMENT - 1)];
        *parent.first.get_mut() = first;
        *parent.count.get_mut() = children.len() as u16;
        *parent.mover.get_mut() = old.mover();
    }
    let segments = segments.into_iter().map(Vec::into_boxed_slice).collect();
    (segments, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_keeps_to_32_bytes_with_its_writer_and_tells_handovers() {
        assert_eq!(size_of::<Node<u32>>(), 32);
        let node: Node<u32> = Node::new();
        assert!(!node.hand_to(1), "the first write is no handover");
        assert!(!node.hand_to(1));
        assert!(node.hand_to(2));
        assert!(node.hand_to(1));
    }

    #[test]
    fn a_deep_line_is_copied_and_dropped_without_recursion() {
        // A line of single children far deeper than a recursive copy or drop could go on a
        // test thread's stack.
        let depth = 200_000;
        let root: Segment<u8> = Box::new([Node::new()]);
        // Decisions are bytes: each node of the line gets its number's low byte.
        let decision = |number: usize| (number % 256) as u8;
        let arena = Arena::new(depth + 1, vec![root]);
        let mut room = Room::default();
        let mut node = arena.node(0);
        for number in 0..depth {
            node.visits.store(1, Relaxed);
            assert!(arena.make_room(&mut room, 1));
            node = &arena
                .expand(node, 0, &[decision(number)], &mut room)
                .unwrap()
                .1[0];
        }
        assert!(
            arena.expand(arena.node(0), 0, &[7], &mut room).is_none(),
            "expanded once"
        );
        let (_, below) = arena.children(arena.node(0)).unwrap();
        let (segments, size) = copy_subtree(&arena, &below[0]);
        assert_eq!(size, depth);
        let copy = Arena::new(depth, segments);
        let mut node = copy.node(0);
        assert_eq!(node.action(), None, "a root");
        for number in 1..depth {
            node = &copy.children(node).unwrap().1[0];
            assert_eq!(node.action(), Some(decision(number)));
        }
        assert!(copy.children(node).is_none());
        drop(arena);
        drop(copy);
    }
}
