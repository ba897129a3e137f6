//! How a thread on the shared tree (`parallel=tree`) chooses the child to follow: the UCT
//! scan of a node's children, with the thread's own held-back visits counted as written, and
//! the thread's own exploration constant.

use std::sync::atomic::Ordering::Relaxed;

use super::exploration::sqrt_ln;
use super::held_back::HeldBack;
use super::shared_tree::Node;
use super::MctsConfig;

/// The last thread's exploration constant on one tree as a multiple of `c`, unless the spec
/// gives `spread` (see [`exploration_of`]).
pub(super) const SPREAD: f64 = 0.9;

/// A selection's choice among a node's children.
pub(super) struct Chosen {
    /// The child to follow.
    pub(super) index: usize,
    /// Its visits as read (again, after the scan).
    pub(super) seen: u32,
    /// Children read (all, unless an unvisited one ended the scan).
    pub(super) scanned: u32,
}

/// The child to follow, with its visits as read: the first unvisited one, else the best
/// UCT score, where visits still running count as losses (and, on the busiest nodes, the
/// visits `held` back by this thread count as written). Also how many children it read.
pub(super) fn select<A: Copy>(
    children: &[Node<A>],
    parent_visits: u32,
    exploration: f32,
    held: &HeldBack<'_, A>,
) -> Chosen {
    let exploration = exploration * sqrt_ln(parent_visits);
    let mut best = (f32::NEG_INFINITY, 0);
    for (index, child) in children.iter().enumerate() {
        let visits = child.visits.load(Relaxed);
        if visits == 0 {
            return Chosen {
                index,
                seen: 0,
                scanned: index as u32 + 1,
            };
        }
        // A busy node's visits held back by this thread count as if written.
        let mean = held.mean_seen(child, visits);
        let score = mean + exploration * child.spread();
        if score > best.0 {
            best = (score, index);
        }
    }
    // The chosen child's visits read again rather than kept beside the best score: a
    // conditional move fewer for every child scanned, and a load from a line just read.
    Chosen {
        index: best.1,
        seen: children.get(best.1).map_or(0, |c| c.visits.load(Relaxed)),
        scanned: children.len() as u32,
    }
}

/// The exploration constant of thread `id` (from 1) on one tree: `c` for the first thread,
/// `c × spread` for the last, evenly spaced between (two threads: `c` and `0.9 c` by default).
///
/// A thread holds back its updates of the busiest nodes (`held_back`), so there it does not
/// see the others' running visits, the virtual loss that sends threads apart lower down; with
/// one constant, threads reading the same statistics chose the same child at every busy node,
/// met again at the young nodes below and passed those nodes' cache lines back and forth.
/// Constants a little apart break those near-ties differently. Below `c` rather than above:
/// a second thread exploring more (`1.1 c` to `1.5 c`) cost Yoxii 16–60 Elo at equal
/// iterations, one exploring less cost nothing measurable in any game (`docs/SCALING.md`,
/// "Threads apart by their exploration").
pub(super) fn exploration_of(config: &MctsConfig, id: u8) -> f32 {
    let last = config.threads.max(2) - 1;
    let step = (config.spread - 1.0) / last as f64;
    let rank = f64::from(id.saturating_sub(1)).min(last as f64);
    (config.exploration * (1.0 + step * rank)) as f32
}

#[cfg(test)]
mod tests {
    use super::super::held_back::HOLD_FROM;
    use super::super::shared_tree::REWARD_UNIT;
    use super::*;

    /// The settings of the agent spec `text`.
    fn config(text: &str) -> MctsConfig {
        MctsConfig::from_spec(&text.parse().expect("a spec")).expect("valid settings")
    }

    #[test]
    fn selection_counts_the_visits_this_thread_holds_back() {
        // Three busy children, the second best as the shared statistics stand: 40 %, 60 % and
        // 50 % (not the first: what is held for the child scanned must be the one read).
        let children: Vec<Node<u8>> = (0..3).map(|_| Node::new()).collect();
        for (child, share) in children.iter().zip([0.4, 0.6, 0.5]) {
            // Units for the whole total: `reward_units` takes one playout's reward, at most 1.
            child.add(
                HOLD_FROM,
                (REWARD_UNIT * share * f64::from(HOLD_FROM)) as u64,
            );
        }
        let parent = 3 * HOLD_FROM;
        let mut held = HeldBack::new(1, HOLD_FROM);
        assert_eq!(select(&children, parent, 1.0, &held).index, 1);
        // This thread's losses through the second, held back and not yet written: 30 % as it
        // sees it.
        held.add(&children[1], HOLD_FROM, 0);
        assert_eq!(
            select(&children, parent, 1.0, &held).index,
            2,
            "its own held-back visits count"
        );
        let other = HeldBack::new(2, HOLD_FROM);
        assert_eq!(
            select(&children, parent, 1.0, &other).index,
            1,
            "another thread sees only what was written"
        );
    }

    #[test]
    fn the_threads_exploration_runs_from_c_to_c_times_the_spread() {
        let constants = |text: &str, threads: u8| {
            let config = config(text);
            (1..=threads)
                .map(|id| exploration_of(&config, id))
                .collect::<Vec<_>>()
        };
        assert_eq!(constants("ai:mcts:threads=2", 2), [1.0, SPREAD as f32]);
        assert_eq!(constants("ai:mcts:threads=2,spread=0.8", 2), [1.0, 0.8]);
        assert_eq!(
            constants("ai:mcts:threads=5,c=0.5,spread=3", 5),
            [0.5, 0.75, 1.0, 1.25, 1.5]
        );
        assert_eq!(constants("ai:mcts:threads=3,spread=1", 3), [1.0; 3]);
        assert_eq!(constants("ai:mcts", 1), [1.0], "one thread keeps c");
    }

    #[test]
    fn two_threads_choose_apart_where_the_exploration_decides() {
        let config = config("ai:mcts:threads=2,spread=1.5");
        // A well-tried child at 75 % and a less-tried one at 45 %: with `c` the first wins
        // (1.01 against 0.97), with `1.5 c` the second (1.24 against 1.14).
        let children: Vec<Node<u8>> = (0..2).map(|_| Node::new()).collect();
        for (child, visits, share) in [(&children[0], 64, 0.75), (&children[1], 16, 0.45)] {
            child.add(visits, (REWARD_UNIT * share * f64::from(visits)) as u64);
        }
        let chosen = |id: u8| {
            let held = HeldBack::new(id, HOLD_FROM);
            let exploration = exploration_of(&config, id);
            let chosen = select(&children, 80, exploration, &held);
            (chosen.index, chosen.seen)
        };
        // Each with the visits of the child it chose.
        assert_eq!((chosen(1), chosen(2)), ((0, 64), (1, 16)));
    }
}
