//! A solve divided among machines: the distinct positions a few decisions deep are solved
//! apart ([`split_positions`], by shards), and their values are backed up to the root by
//! minimax over the few decisions above them ([`back_up`]).
//!
//! Positions are told apart by [`Game::canonical_key`], so the images of a position under the
//! board's symmetries are solved once; a position whose value depends on its history (no
//! canonical key) cannot be shared out.

use ludus_engine::Game;

use super::{Bounds, DecisionValue, Proved};

/// The distinct unfinished positions exactly `depth` decisions below `root` (and their
/// canonical keys), in the order a depth-first walk in legal-action order first meets them.
/// `None` if one of them has no canonical key.
pub fn split_positions<G: Game>(root: &G, depth: u32) -> Option<Vec<(u64, G)>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    walk(root, depth, &mut |state| {
        let key = state.canonical_key()?;
        if seen.insert(key) {
            out.push((key, state.clone()));
        }
        Some(())
    })?;
    Some(out)
}

/// Calls `leaf` on every unfinished position `depth` decisions below `state`.
fn walk<G: Game>(state: &G, depth: u32, leaf: &mut dyn FnMut(&G) -> Option<()>) -> Option<()> {
    if state.to_move().is_none() {
        return Some(());
    }
    if depth == 0 {
        return leaf(state);
    }
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    for action in actions {
        let mut child = state.clone();
        child.apply(action);
        walk(&child, depth - 1, leaf)?;
    }
    Some(())
}

/// A position's value and each decision's, for its seat to move.
pub type BackedUp<A> = (Bounds, Vec<DecisionValue<A>>);

/// The value of `root` and of each of its decisions from the values of the positions `depth`
/// decisions deep (`value_of` a canonical key: bounds for that position's seat to move,
/// distances from it). Errs with the key of a position `value_of` does not know.
pub fn back_up<G: Game>(
    root: &G,
    depth: u32,
    value_of: &dyn Fn(u64) -> Option<Bounds>,
) -> Result<BackedUp<G::Action>, u64> {
    let mut actions = Vec::new();
    root.legal_actions(&mut actions);
    let mut decisions = Vec::with_capacity(actions.len());
    for action in actions {
        let bounds = child_value(root, action, depth.saturating_sub(1), value_of)?;
        decisions.push(DecisionValue { action, bounds });
    }
    Ok((best_of(&decisions), decisions))
}

/// The value of the decision `action` from `state`, for `state`'s seat to move.
fn child_value<G: Game>(
    state: &G,
    action: G::Action,
    depth: u32,
    value_of: &dyn Fn(u64) -> Option<Bounds>,
) -> Result<Bounds, u64> {
    let mut child = state.clone();
    child.apply(action);
    let delta = child.turn().saturating_sub(state.turn());
    let mover = state.to_move();
    let seen = if let Some(verdict) = child.verdict() {
        return Ok(Bounds::exact(match verdict.winner() {
            Some(w) if Some(w) == mover => Proved::Win(delta),
            Some(_) => Proved::Loss(delta),
            None => Proved::Draw,
        }));
    } else if depth == 0 {
        let key = child.canonical_key().unwrap_or(child.key());
        value_of(key).ok_or(key)?
    } else {
        back_up(&child, depth, value_of)?.0
    };
    let seen = if child.to_move() == mover {
        seen
    } else {
        seen.flipped()
    };
    Ok(seen.later_by(delta))
}

/// The best of the decisions' values: the seat to move picks.
fn best_of<A>(decisions: &[DecisionValue<A>]) -> Bounds {
    decisions.iter().fold(
        Bounds {
            lower: -super::SOLVER_INFINITY,
            upper: -super::SOLVER_INFINITY,
        },
        |best, d| Bounds {
            lower: best.lower.max(d.bounds.lower),
            upper: best.upper.max(d.bounds.upper),
        },
    )
}

#[cfg(test)]
mod tests {
    use ludus_engine::Rules;
    use std::collections::HashMap;

    use ludus_engine::demo::{Nim, NimOptions};

    use super::*;
    use crate::{SolveBudget, Solver, StopFlag};

    #[test]
    fn the_split_solve_backs_up_to_the_direct_one() {
        let root = Nim::new(&NimOptions { pile: 9 }, 0);
        let mut solver = Solver::<Nim>::new(1);
        let all = SolveBudget::default();
        let stop = StopFlag::default();
        let leaves = split_positions(&root, 3).unwrap();
        assert!(leaves.len() > 2);
        let values: HashMap<u64, Bounds> = leaves
            .iter()
            .map(|(key, state)| (*key, solver.solve(state, &all, &stop).bounds))
            .collect();
        let (merged, decisions) = back_up(&root, 3, &|key| values.get(&key).copied()).unwrap();
        let (direct, each) = solver.solve_decisions(&root, &all, &stop);
        assert_eq!(merged, direct.bounds);
        let each: Vec<_> = each.iter().map(|d| d.bounds).collect();
        let merged_each: Vec<_> = decisions.iter().map(|d| d.bounds).collect();
        assert_eq!(merged_each, each);
        let missing = back_up(&root, 3, &|_| None).unwrap_err();
        assert!(values.contains_key(&missing));
    }
}
