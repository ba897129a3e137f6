//! The evaluation as it was first written, kept for tests only: the
//! reference that the faster evaluation of `eval.rs` and `terms.rs` (landing squares as one
//! shift of the pieces, counts by distance as popcounts of rings) must reproduce bit for bit.
//! It follows every piece's every forward advance, the straightforward way.

use ludus_engine::{Heuristic, Notation, Rules, Seat};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

use super::eval::{chebyshev, squares, MAN_PROGRESS, PIECE};
use super::moves::{advance_target, FORWARD};
use super::rules::{ReplicaOptions, Sight};
use super::state::{Replica, TARGET};
use super::terms::TERMS;
use crate::weights::assert_same_terms;

/// (squares where `side` wins at once, its best capture), piece by piece.
fn prospects(state: &Replica, side: usize) -> (u32, i32) {
    let own = state.pieces[side];
    let enemy = 1 - side;
    let corner = TARGET[side].bit();
    let mut winning = state.transformable(side) & corner;
    let mut best_capture = 0;
    for from in squares(own) {
        let king = state.kings[side] & from.bit() != 0;
        for d in FORWARD[side] {
            let Some(to) = advance_target(own, from, d) else {
                continue;
            };
            let bit = to.bit();
            if state.kings[enemy] & bit != 0 || (king && bit == corner) {
                winning |= bit;
            } else if state.pieces[enemy] & bit != 0 {
                best_capture = best_capture.max(PIECE + MAN_PROGRESS[chebyshev(to, enemy)]);
            }
        }
    }
    (winning.count_ones(), best_capture)
}

/// `terms::terms` as first written.
fn terms(state: &Replica, seat: Seat, out: &mut [f64]) {
    out.fill(0.0);
    let mover = state.side();
    let sign = if seat.to_usize() == mover { 1.0 } else { -1.0 };
    let mine = prospects(state, mover);
    if mine.0 > 0 {
        out[19] = sign;
        return;
    }
    let theirs = prospects(state, 1 - mover);
    for side in 0..2 {
        let side_sign = if side == seat.to_usize() { 1.0 } else { -1.0 };
        for square in squares(state.pieces[side]) {
            let base = if state.kings[side] & square.bit() != 0 {
                8
            } else {
                0
            };
            out[base + chebyshev(square, side)] += side_sign;
        }
        out[21] += side_sign * f64::from(state.transformable(side).count_ones());
    }
    // Free kings: no enemy piece on a square between the king and its target corner.
    let mut nearest = [None; 2];
    for side in 0..2 {
        let side_sign = if side == seat.to_usize() { 1.0 } else { -1.0 };
        for king in squares(state.kings[side]) {
            let target = TARGET[side];
            let between = |a: u8, b: u8, c: u8| a.min(c) <= b && b <= a.max(c);
            let blocked = squares(state.pieces[1 - side]).any(|enemy| {
                between(king.file(), enemy.file(), target.file())
                    && between(king.rank(), enemy.rank(), target.rank())
            });
            if !blocked {
                out[22] += side_sign;
                let d = chebyshev(king, side);
                nearest[side] = Some(nearest[side].unwrap_or(d).min(d));
            }
        }
    }
    // The race, phrased apart from `terms.rs`: a side without a free king is infinitely
    // far, and the side to move wins ties.
    let far = |d: Option<usize>| d.unwrap_or(usize::MAX);
    let (m, w) = (far(nearest[mover]), far(nearest[1 - mover]));
    if m.min(w) != usize::MAX {
        out[23] = if m <= w { sign } else { -sign };
    }
    out[16] = sign * f64::from(mine.1);
    out[20] = -sign * f64::from(theirs.1);
    match theirs.0 {
        0 => {}
        1 => out[17] = sign,
        _ => out[18] = sign,
    }
}

/// v1's evaluation for the side to move, as first written.
fn v1_for_mover(state: &Replica) -> i32 {
    const KING_PROGRESS: [i32; 8] = [0, 400, 200, 100, 50, 20, 0, 0];
    let material = |side: usize| -> i32 {
        squares(state.pieces[side])
            .map(|square| {
                let c = chebyshev(square, side);
                if state.kings[side] & square.bit() != 0 {
                    PIECE + KING_PROGRESS[c]
                } else {
                    PIECE + MAN_PROGRESS[c]
                }
            })
            .sum()
    };
    let side = state.side();
    let mine = prospects(state, side);
    if mine.0 > 0 {
        return 50_000;
    }
    let threat = match prospects(state, 1 - side).0 {
        0 => 0,
        1 => 250,
        _ => 1_500,
    };
    material(side) - material(1 - side) + mine.1 / 2 - threat
}

/// The start of the `game`-th reference game: both sight options in turn.
fn start(game: u64) -> Replica {
    let sight = [Sight::Forward3, Sight::All8][(game % 2) as usize];
    Replica::new(&ReplicaOptions { sight }, game)
}

#[test]
fn the_fast_terms_are_the_reference_terms_bit_for_bit() {
    let seen = assert_same_terms(start, 300, TERMS.len(), terms);
    assert!(seen > 10_000, "only {seen} positions");
}

/// Checks prospects, terms and v1 against the reference at `state`, for both sides.
fn assert_matches(state: &Replica) {
    let at = state.position();
    for side in 0..2 {
        let fast = state.prospects(side, state.transformable(side));
        let reference = prospects(state, side);
        assert_eq!(
            (fast.wins, fast.best_capture),
            reference,
            "{at} side {side}"
        );
    }
    let v1 = v1_for_mover(state);
    assert_eq!(state.evaluate_v1(state.core.to_move), v1, "{at}");
    assert_eq!(
        state.evaluate_v1(state.core.to_move.opponent()),
        -v1,
        "{at}"
    );
    for seat in [Seat::FIRST, Seat::SECOND] {
        let (mut fast, mut slow) = ([0.0; TERMS.len()], [0.0; TERMS.len()]);
        state.terms(seat, &mut fast);
        terms(state, seat, &mut slow);
        assert_eq!(fast.map(f64::to_bits), slow.map(f64::to_bits), "{at}");
    }
}

#[test]
fn prospects_and_v1_match_the_reference_in_random_games() {
    let mut rng = SmallRng::seed_from_u64(14);
    let mut actions = Vec::new();
    let mut wins = 0;
    for game in 0..300 {
        let mut state = start(game);
        while state.to_move().is_some() {
            assert_matches(&state);
            wins += usize::from(prospects(&state, state.side()).0 > 0);
            state.legal_actions(&mut actions);
            state.apply(*actions.choose(&mut rng).unwrap());
        }
    }
    assert!(wins > 500, "{wins} positions with a win at once");
}

/// Random boards, which games from the start never reach: enemy men on a target corner
/// (Black's men cannot go back to h8 once its king has left), kings anywhere.
#[test]
fn prospects_and_v1_match_the_reference_on_random_boards() {
    let mut rng = SmallRng::seed_from_u64(14);
    let (mut checked, mut men_on_corners) = (0, 0);
    for board in 0..20_000 {
        // About 30 % of the squares hold a piece; every third board has enemy men on both
        // target corners (h8 is the 8th letter, a1 the 57th).
        const CELLS: &[u8] = b"..............wwWbbB";
        let mut cells: Vec<u8> = (0..64).map(|_| *CELLS.choose(&mut rng).unwrap()).collect();
        if board % 3 == 0 {
            (cells[7], cells[56]) = (b'b', b'w');
        }
        let ranks: Vec<String> = cells
            .chunks(8)
            .map(|rank| String::from_utf8_lossy(rank).replace('.', "1"))
            .collect();
        let text = ranks.join("/") + [" w", " b"][board % 2];
        let options = ReplicaOptions {
            sight: [Sight::Forward3, Sight::All8][board / 2 % 2],
        };
        let Ok(state) = Replica::from_position(&text, &options) else {
            continue;
        };
        if state.to_move().is_none() {
            continue;
        }
        assert_matches(&state);
        checked += 1;
        for (side, corner) in TARGET.iter().enumerate() {
            let enemy_men = state.pieces[1 - side] & !state.kings[1 - side];
            men_on_corners += usize::from(enemy_men & corner.bit() != 0);
        }
    }
    assert!(
        checked > 1_000 && men_on_corners > 100,
        "{checked} {men_on_corners}"
    );
}
