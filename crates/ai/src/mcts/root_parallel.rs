//! MCTS on several threads by root parallelism: each thread grows its own tree from the same
//! root with its own seeded generator, and the decision is the root child with the most
//! visits summed over all trees.
//!
//! Root parallelism needs no locks and no virtual loss, and each thread's tree is exactly the
//! tree one thread grows, so its statistics stay unbiased; the trees differ through their
//! seeds (the order in which untried decisions are tried, the playouts), which is what makes
//! their sum worth more than one tree (Chaslot, Winands and van den Herik, "Parallel
//! Monte-Carlo Tree Search", 2008, found it the best of the simple schemes). A time budget
//! applies to each thread; an iteration limit too, so `iterations=N,threads=T` runs `N·T`
//! iterations in all. Each thread keeps its tree for the next decision.

use std::collections::HashMap;

use ludus_engine::{Game, Heuristic};

use super::MctsAgent;
use crate::{Analysis, Evaluation, StopFlag};

/// Visits and total reward of one root decision, summed over the trees.
#[derive(Clone, Copy, Default, Debug)]
struct Sum {
    visits: u64,
    value: f64,
}

/// Searches `state` on `agent`'s thread and on each helper's, and merges the root statistics.
pub(super) fn search<G: Game + Heuristic>(
    agent: &mut MctsAgent<G>,
    state: &G,
    stop: &StopFlag,
) -> Analysis<G::Action> {
    let mut runs = Vec::with_capacity(agent.helpers.len() + 1);
    // Out of the agent while the threads run, so that the agent itself can search too.
    let mut helpers = std::mem::take(&mut agent.helpers);
    std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .map(|helper| scope.spawn(move || helper.grow(state, stop)))
            .collect();
        runs.push(agent.grow(state, stop));
        runs.extend(handles.into_iter().filter_map(|h| h.join().ok()));
    });
    agent.helpers = helpers;
    let mut sums: HashMap<G::Action, Sum> = HashMap::new();
    let trees = std::iter::once(&*agent)
        .chain(agent.helpers.iter())
        .filter_map(|a| a.tree.as_ref());
    for tree in trees {
        let root = &tree.nodes[0];
        if !root.expanded {
            continue;
        }
        for child in &tree.nodes[root.child_range()] {
            if let Some(action) = child.action() {
                let sum = sums.entry(action).or_default();
                sum.visits += u64::from(child.visits);
                sum.value += child.value;
            }
        }
    }
    let tree = agent.tree.as_ref().expect("grow leaves its tree");
    let iterations = runs.iter().map(|&(n, _)| n).sum();
    let depth = runs.iter().map(|&(_, d)| d).max().unwrap_or(0);
    let mut analysis = MctsAgent::report(tree, state, iterations, depth);
    let mean = |sum: &Sum| sum.value / sum.visits.max(1) as f64;
    // Ties on visits go to the better mean, then to the legal order: deterministic per seed.
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let best = legal
        .iter()
        .filter_map(|action| sums.get(action).map(|sum| (*action, *sum)))
        .max_by(|(_, a), (_, b)| a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b))));
    if let Some((action, sum)) = best {
        if analysis.action != action {
            analysis.pv = vec![action];
        }
        analysis.action = action;
        analysis.evaluation = Some(Evaluation::Reward(mean(&sum)));
    }
    analysis
}
