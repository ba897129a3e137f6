//! MCTS on several threads by tree parallelism (`parallel=tree`): every thread runs the usual
//! iterations (select, expand, play out, back up) on one shared tree ([`SharedTree`]), with a
//! virtual loss on the path of each iteration still running, so that the threads spread over
//! different lines instead of all playing out the most promising one.
//!
//! The virtual loss is a visit counted on the way down before the playout's reward is known:
//! while it runs, the nodes of its path look one visit worse to the other threads (a reward of
//! 0 for it), and the back-up only adds the reward, so when the threads are done every node's
//! statistics are exactly those of the iterations through it (Chaslot, Winands and van den
//! Herik, "Parallel Monte-Carlo Tree Search", 2008; Segal, "On the Scalability of Parallel UCT",
//! 2010). An iteration limit applies to each thread: `iterations=N,threads=T` runs exactly `N·T`
//! iterations in all, like root parallelism. A time limit or the stop flag ends every thread.
//! The tree is kept for the next decision like one thread's.
//!
//! What the threads write to at every iteration is kept to the nodes of its path, which
//! brought a shared-tree iteration from 12 % to 7 % more CPU than a one-thread one: each thread counts its own iterations, and the root's count is added at
//! the end rather than at every iteration. A node keeps `1 / sqrt(visits)` and its mean beside
//! its statistics, so that selection needs no square root nor division per child (the
//! one-thread node keeps its mean and spread for the same reason).
//!
//! Each thread chooses among a node's children with an exploration constant of its own, so
//! that threads reading the same statistics go apart where their scores are close (see
//! [`exploration_of`]).
//!
//! Each thread has its own generator and buffer ([`Worker`]); an iteration allocates nothing:
//! the children of a node it expands go into the thread's segment of the arena (see
//! [`Arena`]), which takes a new segment every 65,536 nodes.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use ludus_engine::{Game, Heuristic, MAX_SEATS};
use rand::seq::SliceRandom;

use super::held_back::{HeldBack, WRITE_EVERY};
use super::meetings::Meetings;
use super::selection::{exploration_of, select, Chosen};
use super::shared_tree::{reward_units, Arena, Node, Room, SharedTree, MAX_CHILDREN};
use super::worker::Worker;
use super::{play_out, rewards_of, MctsAgent, MctsConfig, NO_SEAT};
use crate::alphabeta::time::{Budget, Clock};
use crate::{Analysis, StopFlag};

/// Nodes a thread counts in the tree's size at once while the tree has room: the size is
/// one cache line for all threads, and writing it at every expansion (nearly every
/// iteration while the tree grows) passed it between the cores at every iteration.
const RESERVE_CHUNK: usize = 4096;

/// What the threads of one search share.
struct Search<'a, G: Game> {
    tree: &'a SharedTree<G>,
    config: &'a MctsConfig,
    clock: Clock<'a>,
    /// Iterations each thread runs at most.
    limit: u64,
    /// Raised by the first thread that sees the time is up or the stop flag.
    stopped: AtomicBool,
}

/// Searches `state` with `agent`'s workers on one shared tree, and keeps the tree.
pub(super) fn search<G: Game + Heuristic>(
    agent: &mut MctsAgent<G>,
    state: &G,
    stop: &StopFlag,
) -> Analysis<G::Action> {
    let old = agent.shared.take().filter(|_| agent.config.reuse);
    let tree = SharedTree::reuse(old, state, agent.config.tree_nodes);
    let mut workers = std::mem::take(&mut agent.workers);
    let clock_budget = Budget {
        nodes: u64::MAX,
        ..agent.config.budget
    };
    let search = Search {
        tree: &tree,
        config: &agent.config,
        clock: Clock::start(clock_budget, stop),
        limit: agent.config.budget.nodes,
        stopped: AtomicBool::new(false),
    };
    let runs: Vec<(u64, usize)> = std::thread::scope(|scope| {
        let search = &search;
        let (first, others) = workers.split_first_mut().expect("one worker a thread");
        let handles: Vec<_> = others
            .iter_mut()
            .map(|worker| scope.spawn(move || search.run(worker)))
            .collect();
        let mut runs = vec![search.run(first)];
        runs.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        runs
    });
    agent.workers = workers;
    let iterations = runs.iter().map(|&(n, _)| n).sum();
    // The threads leave the root's count alone while they run (see `iterate`).
    tree.root()
        .visits
        .fetch_add(u32::try_from(iterations).unwrap_or(u32::MAX), Relaxed);
    let depth = runs.iter().map(|&(_, d)| d).max().unwrap_or(0);
    let analysis = tree.report(iterations, depth as u32);
    agent.shared = Some(tree);
    analysis
}

impl<G: Game + Heuristic> Search<'_, G> {
    /// One thread's loop: iterations until its limit, the clock or the stop flag. Returns the
    /// iterations it ran and the deepest its tree paths went.
    ///
    /// Each thread counts its own iterations: a counter shared by the threads would be one
    /// more cache line passed between the cores at every iteration.
    fn run(&self, worker: &mut Worker<G::Action>) -> (u64, usize) {
        let mut path = Vec::with_capacity(64);
        let mut held = HeldBack::new(worker.id, self.config.hold_from);
        let exploration = exploration_of(self.config, worker.id);
        // What it reserved, and its segment, belonged to the last search's tree.
        worker.reserved = 0;
        worker.room = Room::default();
        worker.meetings = Meetings::default();
        let mut done = 0;
        let mut depth = 0;
        while done < self.limit && !self.stopped.load(Relaxed) {
            depth = depth.max(self.iterate(worker, exploration, &mut path, &mut held));
            done += 1;
            if done % WRITE_EVERY == 0 {
                held.write_out();
            }
            // The clock is read every 8 iterations: a playout costs far more than the rest.
            if done % 8 == 0 && self.clock.must_stop(0) {
                self.stopped.store(true, Relaxed);
            }
        }
        held.write_out();
        worker.meetings.iterations = done;
        (done, depth)
    }

    /// One iteration. `path` holds the nodes below the root it went through, each with the
    /// seat whose reward it keeps and whether its updates are held back in `held`. Returns
    /// how many decisions below the root it went.
    fn iterate<'t>(
        &'t self,
        worker: &mut Worker<G::Action>,
        exploration: f32,
        path: &mut Vec<(&'t Node<G::Action>, u8, bool)>,
        held: &mut HeldBack<'t, G::Action>,
    ) -> usize {
        let mut state = self.tree.state.clone();
        path.clear();
        let mut node = self.tree.root();
        // The root's own count is not kept per iteration (the threads would pass its cache
        // line back and forth at every one); selection there counts its children's instead
        // (`HeldBack::root_visits`), and `search` adds the iterations at the end.
        let rewards = loop {
            if state.verdict().is_some() {
                break rewards_of(&state);
            }
            let Some(children) = self.children(node, &state, worker) else {
                break play_out(
                    self.config,
                    &mut state,
                    &mut worker.rng,
                    &mut worker.actions,
                );
            };
            // `path` is empty only at the root.
            let parent_visits = if path.is_empty() {
                held.root_visits(children)
            } else {
                node.visits.load(Relaxed)
            };
            let Chosen {
                index,
                seen,
                scanned,
            } = select(children, parent_visits, exploration, held);
            worker.meetings.read(scanned);
            let mover = node.mover();
            node = &children[index];
            let (before, busy) = worker.visit(node, seen, path.len() + 1, held);
            if let Some(action) = node.action() {
                state.apply(action);
            }
            path.push((node, mover, busy));
            if before == 0 {
                break play_out(
                    self.config,
                    &mut state,
                    &mut worker.rng,
                    &mut worker.actions,
                );
            }
        };
        for (level, &(node, mover, busy)) in (1..).zip(path.iter()) {
            let reward = rewards[usize::from(mover).min(MAX_SEATS - 1)];
            if busy {
                held.add(node, 1, reward_units(reward));
                worker.meetings.held += 1;
            } else {
                node.add_reward(reward);
                worker.meetings.write(level, node.hand_to(worker.id));
            }
        }
        path.len()
    }

    /// The children of `node` (whose state is `state`), created now if no thread has; `None`
    /// if the tree is full (or there is no legal decision).
    fn children<'t>(
        &'t self,
        node: &'t Node<G::Action>,
        state: &G,
        worker: &mut Worker<G::Action>,
    ) -> Option<&'t [Node<G::Action>]> {
        let arena = &self.tree.arena;
        let mut spins = 0u32;
        loop {
            if let Some((_, children)) = arena.children(node) {
                return Some(children);
            }
            if Arena::is_claimed(node) {
                // Another thread is writing the children (a few dozen stores at most); a
                // thread that lost its core meanwhile is given the time to finish.
                worker.meetings.waits += u64::from(spins == 0);
                spins += 1;
                if spins.is_multiple_of(64) {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
                continue;
            }
            state.legal_actions(&mut worker.actions);
            let count = worker.actions.len();
            let limit = self.config.tree_nodes;
            // Threads expanding at the same moment may each pass this test: the limit can be
            // passed by a few nodes' children, never by more.
            if count == 0
                || count > MAX_CHILDREN
                || (worker.reserved < count && self.tree.size.load(Relaxed) + count > limit)
                || !arena.make_room(&mut worker.room, count)
            {
                return None;
            }
            worker.actions.shuffle(&mut worker.rng);
            let mover = state
                .to_move()
                .map_or(NO_SEAT, |seat| seat.to_usize() as u8);
            // `None`: another thread claimed the node first; its children are awaited.
            let Some((_, children)) = arena.expand(node, mover, &worker.actions, &mut worker.room)
            else {
                continue;
            };
            if worker.reserved >= count {
                worker.reserved -= count;
            } else {
                let room = self.tree.size.load(Relaxed) + RESERVE_CHUNK + count <= limit;
                let extra = if room { RESERVE_CHUNK } else { 0 };
                self.tree.size.fetch_add(count + extra, Relaxed);
                worker.reserved += extra;
            }
            return Some(children);
        }
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::{Duration, Instant};

    use ludus_engine::demo::{Nim, NimOptions};

    use super::super::held_back::HOLD_FROM;
    use super::super::shared_tree::SEGMENT;
    use super::*;
    use crate::{Agent, AgentSpec};

    fn agent(text: &str) -> MctsAgent<Nim> {
        let spec: AgentSpec = text.parse().unwrap();
        MctsAgent::new(MctsConfig::from_spec(&spec).unwrap(), text.into(), 5)
    }

    fn nim(position: &str) -> Nim {
        Nim::from_position(position, &NimOptions::default()).unwrap()
    }

    #[test]
    fn two_threads_run_the_iterations_exactly_on_one_tree() {
        let mut mcts = agent("ai:mcts:iterations=500,threads=2,parallel=tree");
        assert!(mcts.helpers.is_empty(), "no second tree");
        let state = Nim::new(&NimOptions { pile: 30 }, 0);
        let analysis = mcts.analyse(&state, &StopFlag::default());
        assert!(state.is_legal(analysis.action));
        assert_eq!(analysis.nodes, 1000, "500 per thread");
        let tree = mcts.shared.as_ref().unwrap();
        assert_eq!(tree.root().visits.load(Relaxed), 1000);
        let children = tree.children_of(tree.root());
        let visits: u32 = children.iter().map(|c| c.visits.load(Relaxed)).sum();
        assert_eq!(visits, 1000, "every iteration went through one root child");
        // No virtual visit is left over: below the root, a node's first visit played out and
        // every later one went on to one of its children.
        let mut pending: Vec<&Node<u8>> = children.iter().collect();
        let mut nodes = 1;
        while let Some(node) = pending.pop() {
            nodes += 1;
            let below = tree.children_of(node);
            if !below.is_empty() {
                let sum: u32 = below.iter().map(|c| c.visits.load(Relaxed)).sum();
                assert_eq!(node.visits.load(Relaxed), sum + 1);
                pending.extend(below);
            }
            assert!((0.0..=node.visits.load(Relaxed).into()).contains(&node.value()));
        }
        assert!(nodes > 4 * SEGMENT, "{nodes} nodes, over several segments");
        assert!(mcts.tree.is_none(), "the one-thread tree is not grown");
    }

    #[test]
    fn the_threads_count_where_they_meet() {
        let mut mcts = agent("ai:mcts:iterations=20000,threads=2,parallel=tree");
        let state = Nim::new(&NimOptions { pile: 40 }, 0);
        let analysis = mcts.analyse(&state, &StopFlag::default());
        let met = mcts.meetings().expect("two threads on one tree");
        assert_eq!(met.iterations, analysis.nodes);
        // Each node of a path got a visit and a reward, written at once or held back: twice
        // the visits of the nodes below the root.
        let tree = mcts.shared.as_ref().unwrap();
        let mut pending: Vec<&Node<u8>> = tree.children_of(tree.root()).iter().collect();
        let mut visits = 0;
        while let Some(node) = pending.pop() {
            visits += u64::from(node.visits.load(Relaxed));
            pending.extend(tree.children_of(node));
        }
        assert_eq!(met.writes + met.held, 2 * visits);
        assert!(met.held > 0, "the busiest nodes are held back");
        // Whichever thread ran first, the other then wrote nodes it had written.
        assert!(met.handovers > 0 && met.handovers <= met.writes, "{met:?}");
        assert_eq!(met.handovers_by_level.iter().sum::<u64>(), met.handovers);
        // Every iteration read the root's children at least.
        assert!(met.reads >= met.iterations, "{met:?}");
        let mut alone = agent("ai:mcts:iterations=2000");
        alone.analyse(&state, &StopFlag::default());
        assert_eq!(alone.meetings(), None, "one thread meets nobody");
    }

    #[test]
    fn no_reward_is_lost_between_two_threads() {
        // Nim has no draws, so every reward is 0 or 1, and a node's total is exactly its first
        // playout's reward (0 or 1) plus what its children's totals say for its seat: a lost
        // update of a visit or a reward by a thread would break the equality.
        let mut mcts = agent("ai:mcts:iterations=20000,threads=2,parallel=tree");
        let state = Nim::new(&NimOptions { pile: 40 }, 0);
        let analysis = mcts.analyse(&state, &StopFlag::default());
        assert_eq!(analysis.nodes, 40_000);
        let tree = mcts.shared.as_ref().unwrap();
        let root = tree.root();
        assert!(
            tree.children_of(root)
                .iter()
                .any(|node| node.visits.load(Relaxed) >= HOLD_FROM),
            "some updates were held back"
        );
        let mut pending: Vec<(&Node<u8>, u8)> = tree
            .children_of(root)
            .iter()
            .map(|node| (node, root.mover()))
            .collect();
        let mut checked = 0;
        while let Some((node, chooser)) = pending.pop() {
            let below = tree.children_of(node);
            if below.is_empty() {
                continue;
            }
            let from_children: f64 = below
                .iter()
                .map(|child| {
                    let visits = f64::from(child.visits.load(Relaxed));
                    if node.mover() == chooser {
                        child.value()
                    } else {
                        visits - child.value()
                    }
                })
                .sum();
            let first_playout = node.value() - from_children;
            assert!(
                [0.0, 1.0].contains(&first_playout),
                "{} against {from_children}",
                node.value()
            );
            checked += 1;
            pending.extend(below.iter().map(|child| (child, node.mover())));
        }
        assert!(checked > 1000, "{checked} nodes checked");
    }

    #[test]
    fn two_threads_find_the_only_winning_decision() {
        // Two-step Nim, 7 stones at the start of a turn: taking 1 then 1 leaves 5, from which
        // every turn (2 to 4 stones) lets the other side take the rest; taking 2 first leaves
        // 4 or 3 after the turn, which the opponent takes at once. So only `1` wins, and not
        // within one decision (the immediate-win shortcut does not see it).
        for seed in 0..4 {
            let spec: AgentSpec = "ai:mcts:iterations=2000,threads=2,parallel=tree"
                .parse()
                .unwrap();
            let config = MctsConfig::from_spec(&spec).unwrap();
            let mut mcts = MctsAgent::<Nim>::new(config, spec.to_string(), seed);
            let analysis = mcts.analyse(&nim("7 1 0"), &StopFlag::default());
            assert_eq!(analysis.action, 1, "seed {seed}: {analysis:?}");
        }
    }

    #[test]
    fn a_raised_stop_flag_ends_every_thread() {
        let state = Nim::new(&NimOptions { pile: 60 }, 0);
        let mut mcts = agent("ai:mcts:iterations=1000000000000,threads=2,parallel=tree");
        let stop = StopFlag::default();
        stop.raise();
        let analysis = mcts.analyse(&state, &stop);
        assert!(state.is_legal(analysis.action));
        assert!(
            analysis.nodes <= 16,
            "each thread checks every 8: {}",
            analysis.nodes
        );
        let stop = StopFlag::default();
        let started = Instant::now();
        let analysis = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                stop.raise();
            });
            mcts.analyse(&state, &stop)
        });
        assert!(state.is_legal(analysis.action));
        assert!(started.elapsed() < Duration::from_secs(20), "it stopped");
    }

    #[test]
    fn the_shared_tree_is_kept_for_a_later_decision() {
        // Each node breadth-first below `node`: its statistics, decision, mover and children.
        type Line = (u32, u64, Option<u8>, u8, usize);
        fn listing(tree: &SharedTree<Nim>, node: &Node<u8>) -> Vec<Line> {
            let mut lines = Vec::new();
            let mut queue = std::collections::VecDeque::from([node]);
            while let Some(node) = queue.pop_front() {
                let children = tree.children_of(node);
                lines.push((
                    node.visits.load(Relaxed),
                    node.value().to_bits(),
                    node.action(),
                    node.mover(),
                    children.len(),
                ));
                queue.extend(children);
            }
            lines
        }
        let mut mcts = agent("ai:mcts:iterations=3000,threads=2,parallel=tree");
        let state = Nim::new(&NimOptions { pile: 20 }, 0);
        mcts.analyse(&state, &StopFlag::default());
        let old = mcts.shared.take().unwrap();
        // Two decisions down the most visited line.
        let mut next = state.clone();
        let mut node = old.root();
        for _ in 0..2 {
            node = old
                .children_of(node)
                .iter()
                .max_by_key(|child| child.visits.load(Relaxed))
                .unwrap();
            next.apply(node.action().unwrap());
        }
        let index = old.find(&next).expect("two decisions below the root");
        let mut kept = listing(&old, old.arena.node(index));
        // `1 2` and `2 1` leave the same pile: the kept node is the most visited of the two.
        assert!(kept[0].0 >= node.visits.load(Relaxed));
        assert!(
            kept.len() > 2 * SEGMENT,
            "{} nodes, over segments",
            kept.len()
        );
        let tree = SharedTree::reuse(Some(old), &next, 1000);
        // The same subtree, whose root has no decision.
        kept[0].2 = None;
        assert_eq!(listing(&tree, tree.root()), kept);
        assert_eq!(tree.size.load(Relaxed), kept.len());
        let unrelated = SharedTree::reuse(Some(tree), &Nim::new(&NimOptions { pile: 9 }, 0), 1000);
        assert_eq!(unrelated.size.load(Relaxed), 1);
        assert!(unrelated.children_of(unrelated.root()).is_empty());
    }

    #[test]
    fn a_full_tree_still_plays() {
        let state = Nim::new(&NimOptions { pile: 12 }, 0);
        for tree in [1, 3] {
            let mut mcts = agent(&format!(
                "ai:mcts:iterations=200,threads=2,parallel=tree,tree={tree}"
            ));
            let analysis = mcts.analyse(&state, &StopFlag::default());
            assert!(state.is_legal(analysis.action), "tree={tree}");
            assert_eq!(analysis.nodes, 400);
        }
    }
}
