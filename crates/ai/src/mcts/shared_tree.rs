//! The tree that several MCTS threads search at once (`parallel=tree`): nodes whose
//! statistics are atomics, children created once per node, the re-rooting that keeps the tree
//! between decisions, and the analysis read from it when the threads are done.
//!
//! A node's children are one boxed slice behind a [`OnceLock`]: the first thread to expand a
//! node builds them, a thread arriving meanwhile waits for that (a list of legal decisions,
//! far shorter than a playout), and afterwards every read is a plain load. Visits and rewards
//! are atomics updated without locks, each by one `fetch_add`: the reward total is kept in
//! fixed point ([`REWARD_UNIT`] units a reward of 1), since a compare-and-swap loop on an
//! `f64`'s bits is repeated whenever another thread wrote the node meanwhile, which the
//! nodes near the root, written by every thread at every iteration, made the rule.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use crossbeam_utils::CachePadded;
use ludus_engine::Game;

use super::{REUSE_DEPTH, REUSE_SEARCH_LIMIT};
use crate::{Analysis, Evaluation};

/// Units of the fixed-point reward totals for a reward of 1. Rewards lie in `0..=1`, so a
/// node holds up to 2^40 visits' rewards in 64 bits, and a reward is rounded by at most
/// 2^-25, far below what a node's mean can tell apart. Wins, losses and the draw share of two
/// seats are exact.
pub(super) const REWARD_UNIT: f64 = (1u64 << 24) as f64;

/// The children of an expanded node.
#[derive(Debug)]
pub(super) struct Children<A> {
    /// The seat deciding at the parent (`NO_SEAT` if none), whose reward the children keep.
    pub(super) mover: u8,
    pub(super) nodes: Box<[SharedNode<A>]>,
}

/// One node of the shared tree.
///
/// Siblings are contiguous, so two threads updating two siblings can pass one cache line
/// between the cores (false sharing); giving each node a line of its own
/// (`#[repr(align(64))]`) measured 5 % more CPU per iteration, not less (Yoxii, 2 threads × 20,000
/// iterations a position): the larger tree costs more than the sharing did.
#[derive(Debug)]
pub(super) struct SharedNode<A> {
    /// The decision that led here (`None` at the root).
    pub(super) action: Option<A>,
    /// Iterations through this node, counted on the way down: an iteration still running
    /// counts as a visit with no reward yet (the virtual loss that steers the other threads
    /// elsewhere), and when it backs up only its reward is added. The root's is added when the
    /// threads are done (`tree_parallel::search`), so that they need not share its line.
    pub(super) visits: AtomicU32,
    /// Total reward of the seat that chose `action`, in [`REWARD_UNIT`]s.
    value: AtomicU64,
    /// `1 / sqrt(visits)` as `f64` bits, stored by the thread that counts a visit, so that
    /// selection (every child of every node on a path) needs no square root. Two threads
    /// counting at once may leave the value of one visit fewer until the next visit: a cache
    /// for exploration, not a statistic (`visits` and `value` stay exact).
    spread: AtomicU64,
    pub(super) children: OnceLock<Children<A>>,
}

impl<A> SharedNode<A> {
    pub(super) fn new(action: Option<A>) -> Self {
        SharedNode {
            action,
            visits: AtomicU32::new(0),
            value: AtomicU64::new(0),
            spread: AtomicU64::new(0f64.to_bits()),
            children: OnceLock::new(),
        }
    }

    pub(super) fn value(&self) -> f64 {
        self.value.load(Relaxed) as f64 / REWARD_UNIT
    }

    /// The mean reward so far (0 before the first visit).
    pub(super) fn mean(&self) -> f64 {
        self.value() / f64::from(self.visits.load(Relaxed).max(1))
    }

    /// Counts a visit on the way down (see `visits`); returns the visits before it.
    pub(super) fn count_visit(&self) -> u32 {
        self.count_visits(1)
    }

    /// Counts `visits` visits; returns the visits before them.
    fn count_visits(&self, visits: u32) -> u32 {
        let before = self.visits.fetch_add(visits, Relaxed);
        let spread = f64::from(before.saturating_add(visits)).sqrt().recip();
        self.spread.store(spread.to_bits(), Relaxed);
        before
    }

    /// Adds visits and reward units held back by a thread (see `held_back`).
    pub(super) fn add(&self, visits: u32, units: u64) {
        if visits > 0 {
            self.count_visits(visits);
        }
        if units > 0 {
            self.value.fetch_add(units, Relaxed);
        }
    }

    /// `1 / sqrt(visits)` as of a recent visit (0 before the first).
    pub(super) fn spread(&self) -> f64 {
        f64::from_bits(self.spread.load(Relaxed))
    }

    /// Adds `reward` to the total (the visit was counted on the way down).
    pub(super) fn add_reward(&self, reward: f64) {
        self.value.fetch_add(reward_units(reward), Relaxed);
    }

    fn child_nodes(&self) -> &[SharedNode<A>] {
        self.children.get().map_or(&[], |c| &c.nodes)
    }
}

impl<A> Drop for SharedNode<A> {
    /// Frees the subtree with a loop rather than the recursion of the default drop, which
    /// could overflow a thread's stack on a tree thousands of decisions deep.
    fn drop(&mut self) {
        let mut pending: Vec<Box<[SharedNode<A>]>> = Vec::new();
        pending.extend(self.children.take().map(|c| c.nodes));
        while let Some(mut nodes) = pending.pop() {
            for node in &mut nodes {
                pending.extend(node.children.take().map(|c| c.nodes));
            }
        }
    }
}

/// `reward` in [`REWARD_UNIT`]s.
pub(super) fn reward_units(reward: f64) -> u64 {
    // In range and rounded, the conversion is exact.
    (reward.clamp(0.0, 1.0) * REWARD_UNIT).round() as u64
}

/// A shared tree with the state at its root.
#[derive(Debug)]
pub(super) struct SharedTree<G: Game> {
    pub(super) state: G,
    pub(super) root: SharedNode<G::Action>,
    /// Nodes in the tree, for the `tree` limit: on cache lines of its own, as the threads
    /// update it at nearly every iteration and read `state` at every one.
    pub(super) size: CachePadded<AtomicUsize>,
}

impl<G: Game> SharedTree<G> {
    pub(super) fn new(state: G) -> Self {
        SharedTree {
            state,
            root: SharedNode::new(None),
            size: CachePadded::new(AtomicUsize::new(1)),
        }
    }

    /// The tree to search from `state`: the matching part of `old` (the state found by key at
    /// most [`REUSE_DEPTH`] decisions below its root), or a new tree.
    pub(super) fn reuse(old: Option<Self>, state: &G) -> Self {
        let Some(mut old) = old else {
            return SharedTree::new(state.clone());
        };
        let Some(path) = old.find(state) else {
            return SharedTree::new(state.clone());
        };
        let mut node = &mut old.root;
        for index in path {
            let Some(children) = node.children.get_mut() else {
                return SharedTree::new(state.clone());
            };
            node = &mut children.nodes[index];
        }
        let mut root = std::mem::replace(node, SharedNode::new(None));
        root.action = None;
        let size = CachePadded::new(AtomicUsize::new(count_nodes(&root)));
        SharedTree {
            state: state.clone(),
            root,
            size,
        }
    }

    /// The child indices that lead from the root to `state`, looked for breadth-first.
    pub(super) fn find(&self, state: &G) -> Option<Vec<usize>> {
        let same = |s: &G| {
            s.key() == state.key() && s.turn() == state.turn() && s.position() == state.position()
        };
        // Each entry: the node, its state, its depth and how it was reached (entry, child).
        let mut seen: Vec<(usize, usize)> = vec![(0, 0)];
        let mut queue = VecDeque::from([(&self.root, self.state.clone(), 0u8, 0usize)]);
        if same(&self.state) {
            return Some(Vec::new());
        }
        while let Some((node, node_state, depth, entry)) = queue.pop_front() {
            if depth >= REUSE_DEPTH {
                continue;
            }
            for (index, child) in node.child_nodes().iter().enumerate() {
                if child.visits.load(Relaxed) == 0 {
                    continue;
                }
                let mut next = node_state.clone();
                next.apply(child.action?);
                seen.push((entry, index));
                if same(&next) {
                    return Some(path_to(&seen, seen.len() - 1));
                }
                if seen.len() > REUSE_SEARCH_LIMIT {
                    return None;
                }
                queue.push_back((child, next, depth + 1, seen.len() - 1));
            }
        }
        None
    }

    /// The analysis of a finished search: the most visited root child and its mean reward.
    /// Each root decision with its visits so far.
    pub(super) fn root_visits(&self) -> impl Iterator<Item = (G::Action, u32)> + '_ {
        self.root
            .child_nodes()
            .iter()
            .filter_map(|child| Some((child.action?, child.visits.load(Relaxed))))
    }

    pub(super) fn report(&self, iterations: u64, depth: u32) -> Analysis<G::Action> {
        fn best_child<A>(node: &SharedNode<A>) -> Option<&SharedNode<A>> {
            node.child_nodes().iter().max_by(|a, b| {
                let visits = |n: &SharedNode<A>| n.visits.load(Relaxed);
                visits(a)
                    .cmp(&visits(b))
                    .then(a.mean().total_cmp(&b.mean()))
            })
        }
        let Some(first) = best_child(&self.root) else {
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
            pv.extend(node.action);
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

/// The child indices from the first entry of `seen` to entry `last`.
fn path_to(seen: &[(usize, usize)], mut last: usize) -> Vec<usize> {
    let mut path = Vec::new();
    while last != 0 {
        let (parent, index) = seen[last];
        path.push(index);
        last = parent;
    }
    path.reverse();
    path
}

/// The nodes of the subtree under `root`, itself included.
fn count_nodes<A>(root: &SharedNode<A>) -> usize {
    let mut count = 0;
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        count += 1;
        pending.extend(node.child_nodes());
    }
    count
}
