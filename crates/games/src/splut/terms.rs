//! Splut!'s tuned evaluation: the terms a position is scored by, and their weights read at
//! build time from `weights.txt` for 2 seats (fitted by `ludus tune splut`) and
//! `weights_multi.txt` for 3 and 4 (v1's, until a fit with `--option players=4` beats them).
//!
//! The terms are v1's evaluation taken apart, from the view of a living `seat`, for 2 to 4
//! seats alike. Threats come from the kill distances: `seat`'s best threat against any
//! opponent (a throw it can make this turn, one it can make next turn, or else how near it
//! is: 8 − distance) and the sum of every opponent's threats against it, in the same three
//! kinds. The piece terms are `seat`'s own minus the **mean** over the opponents still in
//! play (its dwarf, its troll's distance to a rock, its sorcerer's free squares), so that a
//! weight means the same with 1, 2 or 3 opponents; then its dwarf's distance to the centre
//! and the number of opponents left. One term v1 did not have: rocks within two steps of the
//! troll (own minus the opponents' mean). The tuner sees each sample from the side to move's
//! view with its share of the result, whatever the number of seats. With [`V1_WEIGHTS`] the
//! sum is exactly v1's evaluation with 2 seats; with 3 or 4 within 1 (v1 divided the
//! opponents' sum in integers).

use ludus_engine::Rules;

use super::eval::{CAP, FAR};
use super::state::{team_obj, Kind, RockId, Splut};
use crate::weights::TunedWeights;

/// The names of the terms, as in `weights.txt`.
pub const TERMS: &[&str] = &[
    "attack_now",
    "attack_next",
    "attack_near",
    "danger_now",
    "danger_next",
    "danger_near",
    "dwarf",
    "troll_to_rock",
    "sorcerer_room",
    "dwarf_to_centre",
    "opponents",
    "troll_rocks_near",
];

const ATTACK: usize = 0;
const DANGER: usize = 3;
const DWARF: usize = 6;
const TROLL_TO_ROCK: usize = 7;
const SORCERER_ROOM: usize = 8;
const DWARF_TO_CENTRE: usize = 9;
const OPPONENTS: usize = 10;
const ROCKS_NEAR: usize = 11;

/// v1's weights, in the order of [`TERMS`].
pub(super) const V1_WEIGHTS: [f64; 12] = [
    6000.0, 1500.0, 50.0, -6000.0, -1500.0, -50.0, 120.0, -8.0, 10.0, -3.0, -3000.0, 0.0,
];

/// The tuned weights for 2 seats, read from `weights.txt` (fitted on 2-player games).
static WEIGHTS_TWO: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights.txt"), TERMS, V1_WEIGHTS);

/// The weights for 3 and 4 seats, read from `weights_multi.txt`: with more opponents a threat
/// is likelier and an elimination leaves the game going, so the same terms may weigh
/// differently. v1's for now: the first 4-player fit lost to them (docs/STRENGTH.md).
static WEIGHTS_MULTI: TunedWeights<{ TERMS.len() }> =
    TunedWeights::new(include_str!("weights_multi.txt"), TERMS, V1_WEIGHTS);

/// The weights for `state`'s number of seats at the start (eliminated seats still count, so
/// one game keeps one set of weights throughout).
pub(super) fn weights(state: &Splut) -> &'static TunedWeights<{ TERMS.len() }> {
    if state.seat_count() > 2 {
        &WEIGHTS_MULTI
    } else {
        &WEIGHTS_TWO
    }
}

/// The kind of `attacker`'s threat at kill distance `k` (0 now, 1 next turn, 2 near) and its
/// amount, or `None` for no threat.
fn threat(state: &Splut, attacker: usize, k: u8) -> Option<(usize, f64)> {
    let steps = if attacker == state.core.to_move.to_usize() {
        state.steps_left()
    } else {
        3
    };
    if k == FAR {
        None
    } else if k <= steps {
        Some((usize::from(attacker != state.core.to_move.to_usize()), 1.0))
    } else {
        Some((2, f64::from(CAP + 1 - k.min(CAP))))
    }
}

/// The terms of `state` from the living `seat`'s view into `out` (all 0 for a seat out of
/// play; see the module doc).
pub(super) fn terms(state: &Splut, seat: usize, out: &mut [f64]) {
    out.fill(0.0);
    if !state.is_alive(seat) {
        return;
    }
    let kd = state.kill_distances();
    // The best attack, chosen by v1's value of it.
    let best = state
        .opponents(seat)
        .max_by_key(|&o| state.threat_value(seat, kd[seat][o]))
        .and_then(|o| threat(state, seat, kd[seat][o]));
    if let Some((kind, amount)) = best {
        out[ATTACK + kind] = amount;
    }
    let mut opponents = 0.0;
    let mut mean = [0.0; 4];
    for o in state.opponents(seat) {
        if let Some((kind, amount)) = threat(state, o, kd[o][seat]) {
            out[DANGER + kind] += amount;
        }
        opponents += 1.0;
        for (m, v) in mean.iter_mut().zip(piece_terms(state, o)) {
            *m += v;
        }
    }
    let own = piece_terms(state, seat);
    for (i, term) in [DWARF, TROLL_TO_ROCK, SORCERER_ROOM, ROCKS_NEAR]
        .into_iter()
        .enumerate()
    {
        out[term] = own[i] - mean[i] / f64::max(opponents, 1.0);
    }
    out[DWARF_TO_CENTRE] = f64::from(state.dwarf_to_centre(seat));
    out[OPPONENTS] = f64::max(opponents, 1.0);
}

/// `seat`'s dwarf (1 or 0), troll-to-rock distance, sorcerer's free squares and rocks
/// within two steps of its troll.
fn piece_terms(state: &Splut, seat: usize) -> [f64; 4] {
    let dwarf = state.pos[team_obj(seat, Kind::Dwarf)] != super::tables::Square::NONE;
    let troll = state.pos[team_obj(seat, Kind::Troll)];
    let near = RockId::ALL
        .iter()
        .filter(|&&id| troll.distance(state.rock(id)) <= 2)
        .count();
    [
        f64::from(u8::from(dwarf)),
        f64::from(state.troll_to_rock(seat)),
        f64::from(state.sorcerer_room(seat)),
        near as f64,
    ]
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Heuristic, Rules, Seat};
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    use super::*;
    use crate::splut::SplutOptions;

    #[test]
    fn both_weights_files_fit_the_terms() {
        for weights in [&WEIGHTS_TWO, &WEIGHTS_MULTI] {
            assert_eq!(weights.read().map(|w| w.len()), Ok(TERMS.len()));
        }
    }

    #[test]
    fn two_seats_use_weights_txt_and_three_or_four_weights_multi_txt() {
        let two = WEIGHTS_TWO.read().unwrap();
        let multi = WEIGHTS_MULTI.read().unwrap();
        assert_ne!(two, multi, "the files differ, or this test shows nothing");
        for players in 2..=4 {
            let options = SplutOptions {
                players,
                ..SplutOptions::default()
            };
            let expected = if players == 2 { &two } else { &multi };
            let mut rng = SmallRng::seed_from_u64(u64::from(players));
            let mut state = Splut::new(&options, 7);
            let mut actions = Vec::new();
            let mut out = [0.0; TERMS.len()];
            // Through the opening and into play, where the terms move.
            for _ in 0..40 {
                if state.to_move().is_none() {
                    break;
                }
                for seat in (0..players).map(|s| Seat::new(s as u8)) {
                    if state.is_alive(seat.to_usize()) {
                        terms(&state, seat.to_usize(), &mut out);
                        let linear = crate::weights::weighted_sum(&out, expected);
                        assert_eq!(state.evaluate(seat), linear, "{players} players");
                    }
                }
                state.legal_actions(&mut actions);
                state.apply(*actions.choose(&mut rng).unwrap());
            }
        }
    }

    /// Random games of `players`; the largest gap between v1 and its weights times the terms.
    fn largest_gap(players: u32) -> i32 {
        let options = SplutOptions {
            players,
            ..SplutOptions::default()
        };
        let mut rng = SmallRng::seed_from_u64(18);
        let mut actions = Vec::new();
        let mut out = [0.0; TERMS.len()];
        let (mut gap, mut seen) = (0, 0);
        for game in 0..12 {
            let mut state = Splut::new(&options, game);
            for _ in 0..200 {
                if state.to_move().is_none() {
                    break;
                }
                for seat in (0..players).map(|s| Seat::new(s as u8)) {
                    if state.is_alive(seat.to_usize()) {
                        terms(&state, seat.to_usize(), &mut out);
                        let linear = crate::weights::weighted_sum(&out, &V1_WEIGHTS);
                        gap = gap.max((linear - state.evaluate_v1(seat)).abs());
                        seen += 1;
                    }
                }
                state.legal_actions(&mut actions);
                state.apply(*actions.choose(&mut rng).unwrap());
            }
        }
        assert!(seen > 500, "{seen}");
        gap
    }

    #[test]
    fn v1_weights_times_the_terms_are_v1() {
        assert_eq!(largest_gap(2), 0, "exact with two seats");
        assert!(largest_gap(3) <= 1);
        assert!(largest_gap(4) <= 1);
    }
}
