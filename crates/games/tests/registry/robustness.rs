//! No panic on anything a user can type: mutated position strings, moves and options, for
//! every registered game (a seeded stand-in for `cargo fuzz`, which needs a nightly toolchain).

use ludus_engine::testkit::mutate;
use ludus_games::{new_game, GAMES};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

const ALPHABET: &[char] = &[
    'a', 'b', 'd', 'h', 'z', 'A', 'K', 'N', 'S', 'W', 'x', 'X', '0', '1', '3', '9', ':', '/', ',',
    '-', '*', '@', '#', '!', '|', '.', ' ', '=', '_', 'é', '✓', '\u{0}',
];

#[test]
fn mutated_positions_moves_and_options_never_panic() {
    let mut rng = SmallRng::seed_from_u64(2026);
    for info in GAMES {
        let game = new_game(info.id, &[], None, 0).unwrap();
        let position = game.position();
        let moves: Vec<String> = game.legal_moves().into_iter().map(|m| m.notation).collect();
        for _ in 0..3000 {
            let text = mutate(&position, ALPHABET, &mut rng);
            if let Ok(mut parsed) = new_game(info.id, &[], Some(&text), 0) {
                let _ = parsed.legal_moves();
                let _ = parsed.view();
                let _ = parsed.play(&mutate(&text, ALPHABET, &mut rng));
            }
            let mut fresh = game.clone();
            let typed = mutate(moves.choose(&mut rng).unwrap(), ALPHABET, &mut rng);
            if fresh.play(&typed).is_ok() {
                let _ = fresh.position();
            }
            let option = mutate(&format!("{}=x", info.options[0].name), ALPHABET, &mut rng);
            let _ = new_game(info.id, &[option], None, 0);
        }
    }
}

#[test]
fn every_game_is_registered_once_with_its_options() {
    let ids: Vec<&str> = GAMES.iter().map(|g| g.id).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    for info in GAMES {
        assert!(!info.options.is_empty(), "{} lists its options", info.id);
        let game = new_game(info.id, &[], None, 0).unwrap();
        let names: Vec<String> = game.options().into_iter().map(|(k, _)| k).collect();
        for option in info.options {
            assert!(
                names.iter().any(|n| n == option.name),
                "{}: {}",
                info.id,
                option.name
            );
        }
    }
}
