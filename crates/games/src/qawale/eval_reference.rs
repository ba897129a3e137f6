//! The count of buried stones as it was first written, kept for tests only: the reference
//! that [`Qawale::buried`] (a popcount per stack) must reproduce, and with it the tuned
//! terms and v1, which read it.

use ludus_engine::{Heuristic, Notation, Rules, Seat};

use super::rules::{BothLines, FirstPlayer, QawaleOptions};
use super::state::{Qawale, Stone};
use super::tables::{Square, LINES};
use super::terms::TERMS;
use crate::weights::assert_same_terms;

/// Stones of `stone`'s colour under the top of their stack, level by level.
fn buried(state: &Qawale, stone: Stone) -> i32 {
    Square::ALL
        .iter()
        .map(|&s| {
            let own = (0..state.height(s))
                .filter(|&level| state.stone_at(s, level) == stone)
                .count() as i32;
            own - i32::from(state.top(s) == Some(stone))
        })
        .sum()
}

/// `terms::terms` as first written, with the reference's buried stones.
fn terms(state: &Qawale, seat: Seat, out: &mut [f64]) {
    out.fill(0.0);
    for (side, sign) in [(seat, 1.0), (seat.opponent(), -1.0)] {
        let mine = state.tops[Stone::of(side) as usize];
        let theirs = state.tops[Stone::of(side.opponent()) as usize];
        let mut threats = 0u32;
        for line in LINES {
            let (own, other) = ((mine & line).count_ones(), (theirs & line).count_ones());
            if other == 0 && (1..=3).contains(&own) {
                out[own as usize - 1] += sign;
                threats += u32::from(own == 3);
            }
        }
        let threats = f64::from(threats.min(2));
        if state.core.to_move == side {
            out[4] += sign * threats;
        } else {
            out[5] += sign * threats;
        }
        out[3] += sign * f64::from(mine.count_ones());
        out[7] += sign * f64::from((mine & 0x0660).count_ones());
        out[6] += sign * f64::from(buried(state, Stone::of(side)));
        out[8] += sign * f64::from(state.in_hand(side));
    }
}

/// The start of the `game`-th reference game: the options in turn.
fn start(game: u64) -> Qawale {
    let options = QawaleOptions {
        first_player: [FirstPlayer::Dark, FirstPlayer::Light][(game % 2) as usize],
        both_lines: [BothLines::MoverWins, BothLines::Draw][(game / 2 % 2) as usize],
    };
    Qawale::new(&options, game)
}

#[test]
fn the_fast_terms_are_the_reference_terms_bit_for_bit() {
    let seen = assert_same_terms(start, 300, TERMS.len(), terms);
    assert!(seen > 10_000, "only {seen} positions");
}

#[test]
fn buried_stones_of_every_colour_match_the_reference() {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(14);
    let mut actions = Vec::new();
    let mut deep = 0;
    for game in 0..300 {
        let mut state = start(game);
        while state.to_move().is_some() {
            for stone in [Stone::Neutral, Stone::Dark, Stone::Light] {
                let reference = buried(&state, stone);
                assert_eq!(state.buried(stone), reference, "{}", state.position());
                deep += usize::from(reference >= 3);
            }
            let v1 = state.evaluate_v1(Seat::FIRST);
            assert_eq!(state.evaluate_v1(Seat::SECOND), -v1, "{}", state.position());
            state.legal_actions(&mut actions);
            state.apply(*actions.choose(&mut rng).unwrap());
        }
    }
    assert!(
        deep > 1_000,
        "{deep} positions with three or more buried stones"
    );
}
