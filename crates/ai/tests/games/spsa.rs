//! SPSA on the registry's games (`ludus_ai::tuning::spsa`):
//!
//! - the trial evaluation with a game's own weights is that game's evaluation (exactly for
//!   Qawale, whose evaluation is the weighted sum of the weights for its turn; within one
//!   unit for Yoxii's fixed point);
//! - a run is the same for the same seed, differs for another, moves the weights it tunes
//!   and keeps the fixed ones;
//! - runs that cannot be played are refused in one line.

use ludus_ai::tuning::spsa::{set_trial_weights, trial_evaluate};
use ludus_ai::tuning::{spsa, SpsaConfig};
use ludus_engine::{Game, Heuristic, Rules, Seat};
use ludus_games::qawale::{Qawale, LATE_FROM_TURN};
use ludus_games::splut::{Splut, SplutOptions};
use ludus_games::weights::parse_weights;
use ludus_games::yoxii::Yoxii;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

fn config<G: Game>(spec: &str, iterations: usize, seed: u64) -> SpsaConfig<G> {
    SpsaConfig {
        options: G::Options::default(),
        spec: spec.parse().unwrap(),
        iterations,
        pairs: 2,
        opening: 4,
        perturb: 0.2,
        rate: 0.01,
        max_decisions: 400,
        fixed: 0,
        seed,
    }
}

/// Checks, over random games, that the trial evaluation with the weights `weights_for` the
/// position is within `tolerance` of the game's evaluation for both seats, and with all
/// weights 0 is 0.
fn trial_is_the_games_evaluation<'w, G: Game + Heuristic>(
    weights_for: impl Fn(&G) -> &'w [f64],
    tolerance: i32,
) {
    let mut rng = SmallRng::seed_from_u64(21);
    let mut actions = Vec::new();
    let mut seen = 0;
    for game in 0..10 {
        let mut state = G::new(&G::Options::default(), game);
        while state.to_move().is_some() {
            let weights = weights_for(&state);
            for seat in [Seat::FIRST, Seat::SECOND] {
                set_trial_weights(weights);
                let trial = trial_evaluate(&state, seat);
                assert!(
                    (trial - state.evaluate(seat)).abs() <= tolerance,
                    "{}",
                    state.position()
                );
                set_trial_weights(&vec![0.0; weights.len()]);
                assert_eq!(trial_evaluate(&state, seat), 0);
            }
            seen += 1;
            state.legal_actions(&mut actions);
            state.apply(*actions.choose(&mut rng).unwrap());
        }
    }
    assert!(seen > 100, "{seen}");
}

#[test]
fn the_trial_evaluation_with_a_games_weights_is_its_evaluation() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/src/");
    let read = |file: &str, terms: &[&str]| {
        let text = std::fs::read_to_string(format!("{root}{file}")).unwrap();
        parse_weights(&text, terms).unwrap()
    };
    // Qawale scores its last turns with weights of their own.
    let (qawale, qawale_late) = (
        read("qawale/weights.txt", Qawale::TERMS),
        read("qawale/weights_late.txt", Qawale::TERMS),
    );
    let qawale_for = |state: &Qawale| {
        if state.turn() >= LATE_FROM_TURN {
            qawale_late.as_slice()
        } else {
            qawale.as_slice()
        }
    };
    trial_is_the_games_evaluation::<Qawale>(qawale_for, 0);
    let yoxii = read("yoxii/weights.txt", Yoxii::TERMS);
    trial_is_the_games_evaluation::<Yoxii>(|_: &Yoxii| yoxii.as_slice(), 1);
}

#[test]
fn a_run_moves_the_weights_the_same_way_for_the_same_seed_and_keeps_fixed_ones() {
    let start = vec![100.0; Yoxii::TERMS.len()];
    let mut cfg = config::<Yoxii>("ai:alphabeta:depth=2", 3, 9);
    cfg.fixed = 0b10;
    let mut snapshots = Vec::new();
    let first = spsa(&cfg, &start, |done, total, so_far| {
        snapshots.push((done, total, so_far.clone()));
    })
    .unwrap();
    let again = spsa(&cfg, &start, |_, _, _| {}).unwrap();
    assert_eq!(first, again);
    // Each iteration reports the run so far, the last one the whole run (checkpoints).
    let games = |r: &ludus_ai::tuning::SpsaReport| r.plus_wins + r.draws + r.minus_wins;
    let counts: Vec<_> = snapshots
        .iter()
        .map(|(d, t, r)| (*d, *t, games(r)))
        .collect();
    assert_eq!(counts, [(1, 3, 4), (2, 3, 8), (3, 3, 12)]);
    assert_eq!(snapshots[2].2, first);
    assert_eq!(first.plus_wins + first.draws + first.minus_wins, 12);
    assert!((first.after[1] - 100.0).abs() < 1e-12, "a fixed term stays");
    let moved = first.after.iter().filter(|&&w| (w - 100.0).abs() > 1e-9);
    assert!(moved.count() > 0, "{first:?}");
    let other = spsa(
        &config::<Yoxii>("ai:alphabeta:depth=2", 3, 10),
        &start,
        |_, _, _| {},
    );
    assert_ne!(other.unwrap().after, first.after);
}

#[test]
fn bad_runs_are_refused_in_one_line() {
    let start = vec![1.0; Qawale::TERMS.len()];
    let mcts = config::<Qawale>("ai:mcts:iterations=10", 1, 1);
    let error = spsa(&mcts, &start, |_, _, _| {}).unwrap_err().to_string();
    assert!(error.contains("needs an alpha-beta search"), "{error}");
    let short = config::<Qawale>("ai:4:depth=1", 1, 1);
    let error = spsa(&short, &start[1..], |_, _, _| {})
        .unwrap_err()
        .to_string();
    assert!(error.contains("8 starting weights for 9 terms"), "{error}");
    assert!(!error.contains('\n'), "{error}");
    let mut three = config::<Splut>("ai:4:depth=1", 1, 1);
    three.options = SplutOptions {
        players: 3,
        ..SplutOptions::default()
    };
    let weights = vec![1.0; Splut::TERMS.len()];
    let error = spsa(&three, &weights, |_, _, _| {})
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("two-seat games; these options give 3 seats"),
        "{error}"
    );
    // Level 5 is alpha-beta in Qawale, so it is accepted.
    let level5 = config::<Qawale>("ai:5:depth=1", 1, 1);
    assert!(spsa(&level5, &start, |_, _, _| {}).is_ok());
}
