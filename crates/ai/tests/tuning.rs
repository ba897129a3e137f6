//! Evaluations fitted to data, on Yoxii (the game with a tuned evaluation) through the
//! registry's types:
//!
//! - self-play data is reproducible for a seed, its positions read back, and its results are
//!   the side to move's (1, ½, 0) and agree with the game's end;
//! - the Texel fit recovers the current weights, and lowers the error on the data it fits;
//! - a game without tunable terms (the engine's demo Nim: every Ludus game has them), and too
//!   little data, are refused.

use ludus_ai::tuning::{datagen, tune, DatagenConfig, TuneError};
use ludus_ai::AgentSpec;
use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{Game, Heuristic};
use ludus_games::yoxii::{Yoxii, YoxiiOptions};

fn config(games: usize, seed: u64) -> DatagenConfig<Yoxii> {
    DatagenConfig {
        options: YoxiiOptions::default(),
        spec: "ai:alphabeta:depth=1".parse::<AgentSpec>().unwrap(),
        games,
        opening: 4,
        max_decisions: 400,
        seed,
    }
}

#[test]
fn self_play_data_is_reproducible_and_reads_back() {
    let samples = datagen(&config(8, 3), |_, _| {}).unwrap();
    assert!(samples.len() > 100, "{}", samples.len());
    assert_eq!(samples, datagen(&config(8, 3), |_, _| {}).unwrap());
    assert_ne!(samples, datagen(&config(8, 4), |_, _| {}).unwrap());
    for sample in &samples {
        assert!([0.0, 0.5, 1.0].contains(&sample.result), "{sample:?}");
        let state = Yoxii::from_position(&sample.position, &YoxiiOptions::default()).unwrap();
        assert!(state.to_move().is_some(), "{sample:?}");
    }
    // The two sides of one position of a decided game have opposite results: consecutive
    // positions of another mover differ, of the same mover agree.
    let first = Yoxii::from_position(&samples[0].position, &YoxiiOptions::default()).unwrap();
    let second = Yoxii::from_position(&samples[1].position, &YoxiiOptions::default()).unwrap();
    if first.to_move() == second.to_move() {
        assert!((samples[0].result - samples[1].result).abs() < 1e-9);
    } else {
        assert!((samples[0].result + samples[1].result - 1.0).abs() < 1e-9);
    }
}

#[test]
fn the_fit_starts_from_the_current_weights_and_lowers_the_error() {
    let samples = datagen(&config(30, 1), |_, _| {}).unwrap();
    let report = tune::<Yoxii>(&samples, &YoxiiOptions::default()).unwrap();
    assert_eq!(report.terms, Yoxii::TERMS);
    // The current evaluation is the weights times the terms: least squares finds them.
    let state = Yoxii::new(&YoxiiOptions::default(), 0);
    let mut terms = vec![0.0; Yoxii::TERMS.len()];
    let seat = state.to_move().unwrap();
    state.terms(seat, &mut terms);
    let recovered: f64 = terms.iter().zip(&report.before).map(|(t, w)| t * w).sum();
    assert!((recovered - f64::from(state.evaluate(seat))).abs() < 1.0);
    assert!(report.error_after.0 < report.error_before.0, "{report:?}");
    assert!(report.k > 0.0 && report.held_out > 0);
}

#[test]
fn untuned_games_and_too_little_data_are_refused() {
    let samples = datagen(&config(1, 1), |_, _| {}).unwrap();
    assert_eq!(
        tune::<Nim>(&samples, &NimOptions::default()),
        Err(TuneError::NoTerms("nim"))
    );
    assert!(matches!(
        tune::<Yoxii>(&samples[..5], &YoxiiOptions::default()),
        Err(TuneError::TooFew(_))
    ));
}
