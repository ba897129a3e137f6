//! The playout fast path `Game::random_action`: Splut! draws a random set bit of its legal
//! step slots instead of listing the steps, so these tests hold it to the list. Every draw is
//! legal (a property over random positions of 2, 3 and 4 players, sizes 9 and 13, with and
//! without `levitate_follow`), `None` comes exactly when the game is over, and from fixed
//! positions (the start, levitations, throws and pulls on offer, a forced pass) many draws hit
//! every legal decision about equally often (a chi-square test with a fixed seed:
//! deterministic, generous bound).

use ludus_engine::testkit::{check_uniform_draws, draws_are_legal, played_at_random};
use ludus_engine::{Notation, Rules};
use ludus_games::splut::{Splut, SplutAction, SplutOptions};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The state after `plies` uniformly random decisions (fewer if the game ends) from the start.
fn random_position(options: &SplutOptions, seed: u64, plies: usize) -> Splut {
    played_at_random(options, seed, plies)
}

fn options(players: u32, size: u32, levitate_follow: bool) -> SplutOptions {
    SplutOptions {
        players,
        size,
        levitate_follow,
        ..SplutOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_draw_is_legal_and_none_only_at_the_end(
        seed in any::<u64>(),
        plies in 0usize..400,
        players in 2u32..=4,
        large in any::<bool>(),
        follow in any::<bool>(),
    ) {
        let options = options(players, if large { 13 } else { 9 }, follow);
        let state = random_position(&options, seed, plies);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
        let checked = draws_are_legal(&state, &mut rng, 40);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

/// The first position of the seeded random games that `wanted` accepts.
fn find(options: &SplutOptions, wanted: impl Fn(&Splut, &[SplutAction]) -> bool) -> Splut {
    let mut legal = Vec::new();
    (0..5_000u64)
        .flat_map(|seed| (1..120).step_by(7).map(move |plies| (seed, plies)))
        .map(|(seed, plies)| random_position(options, seed, plies))
        .find(|state| {
            state.legal_actions(&mut legal);
            state.outcome().is_none() && wanted(state, &legal)
        })
        .expect("such a position in the seeded games")
}

/// Whether some legal step's notation contains `mark`.
fn offers(state: &Splut, legal: &[SplutAction], mark: char) -> bool {
    legal
        .iter()
        .any(|&a| state.format_action(a)[1..].contains(mark))
}

/// The start, and positions offering levitations (`@`), throws (`*`) and pulls (`p`), for 2
/// and 4 players; the forced pass of §9.11.
fn positions() -> Vec<Splut> {
    let mut found = Vec::new();
    for players in [2, 4] {
        let options = options(players, 9, players == 4);
        found.push(Splut::new(&options, 0));
        for mark in ['@', '*', 'p'] {
            found.push(find(&options, |state, legal| offers(state, legal, mark)));
        }
    }
    // §9.11: South can only pass.
    let pass = "size=9 seats=south,north tomove=south turn=5 used=0 lev=unused locked=e9
south: Se1 Td2
north: Sf8 Dd3 Te2
rocks: a5 c5 e9 i5";
    found.push(Splut::from_position(pass, &SplutOptions::default()).expect("§9.11 reads"));
    found
}

#[test]
fn draws_cover_every_legal_decision_uniformly() {
    let mut rng = SmallRng::seed_from_u64(18);
    for state in positions() {
        check_uniform_draws(&state, &mut rng, 400, "splut");
    }
}
