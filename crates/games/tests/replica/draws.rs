//! The playout fast path `Game::random_action`: Replica draws a piece's slot and keeps it if it
//! is legal, so these tests hold it to the list. Every draw is legal (a property over random
//! positions under both sight modes), `None` comes exactly when the game is over, and from
//! fixed positions many draws hit every legal decision about equally often (a chi-square test
//! with a fixed seed: deterministic, generous bound).

use ludus_engine::testkit::{check_uniform_draws, draws_are_legal, played_at_random};
use ludus_engine::Rules;
use ludus_games::replica::{Replica, ReplicaAction, ReplicaOptions, Sight};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The state after `plies` uniformly random decisions (fewer if the game ends) from the start.
fn random_position(sight: Sight, seed: u64, plies: usize) -> Replica {
    played_at_random(&ReplicaOptions { sight }, seed, plies)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_draw_is_legal_and_none_only_at_the_end(
        seed in any::<u64>(),
        plies in 0usize..200,
        all_eight in any::<bool>(),
    ) {
        let sight = if all_eight { Sight::All8 } else { Sight::Forward3 };
        let state = random_position(sight, seed, plies);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
        let checked = draws_are_legal(&state, &mut rng, 40);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

/// Positions with transforms among their decisions, and the start, under both sight modes.
fn positions() -> Vec<Replica> {
    let mut found = Vec::new();
    let mut legal = Vec::new();
    for sight in [Sight::Forward3, Sight::All8] {
        found.push(Replica::new(&ReplicaOptions { sight }, 0));
        let with_transform = (0..5_000u64)
            .flat_map(|seed| (4..60).step_by(5).map(move |plies| (seed, plies)))
            .map(|(seed, plies)| random_position(sight, seed, plies))
            .find(|state| {
                state.legal_actions(&mut legal);
                state.outcome().is_none()
                    && legal.len() > 8
                    && legal
                        .iter()
                        .filter(|a| matches!(a, ReplicaAction::Transform(_)))
                        .count()
                        >= 2
            })
            .expect("a position with two transforms in the seeded games");
        found.push(with_transform);
    }
    found
}

#[test]
fn draws_cover_every_legal_decision_uniformly() {
    let mut rng = SmallRng::seed_from_u64(18);
    for state in positions() {
        check_uniform_draws(&state, &mut rng, 400, "replica");
    }
}
