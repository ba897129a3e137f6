//! Finding, in the tree kept from the last decision, the node of the position the game has
//! reached since, so that the search goes on from its statistics: one search for both the
//! one-thread tree and the shared tree.
//!
//! The game may reach a position by decisions the tree also holds in another order (Two-step
//! Nim's `1 2` and `2 1`; any game's independent moves). The node kept is the most visited of
//! those at the shallowest depth the position appears, not the first one found: it holds the
//! most work, and the first one may be a line the search hardly looked at.

use std::collections::VecDeque;

use ludus_engine::Game;

use super::{REUSE_DEPTH, REUSE_SEARCH_LIMIT};

/// A child as the finder sees it: where it is, the decision that led to it and its visits.
pub(super) type Child<H, A> = (H, Option<A>, u32);

/// The node below `root` (whose state is `root_state`) whose state is `state`, looked for
/// breadth-first at most [`REUSE_DEPTH`] decisions down and among at most
/// [`REUSE_SEARCH_LIMIT`] nodes; `children` lists a node's children.
pub(super) fn find_kept<G, H, I>(
    root: H,
    root_state: &G,
    state: &G,
    children: impl Fn(H) -> I,
) -> Option<H>
where
    G: Game,
    H: Copy,
    I: Iterator<Item = Child<H, G::Action>>,
{
    let same = |s: &G| {
        s.key() == state.key() && s.turn() == state.turn() && s.position() == state.position()
    };
    if same(root_state) {
        return Some(root);
    }
    let mut queue = VecDeque::from([(root, root_state.clone(), 0u8)]);
    let mut looked = 0;
    // The most visited match so far, with its visits, and the depth of the matches.
    let mut best: Option<(H, u32)> = None;
    let mut match_depth = None;
    while let Some((node, node_state, depth)) = queue.pop_front() {
        if depth >= REUSE_DEPTH || match_depth.is_some_and(|found| depth >= found) {
            break;
        }
        for (child, action, visits) in children(node) {
            if visits == 0 {
                continue;
            }
            let mut next = node_state.clone();
            next.apply(action?);
            if same(&next) {
                match_depth = Some(depth + 1);
                if best.is_none_or(|(_, most)| visits > most) {
                    best = Some((child, visits));
                }
                continue;
            }
            looked += 1;
            if looked > REUSE_SEARCH_LIMIT {
                return best.map(|(child, _)| child);
            }
            if match_depth.is_none() {
                queue.push_back((child, next, depth + 1));
            }
        }
    }
    best.map(|(child, _)| child)
}

#[cfg(test)]
mod tests {
    use ludus_engine::demo::{Nim, NimOptions};
    use ludus_engine::Rules;

    use super::*;

    /// A hand-made tree of Two-step Nim: node 0 the root, each entry a node's children.
    struct Listed {
        children: Vec<Vec<Child<usize, u8>>>,
    }

    impl Listed {
        fn children(&self, node: usize) -> impl Iterator<Item = Child<usize, u8>> + '_ {
            self.children.get(node).into_iter().flatten().copied()
        }
    }

    #[test]
    fn the_most_visited_transposition_is_kept() {
        let root = Nim::new(&NimOptions { pile: 9 }, 0);
        // 1 then 2 (node 3, visited 4 times) and 2 then 1 (node 5, visited 40 times) both
        // leave 6 stones; 2 then 2 (node 6) leaves 5.
        let tree = Listed {
            children: vec![
                vec![(1, Some(1), 10), (2, Some(2), 60)],
                vec![(3, Some(2), 4), (4, Some(1), 6)],
                vec![(5, Some(1), 40), (6, Some(2), 20)],
            ],
        };
        let after = |takes: &[u8]| {
            let mut state = root.clone();
            for &take in takes {
                state.apply(take);
            }
            state
        };
        let find = |takes: &[u8]| find_kept(0, &root, &after(takes), |node| tree.children(node));
        assert_eq!(
            find(&[1, 2]),
            Some(5),
            "the line visited 40 times, not the first found"
        );
        assert_eq!(find(&[2, 1]), Some(5));
        assert_eq!(find(&[2, 2]), Some(6));
        assert_eq!(find(&[1]), Some(1));
        assert_eq!(find(&[]), Some(0));
        assert_eq!(find(&[1, 1, 1]), None, "not in the tree");
    }

    #[test]
    fn unvisited_children_are_not_kept() {
        let root = Nim::new(&NimOptions { pile: 9 }, 0);
        let tree = Listed {
            children: vec![vec![(1, Some(1), 0), (2, Some(2), 3)]],
        };
        let mut state = root.clone();
        state.apply(1);
        assert_eq!(
            find_kept(0, &root, &state, |node| tree.children(node)),
            None
        );
    }
}
