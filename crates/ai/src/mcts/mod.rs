//! Monte Carlo tree search (UCT) for any number of seats: part of level 5.
//!
//! Each iteration walks down the tree choosing, at every node, the child that maximises
//! `mean reward + c·sqrt(ln N / n)` for the seat deciding there (unvisited children first, in
//! an order shuffled by the seeded generator), plays a random game from the first new node,
//! and adds the result to every node of the path. A result is a reward vector, one value per
//! seat ([`Outcome::reward`](ludus_engine::Outcome::reward): 1 for the winner, a share for a
//! draw), and each node keeps the total for the seat that chose it, so the same seat deciding
//! several times in a row and 3–4 seat games need no special case.
//!
//! Nodes live in one `Vec` (an arena indexed by `u32`): the children of a node are contiguous,
//! created all at once on its second visit. When the arena is full the search goes on with
//! playouts from the frontier. After a decision the tree is kept; on the next call, if the new
//! state descends from the old root (found by key within a few decisions), the matching subtree
//! is copied into a fresh arena and the search continues from it.
//!
//! Parameters (`ai:mcts:time=0.5,c=0.8`):
//!
//! | key | meaning | range | default |
//! |---|---|---|---|
//! | `time` | seconds per decision (`0`: no limit, only beside `iterations`) | 0–3600 | 1, or none if `iterations` is given |
//! | `iterations` (or `nodes`) | iterations per decision | 1–10¹² | none |
//! | `c` | exploration constant | above 0, at most 100 | 1.0 |
//! | `cutoff` | stop playouts after this many decisions and score with [`Heuristic::evaluate`] (`0`: play to the end) | 0–100 000 | 0 |
//! | `scale` | evaluation units for which a cut-off reward reaches 73 % (logistic) | above 0, at most 10⁹ | 200 |
//! | `tree` | most nodes in the arena | 1–67 108 864 | 1 000 000 |
//! | `reuse` | keep the tree between decisions | `true`/`false` | true |
//! | `threads` | search threads | 1–64 | 1 |
//! | `parallel` | how several threads share the search: `tree` (one tree, see [`tree_parallel`]) or `root` (a tree each, see [`root_parallel`]) | `tree`/`root` | tree |
//! | `hold` | visits from which a thread on one tree writes a node's updates in batches (see [`held_back`]) | 1–4 294 967 295 | 16 |
//! | `spread` | the last thread's exploration constant on one tree as a multiple of `c`, the threads between evenly spaced from `c` (see [`selection::exploration_of`]; 1: all alike) | above 0, at most 10 | 0.9 |
//!
//! A value outside its range is refused with the range, not clamped.
//!
//! With `threads=T` an iteration limit applies to each thread (`iterations=N,threads=T` runs
//! `N·T` iterations), and so does the time limit. `threads=1` never touches the shared tree:
//! its decisions for a seed and an iteration count are those of the one-thread search above.
//! Two threads on one tree, each running N iterations, gained +89 ± 65 Elo over one
//! thread's N in Yoxii, as much as doubling one thread's iterations (docs/STRENGTH.md).

mod config;
mod exploration;
mod held_back;
mod kept_node;
mod meetings;
mod node;
mod root_parallel;
mod selection;
mod shared_tree;
mod tree_parallel;
mod worker;

use ludus_engine::{random_playout, Game, Heuristic, Seat, Verdict, MAX_SEATS};
use node::{unpacked, Node, NO_ACTION};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

pub use config::{MctsConfig, Parallel};
pub use meetings::{MeetingRates, Meetings, LEVELS as MEETING_LEVELS};

use crate::alphabeta::time::Clock;
use crate::{Agent, Analysis, Evaluation, StopFlag};

/// Random playouts longer than this many decisions count as draws.
const PLAYOUT_LIMIT: u64 = 100_000;
/// How many nodes the search for a descendant of the old root may look at.
const REUSE_SEARCH_LIMIT: usize = 20_000;
/// How many decisions below the old root a new root is looked for.
const REUSE_DEPTH: u8 = 8;
/// `mover` of a node whose state is finished or not known yet.
const NO_SEAT: u8 = u8::MAX;
/// A search tree with the state at its root (node 0).
#[derive(Debug)]
struct Tree<G: Game> {
    root: G,
    nodes: Vec<Node<G::Action>>,
}

impl<G: Game> Tree<G> {
    fn new(root: G) -> Self {
        Tree {
            root,
            nodes: vec![Node::new(None)],
        }
    }

    /// The node whose state is `state`, looked for below the root ([`kept_node`]).
    fn find(&self, state: &G) -> Option<usize> {
        kept_node::find_kept(0, &self.root, state, |index| {
            let node = &self.nodes[index];
            let children = if node.expanded {
                node.child_range()
            } else {
                0..0
            };
            children.map(|child| (child, self.nodes[child].action(), self.nodes[child].visits))
        })
    }

    /// The subtree under `index` as a new tree rooted at `state`.
    fn subtree(self, index: usize, state: G) -> Tree<G> {
        let mut nodes = vec![Node {
            action: NO_ACTION,
            ..self.nodes[index]
        }];
        let mut origin = vec![index];
        let mut next = 0;
        while next < nodes.len() {
            let old = self.nodes[origin[next]];
            if old.expanded {
                nodes[next].first_child = nodes.len() as u32;
                for child in old.child_range() {
                    nodes.push(self.nodes[child]);
                    origin.push(child);
                }
            }
            next += 1;
        }
        Tree { root: state, nodes }
    }
}

/// The MCTS agent.
#[derive(Debug)]
pub struct MctsAgent<G: Game> {
    config: MctsConfig,
    spec: String,
    rng: SmallRng,
    tree: Option<Tree<G>>,
    path: Vec<usize>,
    actions: Vec<G::Action>,
    /// With root parallelism, the other threads' searchers (`threads - 1` of them).
    helpers: Vec<MctsAgent<G>>,
    /// With tree parallelism, one worker per thread, and the tree they share.
    workers: Vec<crossbeam_utils::CachePadded<worker::Worker<G::Action>>>,
    shared: Option<shared_tree::SharedTree<G>>,
}

impl<G: Game + Heuristic> MctsAgent<G> {
    /// An agent with `config`, its spec text `spec` and a seed.
    pub fn new(config: MctsConfig, spec: String, seed: u64) -> Self {
        let helper = MctsConfig {
            threads: 1,
            ..config
        };
        let threads = config.threads.max(1);
        let tree_parallel = threads > 1 && config.parallel == Parallel::Tree;
        let trees = if tree_parallel { 1 } else { threads };
        MctsAgent {
            config,
            rng: SmallRng::seed_from_u64(seed),
            tree: None,
            path: Vec::new(),
            actions: Vec::new(),
            helpers: (1..trees)
                .map(|i| MctsAgent::new(helper, spec.clone(), seed ^ ((i as u64) << 32)))
                .collect(),
            workers: if tree_parallel {
                worker::Worker::team(threads, seed)
            } else {
                Vec::new()
            },
            shared: None,
            spec,
        }
    }

    /// The tree to search from `state`: the matching part of the last one, or a new one.
    fn take_tree(&mut self, state: &G) -> Tree<G> {
        let old = self.tree.take().filter(|_| self.config.reuse);
        match old.and_then(|tree| tree.find(state).map(|index| (tree, index))) {
            Some((tree, 0)) => tree,
            Some((tree, index)) => tree.subtree(index, state.clone()),
            None => Tree::new(state.clone()),
        }
    }

    fn search(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        let mover = state
            .to_move()
            .expect("agents are only asked to decide while the game is on");
        if let Some(action) = self.immediate_win(state, mover) {
            self.tree = None;
            self.shared = None;
            return Analysis {
                evaluation: Some(Evaluation::Win(1)),
                depth: 1,
                ..Analysis::bare(action)
            };
        }
        if !self.workers.is_empty() {
            return tree_parallel::search(self, state, stop);
        }
        if !self.helpers.is_empty() {
            return root_parallel::search(self, state, stop);
        }
        let (iterations, depth) = self.grow(state, stop);
        let tree = self.tree.as_ref().expect("grow leaves its tree");
        Self::report(tree, state, iterations, depth)
    }

    /// Grows the tree for `state` until the budget is spent, and keeps it. Returns the
    /// iterations run and the deepest the tree part of a path went.
    fn grow(&mut self, state: &G, stop: &StopFlag) -> (u64, u32) {
        let mut tree = self.take_tree(state);
        let clock = Clock::start(self.config.budget, stop);
        let mut iterations = 0;
        let mut depth = 0;
        let limit = self.config.budget.nodes;
        loop {
            depth = depth.max(self.iterate(&mut tree));
            iterations += 1;
            // The clock is read every 8 iterations: a playout costs far more than the rest.
            if iterations >= limit || (iterations % 8 == 0 && clock.must_stop(iterations)) {
                break;
            }
        }
        self.tree = Some(tree);
        (iterations, depth as u32)
    }

    /// A decision that wins the game at once, if there is one.
    fn immediate_win(&mut self, state: &G, mover: Seat) -> Option<G::Action> {
        state.legal_actions(&mut self.actions);
        self.actions.iter().copied().find(|&action| {
            let mut next = state.clone();
            next.apply(action);
            next.verdict() == Some(Verdict::Win(mover))
        })
    }

    /// One iteration: select, expand, play out, back up. Returns how many decisions below
    /// the root the tree part of the path went.
    fn iterate(&mut self, tree: &mut Tree<G>) -> usize {
        let mut state = tree.root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        let rewards = loop {
            if state.verdict().is_some() {
                break rewards_of(&state);
            }
            let current = tree.nodes[node];
            if (current.visits == 0 && node != 0)
                || (!current.expanded && !self.expand(tree, node, &state))
            {
                break self.playout(&mut state);
            }
            node = self.select(tree, node);
            if let Some(action) = tree.nodes[node].action() {
                state.apply(action);
            }
            self.path.push(node);
        };
        let nodes = &mut tree.nodes;
        nodes[0].visits += 1;
        for pair in self.path.windows(2) {
            let mover = usize::from(nodes[pair[0]].mover).min(MAX_SEATS - 1);
            nodes[pair[1]].add(rewards[mover]);
        }
        self.path.len() - 1
    }

    /// Creates the children of `node`; false if the arena is full.
    fn expand(&mut self, tree: &mut Tree<G>, node: usize, state: &G) -> bool {
        state.legal_actions(&mut self.actions);
        let first = tree.nodes.len();
        let Ok(count) = u16::try_from(self.actions.len()) else {
            return false;
        };
        if first + self.actions.len() > self.config.tree_nodes || count == 0 {
            return false;
        }
        self.actions.shuffle(&mut self.rng);
        tree.nodes
            .extend(self.actions.iter().map(|&action| Node::new(Some(action))));
        let parent = &mut tree.nodes[node];
        parent.first_child = first as u32;
        parent.children = count;
        parent.expanded = true;
        parent.mover = state
            .to_move()
            .map_or(NO_SEAT, |seat| seat.to_usize() as u8);
        true
    }

    /// The child of `node` to follow: the first unvisited one, else the best UCT score.
    fn select(&self, tree: &Tree<G>, node: usize) -> usize {
        let parent = &tree.nodes[node];
        let exploration = self.config.exploration as f32 * exploration::sqrt_ln(parent.visits);
        let mut best = (f32::NEG_INFINITY, parent.first_child as usize);
        for index in parent.child_range() {
            let child = &tree.nodes[index];
            if child.visits == 0 {
                return index;
            }
            let score = child.mean + exploration * child.spread;
            if score > best.0 {
                best = (score, index);
            }
        }
        best.1
    }

    /// Plays `state` out at random (up to the cut-off) and returns the rewards per seat.
    fn playout(&mut self, state: &mut G) -> [f64; MAX_SEATS] {
        play_out(&self.config, state, &mut self.rng, &mut self.actions)
    }

    /// The analysis of a finished search: the most visited root child and its mean reward.
    fn report(tree: &Tree<G>, state: &G, iterations: u64, depth: u32) -> Analysis<G::Action> {
        let best_child = |node: &Node<G::Action>| {
            node.child_range().max_by(|&a, &b| {
                let (a, b) = (&tree.nodes[a], &tree.nodes[b]);
                a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean()))
            })
        };
        let Some(first) = best_child(&tree.nodes[0]).filter(|_| tree.nodes[0].expanded) else {
            // Not even one expansion (a full arena): any legal decision.
            let mut actions = Vec::new();
            state.legal_actions(&mut actions);
            return Analysis::bare(actions[0]);
        };
        let mut pv = Vec::new();
        let mut node = first;
        loop {
            pv.extend(tree.nodes[node].action());
            match best_child(&tree.nodes[node]) {
                Some(next) if tree.nodes[node].expanded && tree.nodes[next].visits > 0 => {
                    node = next;
                }
                _ => break,
            }
        }
        let chosen = &tree.nodes[first];
        Analysis {
            action: pv[0],
            evaluation: Some(Evaluation::Reward(chosen.mean())),
            depth,
            nodes: iterations,
            pv,
        }
    }
}

/// Plays `state` out at random with `rng` (up to the cut-off of `config`) and returns the
/// rewards per seat; `actions` is a buffer.
fn play_out<G: Game + Heuristic>(
    config: &MctsConfig,
    state: &mut G,
    rng: &mut SmallRng,
    actions: &mut Vec<G::Action>,
) -> [f64; MAX_SEATS] {
    let limit = match config.cutoff {
        0 => PLAYOUT_LIMIT,
        n => n,
    };
    random_playout(state, rng, actions, limit);
    if state.verdict().is_some() || config.cutoff == 0 {
        return rewards_of(state);
    }
    let mut rewards = [0.0; MAX_SEATS];
    for seat in Seat::all(state.seat_count()) {
        let score = f64::from(state.evaluate(seat)) / config.scale;
        rewards[seat.to_usize()] = 1.0 / (1.0 + (-score).exp());
    }
    rewards
}

/// The reward of each seat in a finished `state`, or the draw share if it is not finished.
fn rewards_of<G: Game>(state: &G) -> [f64; MAX_SEATS] {
    let seats = state.seat_count();
    let mut rewards = [0.0; MAX_SEATS];
    for seat in Seat::all(seats) {
        rewards[seat.to_usize()] = state
            .verdict()
            .map_or(1.0 / seats as f64, |v| v.reward(seat, seats));
    }
    rewards
}

impl<G: Game + Heuristic> Agent<G> for MctsAgent<G> {
    fn choose(&mut self, state: &G, stop: &StopFlag) -> G::Action {
        state.legal_actions(&mut self.actions);
        match self.actions[..] {
            [only] => only,
            _ => self.search(state, stop).action,
        }
    }

    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        self.search(state, stop)
    }

    /// The threads' meetings in the last search, summed, with tree parallelism.
    fn meetings(&self) -> Option<Meetings> {
        Meetings::total(self.workers.iter().map(|worker| worker.meetings))
    }

    /// The root's visit shares, summed over the trees (root parallelism) or read from the
    /// shared tree (tree parallelism).
    fn policy(&self) -> Vec<(G::Action, f64)> {
        let mut visits: Vec<(G::Action, f64)> = Vec::new();
        let mut add =
            |action: G::Action, count: u32| match visits.iter_mut().find(|(a, _)| *a == action) {
                Some((_, total)) => *total += f64::from(count),
                None => visits.push((action, f64::from(count))),
            };
        if let Some(shared) = &self.shared {
            for (action, count) in shared.root_visits() {
                add(action, count);
            }
        }
        let trees = std::iter::once(&self.tree).chain(self.helpers.iter().map(|h| &h.tree));
        for tree in trees.flatten() {
            let root = &tree.nodes[0];
            if !root.expanded {
                continue;
            }
            for child in &tree.nodes[root.child_range()] {
                if let Some(action) = child.action() {
                    add(action, child.visits);
                }
            }
        }
        let total: f64 = visits.iter().map(|(_, v)| v).sum();
        if total > 0.0 {
            for (_, share) in &mut visits {
                *share /= total;
            }
        }
        visits
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn budget_mut(&mut self) -> Option<&mut crate::SearchBudget> {
        Some(&mut self.config.budget)
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};
    use ludus_engine::Rules;

    use super::*;
    use crate::AgentSpec;

    fn agent(text: &str) -> MctsAgent<Nim> {
        let spec: AgentSpec = text.parse().unwrap();
        MctsAgent::new(MctsConfig::from_spec(&spec).unwrap(), text.into(), 5)
    }

    #[test]
    fn visits_add_up_and_the_tree_is_reused() {
        let mut mcts = agent("ai:mcts:iterations=500");
        let state = Nim::new(&NimOptions { pile: 12 }, 0);
        let analysis = mcts.analyse(&state, &StopFlag::default());
        assert_eq!(analysis.nodes, 500);
        let tree = mcts.tree.as_ref().unwrap();
        assert_eq!(tree.nodes[0].visits, 500);
        let children: u32 = tree.nodes[0]
            .child_range()
            .map(|c| tree.nodes[c].visits)
            .sum();
        assert_eq!(children, 500, "every iteration goes through a child");
        // Two decisions on (our own, then the opponent's), the subtree is found and kept.
        let mut next = state.clone();
        next.apply(analysis.action);
        next.apply(1);
        let index = tree.find(&next).expect("the new state is in the tree");
        let kept = tree.nodes[index].visits;
        assert!(kept > 0);
        let tree = mcts.take_tree(&next);
        assert_eq!(tree.nodes[0].visits, kept);
        assert!(tree.nodes[0].action().is_none());
        for node in &tree.nodes {
            if node.expanded {
                assert!(node.child_range().end <= tree.nodes.len());
            }
        }
    }

    #[test]
    fn an_unrelated_state_starts_a_new_tree() {
        let mut mcts = agent("ai:mcts:iterations=100");
        mcts.analyse(&Nim::new(&NimOptions { pile: 12 }, 0), &StopFlag::default());
        let other = Nim::new(&NimOptions { pile: 30 }, 0);
        assert_eq!(mcts.take_tree(&other).nodes.len(), 1);
    }

    #[test]
    fn a_full_arena_still_plays() {
        let mut mcts = agent("ai:mcts:iterations=200,tree=1");
        let state = Nim::new(&NimOptions { pile: 12 }, 0);
        let analysis = mcts.analyse(&state, &StopFlag::default());
        assert!(state.is_legal(analysis.action));
    }

    #[test]
    fn cut_off_playouts_score_with_the_evaluation() {
        let mut mcts = agent("ai:mcts:iterations=300,cutoff=2,scale=100");
        let state = Nim::new(&NimOptions { pile: 40 }, 0);
        let analysis = mcts.analyse(&state, &StopFlag::default());
        let Some(Evaluation::Reward(reward)) = analysis.evaluation else {
            panic!("a reward");
        };
        assert!((0.0..=1.0).contains(&reward));
    }
}
