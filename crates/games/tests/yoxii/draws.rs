//! The playout fast path `Game::random_action`: Yoxii draws a Totem target as a random set bit
//! and a placement as a rank split into a square and a value in hand, so these tests hold it
//! to the list. Every draw is legal (a property over random positions), `None` comes exactly
//! when the game is over, and from fixed positions many draws hit every legal decision about
//! equally often (a chi-square test with a fixed seed: deterministic, generous bound).

use ludus_engine::testkit::{check_uniform_draws, draws_are_legal, played_at_random};
use ludus_engine::Rules;
use ludus_games::yoxii::{FirstPlayer, Yoxii, YoxiiAction, YoxiiOptions};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn options(red_first: bool) -> YoxiiOptions {
    YoxiiOptions {
        first_player: if red_first {
            FirstPlayer::Red
        } else {
            FirstPlayer::White
        },
        ..YoxiiOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_draw_is_legal_and_none_only_at_the_end(
        seed in any::<u64>(),
        plies in 0usize..80,
        red_first in any::<bool>(),
    ) {
        let state: Yoxii = played_at_random(&options(red_first), seed, plies);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
        let checked = draws_are_legal(&state, &mut rng, 40);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

/// The start (Totem moves), a placement with every value still in hand, and a placement late
/// in a game with fewer values in hand (so a rank splits over 1 to 3 values).
fn positions() -> Vec<Yoxii> {
    let mut legal = Vec::new();
    let mut found = vec![Yoxii::new(&YoxiiOptions::default(), 0)];
    let placements = |state: &Yoxii, legal: &mut Vec<YoxiiAction>| {
        state.legal_actions(legal);
        let values = |value| {
            legal
                .iter()
                .any(|a| matches!(a, YoxiiAction::Place { value: v, .. } if *v == value))
        };
        let in_hand = (1..=4).filter(|&value| values(value)).count();
        (state.outcome().is_none() && !legal.is_empty()).then_some(in_hand)
    };
    let first_placement = played_at_random(&YoxiiOptions::default(), 3, 1);
    assert_eq!(placements(&first_placement, &mut legal), Some(4));
    found.push(first_placement);
    let late = (0..2_000u64)
        .map(|seed| played_at_random::<Yoxii>(&options(seed % 2 == 1), seed, 41))
        .find(|state| matches!(placements(state, &mut legal), Some(2..=3)))
        .expect("a late placement with two or three values in hand in the seeded games");
    found.push(late);
    found
}

#[test]
fn draws_cover_every_legal_decision_uniformly() {
    let mut rng = SmallRng::seed_from_u64(19);
    let mut legal = Vec::new();
    for state in positions() {
        state.legal_actions(&mut legal);
        assert!(legal.len() > 1, "{legal:?}");
        check_uniform_draws(&state, &mut rng, 400, "yoxii");
    }
}
