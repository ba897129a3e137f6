//! The playout fast path `Game::random_action`: Qilin draws a decision without listing them,
//! so these tests hold it to the list. Every draw is legal (a property over random positions
//! and options), `None` comes exactly when the game is over, and from fixed positions of every
//! kind (placement, press, transition, slide, removal) many draws hit every legal decision
//! about equally often (a chi-square test with a fixed seed: deterministic, generous bound).

use ludus_engine::testkit::{check_uniform_draws, draws_are_legal, played_at_random};
use ludus_engine::{parse_options, Notation, Rules};
use ludus_games::qilin::{Qilin, QilinOptions, Stage};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The state after `plies` uniformly random decisions (fewer if the game ends) from the start.
fn random_position(options: &QilinOptions, seed: u64, plies: usize) -> Qilin {
    played_at_random(options, seed, plies)
}

const OPTION_SETS: [&[&str]; 4] = [
    &[],
    &["min_pieces=3"],
    &["protect_lines=on"],
    &[
        "protect_lines=on",
        "no_press_rule=first_player_loses",
        "min_pieces=2",
    ],
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_draw_is_legal_and_none_only_at_the_end(
        seed in any::<u64>(),
        plies in 0usize..260,
        option_set in 0usize..OPTION_SETS.len(),
    ) {
        let options = parse_options("qilin", OPTION_SETS[option_set]).expect("valid options");
        let state = random_position(&options, seed, plies);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
        let checked = draws_are_legal(&state, &mut rng, 40);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

/// Whether a position with this many legal decisions is one a test wants.
type Fits = fn(&Qilin, usize) -> bool;

/// One position of each kind of decision, found in seeded random games (the transition
/// excepted).
fn positions_of_every_kind() -> Vec<(&'static str, Qilin)> {
    let kinds: [(&str, Fits); 4] = [
        ("placement", |s, n| {
            s.stage() == Stage::Place && s.pending() == 0 && n > 10
        }),
        ("press", |s, n| {
            s.stage() == Stage::Place && s.pending() > 0 && n > 5
        }),
        ("slide", |s, n| {
            s.stage() == Stage::Move && s.pending() == 0 && n > 12
        }),
        ("removal", |s, n| {
            s.stage() == Stage::Move && s.pending() > 0 && n > 4
        }),
    ];
    let options = QilinOptions::default();
    let mut found = Vec::new();
    let mut legal = Vec::new();
    for (name, fits) in kinds {
        let state = (0..20_000u64)
            .flat_map(|seed| (0..200).step_by(7).map(move |plies| (seed, plies)))
            .map(|(seed, plies)| random_position(&options, seed, plies))
            .find(|state| {
                state.legal_actions(&mut legal);
                state.outcome().is_none() && fits(state, legal.len())
            })
            .unwrap_or_else(|| panic!("no {name} position in the seeded games"));
        found.push((name, state));
    }
    // Random games almost never reach the transition (no press in the whole placement stage):
    // the position of §7 Q-4 instead.
    let transition = "RRBBBRRBBBRBRBRRBRBRRBRB transition R 6/6 1";
    found.push((
        "transition",
        Qilin::from_position(transition, &options).expect("valid position"),
    ));
    found
}

#[test]
fn draws_cover_every_legal_decision_uniformly() {
    let mut rng = SmallRng::seed_from_u64(18);
    for (kind, state) in positions_of_every_kind() {
        check_uniform_draws(&state, &mut rng, 400, kind);
    }
}
