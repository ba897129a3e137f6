//! Evaluations fitted to data, on Yoxii (the game with a tuned evaluation) through the
//! registry's types:
//!
//! - self-play data is reproducible for a seed, its positions read back, and its results are
//!   the side to move's (1, ½, 0) and agree with the game's end;
//! - the Texel fit recovers the current weights, and lowers the error on the data it fits;
//! - the fit's options do what they say (on Replica, whose v1 is exactly linear in its terms
//!   and which has tactical decisions): quiet positions only, both views of each position,
//!   and a pull toward v1's weights;
//! - a game without tunable terms (the engine's demo Nim: every Ludus game has them), and too
//!   little data, are refused.

use ludus_ai::tuning::{datagen, tune, tune_with, DatagenConfig, Sample, TuneConfig, TuneError};
use ludus_ai::AgentSpec;
use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{Heuristic, Notation, Rules};
use ludus_games::replica::{Replica, ReplicaOptions};
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
fn quiet_fits_hold_out_positions_although_totem_moves_and_placements_alternate() {
    // Yoxii's samples alternate a Totem move (quiet) and a placement (tactical): holding out
    // every tenth sample would hold out placements only, and none at all with `--quiet`.
    let samples = datagen(&config(30, 1), |_, _| {}).unwrap();
    let quiet = tune_with::<Yoxii>(
        &samples,
        &YoxiiOptions::default(),
        &TuneConfig {
            quiet_only: true,
            ..TuneConfig::default()
        },
    )
    .unwrap();
    assert!(quiet.held_out * 20 > quiet.fitted, "{quiet:?}");
    assert!(quiet.error_after.1 > 0.0, "{quiet:?}");
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

/// A few Replica games' samples from a shallow search.
fn replica_samples() -> Vec<Sample> {
    let config = DatagenConfig::<Replica> {
        options: ReplicaOptions::default(),
        spec: "ai:alphabeta:depth=1".parse::<AgentSpec>().unwrap(),
        games: 6,
        opening: 4,
        max_decisions: 300,
        seed: 2,
    };
    datagen(&config, |_, _| {}).unwrap()
}

#[test]
fn quiet_mirror_and_ridge_fit_what_they_say() {
    let samples = replica_samples();
    let options = ReplicaOptions::default();
    let fit = |config: TuneConfig| tune_with::<Replica>(&samples, &options, &config).unwrap();
    let plain = fit(TuneConfig::default());
    assert_eq!(plain.fitted + plain.held_out + plain.skipped, samples.len());

    // Quiet: exactly the positions where the side to move has no tactical decision are fitted.
    let quiet_count = samples
        .iter()
        .filter(|s| {
            let state = Replica::from_position(&s.position, &options).unwrap();
            let mut actions = Vec::new();
            state.legal_actions(&mut actions);
            !actions.iter().any(|&a| state.is_tactical(a))
        })
        .count();
    assert!(
        0 < quiet_count && quiet_count < samples.len(),
        "{quiet_count}"
    );
    let quiet = fit(TuneConfig {
        quiet_only: true,
        ..TuneConfig::default()
    });
    assert_eq!(quiet.fitted + quiet.held_out, quiet_count);
    // The current weights still come from every position: a win at once (never quiet) keeps
    // its weight.
    assert_eq!(quiet.before, plain.before);

    // Mirror: each 2-seat position twice, once from each side.
    let mirror = fit(TuneConfig {
        mirror: true,
        ..TuneConfig::default()
    });
    assert_eq!(mirror.fitted, 2 * plain.fitted);
    assert_eq!(mirror.held_out, 2 * plain.held_out);

    // A strong pull toward v1 keeps v1's weights (a man seven steps from the target: 100).
    let pulled = fit(TuneConfig {
        ridge: 1000.0,
        ..TuneConfig::default()
    });
    let man_7 = pulled.terms.iter().position(|t| *t == "man_7").unwrap();
    assert!(
        (pulled.after[man_7] - 100.0).abs() < 5.0,
        "{:?}",
        pulled.after
    );
    assert!(pulled.error_after.0 > plain.error_after.0, "{pulled:?}");
}

#[test]
fn a_dropped_term_stays_at_zero_and_the_others_refit() {
    let samples = replica_samples();
    let options = ReplicaOptions::default();
    let fit = |config: TuneConfig| tune_with::<Replica>(&samples, &options, &config).unwrap();
    let plain = fit(TuneConfig::default());
    let man_7 = plain.terms.iter().position(|t| *t == "man_7").unwrap();
    // The term ends at weight 0, the others move, and the fit can only be worse.
    let dropped = fit(TuneConfig {
        dropped: 1 << man_7,
        ..TuneConfig::default()
    });
    assert!(
        dropped.after[man_7].abs() < f64::EPSILON,
        "{:?}",
        dropped.after
    );
    assert!(plain.after[man_7].abs() > 1.0, "{:?}", plain.after);
    assert!(dropped.error_after.0 > plain.error_after.0, "{dropped:?}");
    assert_eq!(
        dropped.before, plain.before,
        "the current weights are reported as they are"
    );
}
