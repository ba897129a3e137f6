//! The conformance check of [`Encoding`]: action ids and observation tensors over seeded
//! random games, as OpenSpiel's `RandomSimTest` checks a game's action space and tensors.

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use crate::encoding::observation_len;
use crate::{Encoding, PackedAction, Seat};

/// Plays `games` random games with `options` and checks after every decision that
///
/// - every legal action's id is below `num_distinct_actions`, distinct from the other legal
///   actions' ids, and `action_from_id` gives the action back; its packed form
///   ([`crate::PackedAction`]) unpacks to it and is not `u32::MAX`;
/// - every id of the action space either names no action, or an illegal one, or the legal
///   action whose id it is (checked at every eighth decision, and at the end);
/// - ids past the action space name nothing;
/// - no game lasts more than `max_decisions`;
/// - the observation of every seat has the length of the options' shape, is finite and
///   the same whatever the buffer held before.
///
/// # Panics
/// On the first broken promise, with the game, the decision and the position.
pub fn check_encoding<G: Encoding>(options: &G::Options, games: usize, seed: u64) {
    let size = G::num_distinct_actions(options);
    let len = observation_len::<G>(options);
    assert!(size > 0 && len > 0, "empty action space or observation");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut actions = Vec::new();
    for game in 0..games {
        let mut state = G::new(options, rng.random());
        for decision in 0.. {
            let context = || format!("game {game}, decision {decision}: {}", state.position());
            state.legal_actions(&mut actions);
            check_ids(&state, &actions, size, &context);
            if decision % 8 == 0 || actions.is_empty() {
                check_id_space(&state, &actions, size, &context);
            }
            check_observations(&state, len, &context);
            let Some(&action) = actions.choose(&mut rng) else {
                break;
            };
            assert!(
                decision < G::max_decisions(options),
                "{}: longer than max_decisions",
                context()
            );
            state.apply(action);
        }
    }
}

fn check_ids<G: Encoding>(
    state: &G,
    actions: &[G::Action],
    size: usize,
    context: &impl Fn() -> String,
) {
    let mut seen = HashSet::new();
    for &action in actions {
        let id = state.action_id(action);
        assert!(
            (id as usize) < size,
            "{}: id {id} of {action:?} outside 0..{size}",
            context()
        );
        assert!(seen.insert(id), "{}: id {id} given twice", context());
        let packed = action.pack();
        assert!(
            packed != u32::MAX && G::Action::unpack(packed) == action,
            "{}: {action:?} packs to {packed}, which does not unpack to it",
            context()
        );
        assert_eq!(
            state.action_from_id(id),
            Some(action),
            "{}: id {id} does not round-trip",
            context()
        );
    }
    for id in [size as u32, size as u32 + 1, u32::MAX] {
        assert_eq!(
            state.action_from_id(id).filter(|&a| state.is_legal(a)),
            None,
            "{}: id {id} past the action space is legal",
            context()
        );
    }
}

fn check_id_space<G: Encoding>(
    state: &G,
    actions: &[G::Action],
    size: usize,
    context: &impl Fn() -> String,
) {
    let legal: HashSet<_> = actions.iter().copied().collect();
    for id in 0..size as u32 {
        if let Some(action) = state.action_from_id(id) {
            if legal.contains(&action) {
                assert_eq!(
                    state.action_id(action),
                    id,
                    "{}: id {id} names the legal {action:?} of another id",
                    context()
                );
            }
        }
    }
}

fn check_observations<G: Encoding>(state: &G, len: usize, context: &impl Fn() -> String) {
    let mut clean = vec![0.0; len];
    let mut dirty = vec![7.5; len];
    for seat in Seat::all(state.seat_count()) {
        state.observe(seat, &mut clean);
        state.observe(seat, &mut dirty);
        assert!(
            clean.iter().all(|v| v.is_finite()),
            "{}: observation of {seat} not finite",
            context()
        );
        assert_eq!(
            clean,
            dirty,
            "{}: observation of {seat} leaves stale values",
            context()
        );
    }
}
