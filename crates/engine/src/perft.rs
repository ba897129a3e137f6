//! Perft: the number of distinct decision sequences that make up N complete turns.
//!
//! A game that ends before N turns counts as one leaf. These are the counts the specs quote
//! (Qawale 40, Yoxii 256, Replica 43, Qilin 24, Splut! 3 for one turn).

use rand::Rng;

use crate::Rules;

/// Counts the decision sequences from `state` that complete `turns` turns.
pub fn perft<G: Rules>(state: &G, turns: u32) -> u64 {
    let target = state.turn().saturating_add(turns);
    let mut buffers = Vec::new();
    count(state, target, 0, &mut buffers)
}

fn count<G: Rules>(state: &G, target: u32, depth: usize, buffers: &mut Vec<Vec<G::Action>>) -> u64 {
    if state.verdict().is_some() || state.turn() >= target {
        return 1;
    }
    if buffers.len() <= depth {
        buffers.push(Vec::new());
    }
    // Reuse one buffer per depth: no allocation once the deepest line has been seen.
    let mut actions = std::mem::take(&mut buffers[depth]);
    state.legal_actions(&mut actions);
    let mut total = 0;
    for &action in &actions {
        let mut next = state.clone();
        next.apply(action);
        total += count(&next, target, depth + 1, buffers);
    }
    buffers[depth] = actions;
    total
}

/// Plays uniformly random decisions until the game ends or `max_decisions` have been made;
/// returns the number of decisions. `buffer` is reused between calls. The game's
/// [`Rules::play_randomly`] does the work (its own fast loop, if it has one).
pub fn random_playout<G: Rules, R: Rng>(
    state: &mut G,
    rng: &mut R,
    buffer: &mut Vec<G::Action>,
    max_decisions: u64,
) -> u64 {
    state.play_randomly(rng, buffer, max_decisions)
}
