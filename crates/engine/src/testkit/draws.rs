//! Checks for a game's playout fast path ([`Game::random_action`]): from any position every draw
//! is legal and there is none only at the end ([`draws_are_legal`], for property tests), and
//! from a position many draws hit every legal decision, nothing else, and about equally often
//! (a chi-square test with the caller's seeded generator: deterministic, with a generous bound).

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use crate::Game;

/// The state after `plies` decisions drawn from the listed legal ones (fewer if the game
/// ends) from the start under `options`: positions to test the fast path from that do not
/// come from the fast path itself.
pub fn played_at_random<G: Game>(options: &G::Options, seed: u64, plies: usize) -> G {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = G::new(options, 0);
    let mut actions = Vec::new();
    for _ in 0..plies {
        state.legal_actions(&mut actions);
        let Some(&action) = actions.choose(&mut rng) else {
            break;
        };
        state.apply(action);
    }
    state
}

/// Draws `draws` decisions from `state` with `rng`: an error naming the position if one is not
/// legal, or if there is none while the game is on (or one after its end).
pub fn draws_are_legal<G: Game, R: Rng>(
    state: &G,
    rng: &mut R,
    draws: usize,
) -> Result<(), String> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut buffer = Vec::new();
    for _ in 0..draws {
        match state.random_action(rng, &mut buffer) {
            Some(action) if !legal.contains(&action) => {
                return Err(format!("{action:?} is not legal in {}", state.position()));
            }
            None if !(legal.is_empty() && state.outcome().is_some()) => {
                return Err(format!(
                    "no draw in {}, which has {} legal decisions",
                    state.position(),
                    legal.len()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Draws `per_action` times as many decisions as `state` has and checks them.
///
/// # Panics
/// If the game is over, a draw is illegal, a legal decision is never drawn, or the counts are
/// far from uniform; the message names `label` and the position.
pub fn check_uniform_draws<G: Game, R: Rng>(
    state: &G,
    rng: &mut R,
    per_action: usize,
    label: &str,
) {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let position = state.position();
    let mut buffer = Vec::new();
    let mut counts: HashMap<G::Action, usize> = HashMap::new();
    for _ in 0..per_action * legal.len() {
        let action = state
            .random_action(rng, &mut buffer)
            .unwrap_or_else(|| panic!("{label} {position}: no draw while the game is on"));
        *counts.entry(action).or_default() += 1;
    }
    for action in &legal {
        assert!(
            counts.contains_key(action),
            "{label} {position}: {action:?} never drawn"
        );
    }
    assert_eq!(
        counts.len(),
        legal.len(),
        "{label} {position}: an illegal draw"
    );
    let expected = per_action as f64;
    let chi_square: f64 = counts
        .values()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    // Degrees of freedom k - 1 have mean k - 1 and deviation sqrt(2(k - 1)): six deviations
    // above the mean is far beyond chance, yet a biased draw (one decision twice as likely
    // among 20) scores above 300.
    let freedom = (legal.len() - 1) as f64;
    let bound = freedom + 6.0 * (2.0 * freedom).sqrt() + 10.0;
    assert!(
        chi_square < bound,
        "{label} {position}: chi-square {chi_square:.1} over {bound:.1} for {} decisions",
        legal.len()
    );
}
