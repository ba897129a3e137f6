//! The playout fast path `Game::random_action`: Qawale draws a random set bit of the occupied
//! squares or of the allowed directions instead of listing the decisions, so these tests hold
//! it to the list. Every draw is legal (a property over random positions, mid-sowing ones
//! included), `None` comes exactly when the game is over, and from fixed positions many draws
//! hit every legal decision about equally often (a chi-square test with a fixed seed).

use ludus_engine::testkit::{check_uniform_draws, draws_are_legal, played_at_random};
use ludus_engine::Rules;
use ludus_games::qawale::{Qawale, QawaleOptions};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The state after `plies` uniformly random decisions (fewer if the game ends) from the start.
fn random_position(seed: u64, plies: usize) -> Qawale {
    played_at_random(&QawaleOptions::default(), seed, plies)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_draw_is_legal_and_none_only_at_the_end(seed in any::<u64>(), plies in 0usize..120) {
        let state = random_position(seed, plies);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
        let checked = draws_are_legal(&state, &mut rng, 40);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

#[test]
fn draws_cover_every_legal_decision_uniformly() {
    let mut rng = SmallRng::seed_from_u64(18);
    // Four positions where a stack is chosen (the start first) and four mid-sowing.
    let mut checked = [0; 2];
    for seed in 0..50u64 {
        for plies in [0, 1, 2, 9, 14, 21] {
            let state = random_position(seed, plies);
            let kind = usize::from(state.is_sowing());
            if state.outcome().is_none() && checked[kind] < 4 {
                check_uniform_draws(&state, &mut rng, 400, "qawale");
                checked[kind] += 1;
            }
        }
    }
    assert_eq!(
        checked,
        [4, 4],
        "positions of both kinds in the seeded games"
    );
}
