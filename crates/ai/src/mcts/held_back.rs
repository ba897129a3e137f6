//! A search thread's updates to the busiest nodes of the shared tree, held back and written
//! a few iterations later in one go (`parallel=tree`).
//!
//! Every iteration passes through the root's children and the first nodes of the principal
//! line, so every thread wrote the same few cache lines twice per iteration (the visit on the
//! way down, the reward on the way up), and the cores passed those lines back and forth at
//! every iteration of every thread: at 16 threads that, not the playouts, set the pace of the
//! short-iteration games. So a thread adds its visits and rewards at a node visited
//! [`HOLD_FROM`] times or more to a slot of its own, sees them there at once itself, and
//! writes them out every [`WRITE_EVERY`] iterations and when it stops: when the threads are
//! done every node's statistics are exact again. Nodes visited fewer times are written at
//! once, since there the visit counted on the way down (the virtual loss) is what keeps the
//! threads apart.
//!
//! From 16 visits and not from 4,096: below a few thousand visits the nodes of the line the
//! threads share were written by both at nearly every iteration (Qawale: 3.2 lines passed
//! between the cores an iteration, 1.1 now), and the search lost nothing measurable in
//! strength for it (two threads against two threads at equal iterations, 200–300 games in
//! Qawale, Replica and Yoxii: 50.7–53.3 % for holding back from 16). Holding back from the
//! first visit lost strength in Qawale (45.8 %), whose lines are narrow: there the virtual
//! loss of the young nodes is what sends the second thread elsewhere (`docs/SCALING.md`,
//! "Updates held back from 16 visits").

use std::sync::atomic::Ordering::Relaxed;

use super::shared_tree::{Node, REWARD_UNIT};

/// Visits from which a node's updates are held back.
pub(super) const HOLD_FROM: u32 = 16;
/// Iterations between two writes of what a thread held back.
pub(super) const WRITE_EVERY: u64 = 16;
/// Slots of a thread's buffer: a direct-mapped cache indexed by the node's address. Fewer
/// than the nodes above [`HOLD_FROM`] that one thread meets in [`WRITE_EVERY`] iterations
/// (about ten a path): a node whose slot another takes is written out early, which is exact
/// all the same.
const SLOTS: usize = 64;

/// The slot of `node` in a thread's buffer. Siblings lie side by side, so their addresses
/// divided by a node's size differ by one and they take different slots.
fn slot_of<A>(node: &Node<A>) -> usize {
    (std::ptr::from_ref(node) as usize / size_of::<Node<A>>()) % SLOTS
}

/// One thread's held-back updates.
///
/// The slots' nodes lie apart from their counts, eight bytes a slot: selection tests every
/// child it scans against its slot's node, and a slot of a node and its counts together (24
/// bytes) took a multiplication by three in that test, the selection loop's most repeated
/// work (`docs/SCALING.md`, "Selection's loop, counted").
pub(super) struct HeldBack<'t, A> {
    /// The node each slot holds updates for.
    nodes: [Option<&'t Node<A>>; SLOTS],
    /// The visits and reward units held for the slot's node.
    counts: [(u32, u64); SLOTS],
    /// The thread's number, noted in the nodes it writes (see `meetings`).
    thread: u8,
    /// Visits from which a node's updates are held back (`MctsConfig::hold_from`).
    hold_from: u32,
    /// The root's visits as this thread counts them: its children's, summed at the first
    /// iteration after each write-out (`None` until then), plus this thread's iterations
    /// since. The root keeps no count of its own during a search (every thread would write
    /// its line at every iteration), and summing its children at every iteration read
    /// each of them twice: what is written to them reaches them every [`WRITE_EVERY`]
    /// iterations in any case, held back like everything busy.
    root_visits: Option<u32>,
}

impl<'t, A: Copy> HeldBack<'t, A> {
    /// An empty buffer for thread `thread` (from 1) holding back the updates of nodes
    /// visited `hold_from` times or more.
    pub(super) fn new(thread: u8, hold_from: u32) -> Self {
        HeldBack {
            nodes: [None; SLOTS],
            counts: [(0, 0); SLOTS],
            thread,
            hold_from,
            root_visits: None,
        }
    }

    /// The root's visits as this thread counts them (see `root_visits`), `children` being
    /// the root's; counts the iteration that asks.
    pub(super) fn root_visits(&mut self, children: &[Node<A>]) -> u32 {
        let visits = self.root_visits.get_or_insert_with(|| {
            children
                .iter()
                .fold(0u32, |sum, c| sum.saturating_add(c.visits.load(Relaxed)))
        });
        let seen = *visits;
        *visits = visits.saturating_add(1);
        seen
    }

    /// Whether a node selection read as visited `visits` times is busy enough for its
    /// updates to be held back.
    #[inline]
    pub(super) fn holds(&self, visits: u32) -> bool {
        visits >= self.hold_from
    }

    /// Adds `visits` and `units` to what is held for `node`; a node already holding the slot
    /// is written out first.
    pub(super) fn add(&mut self, node: &'t Node<A>, visits: u32, units: u64) {
        let slot = slot_of(node);
        let counts = &mut self.counts[slot];
        match self.nodes[slot] {
            Some(held) if std::ptr::eq(held, node) => {
                counts.0 += visits;
                counts.1 += units;
            }
            old => {
                if let Some(old) = old {
                    old.add(counts.0, counts.1);
                    old.hand_to(self.thread);
                }
                self.nodes[slot] = Some(node);
                *counts = (visits, units);
            }
        }
    }

    /// The mean reward `node` shows this thread, whose visits selection read as `visits` (not
    /// 0). Where its updates are held back, the shared statistics plus what this thread holds
    /// for it: a thread thus sees each of its own visits at once, as one thread alone does,
    /// and spreads its iterations over the busiest nodes' children between two writes instead
    /// of following one line for all of them (two threads, each going down the same line
    /// until the other's next write, collided 15–30 % more often: `meetings`).
    ///
    /// Elsewhere the mean the node's last writer stored (`Node::quick_mean`): one load where
    /// selection scans every child (the one-thread arena keeps each node's mean for the same
    /// reason, `docs/SCALING.md`, "One thread on the shared tree").
    ///
    /// Only a busy node ever takes a slot, and its visits only grow, so the slot alone
    /// tells: testing the visits against the threshold first, for every child scanned, was
    /// a branch the processor could not foresee (Replica: 5.7 of its 19.7 missed branches an
    /// iteration on one thread), and a bit of the occupied slots tested before the slot cost
    /// more than the slot's own load (`docs/SCALING.md`, "Selection by the slot alone").
    #[inline]
    pub(super) fn mean_seen(&self, node: &Node<A>, visits: u32) -> f32 {
        let slot = slot_of(node);
        match self.nodes[slot] {
            Some(held) if std::ptr::eq(held, node) => {
                let (held_visits, units) = self.counts[slot];
                let value = node.value() + units as f64 / REWARD_UNIT;
                (value / f64::from(visits + held_visits)) as f32
            }
            _ => node.quick_mean(),
        }
    }

    /// Writes out everything held; the root's visits are summed again at the next
    /// iteration.
    pub(super) fn write_out(&mut self) {
        self.root_visits = None;
        for (held, &(visits, units)) in self.nodes.iter_mut().zip(&self.counts) {
            if let Some(node) = held.take() {
                node.add(visits, units);
                // The node's writer stays true, for the other threads' count of handovers.
                node.hand_to(self.thread);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_updates_reach_the_nodes_when_written_or_displaced() {
        let nodes: Vec<Node<u8>> = (0..=SLOTS).map(|_| Node::new()).collect();
        let mut held = HeldBack::new(1, HOLD_FROM);
        held.add(&nodes[0], 1, 7);
        held.add(&nodes[0], 1, 0);
        assert_eq!(nodes[0].visits.load(Relaxed), 0, "held back");
        // `SLOTS` nodes further on, the same slot: the first node is written out.
        held.add(&nodes[SLOTS], 1, 3);
        assert_eq!(nodes[0].visits.load(Relaxed), 2);
        assert_eq!(nodes[0].value().to_bits(), (7.0 / REWARD_UNIT).to_bits());
        assert_eq!(nodes[SLOTS].visits.load(Relaxed), 0);
        held.write_out();
        assert_eq!(nodes[SLOTS].visits.load(Relaxed), 1);
        held.write_out();
        assert_eq!(nodes[SLOTS].visits.load(Relaxed), 1, "written once");
    }

    #[test]
    fn a_thread_sees_what_it_holds_for_a_busy_node_and_nothing_else() {
        let nodes: Vec<Node<u8>> = (0..2).map(|_| Node::new()).collect();
        nodes[0].add(HOLD_FROM, (REWARD_UNIT * 100.0) as u64);
        nodes[1].add(HOLD_FROM, (REWARD_UNIT * 100.0) as u64);
        let mut held = HeldBack::new(1, HOLD_FROM);
        held.add(&nodes[0], 2, (REWARD_UNIT * 1.5) as u64);
        // Exact where the stored mean is: 100 over a power of two fits an `f32` whole.
        let seen = |held: &HeldBack<'_, u8>, node: &Node<u8>, visits| {
            held.mean_seen(node, visits).to_bits()
        };
        let shared = (100.0 / HOLD_FROM as f32).to_bits();
        assert_eq!(
            seen(&held, &nodes[0], HOLD_FROM),
            ((101.5 / f64::from(HOLD_FROM + 2)) as f32).to_bits(),
            "its own visits counted"
        );
        assert_eq!(seen(&held, &nodes[1], HOLD_FROM), shared, "nothing held");
        held.write_out();
        let once = f64::from(held.mean_seen(&nodes[0], HOLD_FROM + 2));
        assert!(
            (once - 101.5 / f64::from(HOLD_FROM + 2)).abs() < 1e-7,
            "once: {once}"
        );
    }

    #[test]
    fn the_stored_mean_follows_every_write_to_a_millionth() {
        let node: Node<u8> = Node::new();
        let held = HeldBack::new(1, u32::MAX);
        let exact = |node: &Node<u8>| node.value() / f64::from(node.visits.load(Relaxed));
        let near = |mean: f32, exact: f64| (f64::from(mean) - exact).abs() <= 1e-6 * exact;
        let mut visits = 0;
        for step in [1, 2, 7, 90, 1_000, 20_000, 3_000_000] {
            node.add(step, (REWARD_UNIT * f64::from(step) * 0.37).round() as u64);
            visits += step;
            let mean = held.mean_seen(&node, visits);
            assert!(near(mean, exact(&node)), "{visits}: {mean}");
        }
        // A visit counted on the way down lowers the mean (the virtual loss) until its
        // reward is added.
        let before = held.mean_seen(&node, visits);
        node.count_visit();
        let running = held.mean_seen(&node, visits + 1);
        assert!(running < before && near(running, exact(&node)), "{running}");
        node.add_reward(1.0);
        let after = held.mean_seen(&node, visits + 1);
        assert!(after > before && near(after, exact(&node)), "{after}");
        // Visits alone and rewards alone each store it too.
        node.add(5, 0);
        assert!(near(held.mean_seen(&node, visits + 6), exact(&node)));
        node.add(0, (REWARD_UNIT * 3.0) as u64);
        assert!(near(held.mean_seen(&node, visits + 6), exact(&node)));
    }

    #[test]
    fn the_threshold_is_the_one_given() {
        let node: Node<u8> = Node::new();
        node.add(20, (REWARD_UNIT * 10.0) as u64);
        let mut held = HeldBack::new(1, 8);
        assert!(held.holds(8) && !held.holds(7) && HOLD_FROM != 8);
        held.add(&node, 2, (REWARD_UNIT * 2.0) as u64);
        assert_eq!(
            held.mean_seen(&node, 20).to_bits(),
            ((12.0f64 / 22.0) as f32).to_bits(),
            "what it holds counted"
        );
    }

    #[test]
    fn the_root_is_counted_from_its_children_after_each_write_out() {
        let children: Vec<Node<u8>> = (0..3).map(|_| Node::new()).collect();
        children[0].add(5, 0);
        children[2].add(7, 0);
        let mut held = HeldBack::new(1, HOLD_FROM);
        assert_eq!(held.root_visits(&children), 12);
        // Another thread's visits reach the children: seen at the next write-out.
        children[1].add(100, 0);
        assert_eq!(held.root_visits(&children), 13, "its own iteration counted");
        held.write_out();
        assert_eq!(held.root_visits(&children), 112, "summed again");
    }
}
