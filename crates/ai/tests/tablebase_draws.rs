//! A proved draw is kept when the history hides the tables' wins and losses: near a
//! repetition the Qilin probe answers stored draws only (a draw rule can turn a stored win
//! into a draw, never a stored draw into anything else), and a player that proved the game
//! earlier plays a decision that still holds the draw instead of its search's choice.

use std::path::PathBuf;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use ludus_ai::tablebase::{generate, install, stored_after, turn_ends, Tablebases};
use ludus_ai::{Agent, Proved, RandomAgent, SolveBudget, SolvingAgent, StopFlag};
use ludus_engine::{Notation, Rules};
use ludus_games::qilin::{Qilin, QilinOptions};

/// The default rules (repetition draws at the third occurrence).
fn options() -> QilinOptions {
    QilinOptions::default()
}

/// The same position without its history: what the tables answer for it in a fresh game.
fn fresh(state: &Qilin) -> Qilin {
    Qilin::from_position(&state.position(), &options()).unwrap()
}

/// A random movement-stage position with three pieces a side.
fn random_three_a_side(rng: &mut SmallRng) -> Qilin {
    let mut board = ['.'; 24];
    let mut points: Vec<usize> = (0..24).collect();
    for (i, piece) in "RRRBBB".chars().enumerate() {
        let at = rng.random_range(i..24);
        points.swap(i, at);
        board[points[i]] = piece;
    }
    let side = if rng.random_bool(0.5) { 'R' } else { 'B' };
    let text = format!("{} move {side} 0/0 0", board.iter().collect::<String>());
    Qilin::from_position(&text, &options()).unwrap()
}

/// A quiet turn (one slide, no removal) of the seat to move, if it has one, as the slide's
/// text and the position after it.
fn quiet_turn(state: &Qilin, rng: &mut SmallRng) -> Option<(String, Qilin)> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    let quiet: Vec<(String, Qilin)> = actions
        .into_iter()
        .map(|action| {
            let mut next = state.clone();
            next.apply(action);
            (state.format_action(action), next)
        })
        .filter(|(_, next)| next.turn() > state.turn() && next.outcome().is_none())
        .collect();
    quiet.choose(rng).cloned()
}

/// `state` after the slide `text` backwards (`b2-a1` for `a1-b2`), if that is a quiet turn.
fn back(state: &Qilin, text: &str) -> Option<Qilin> {
    let (from, to) = text.split_once('-')?;
    let action = state.parse_action(&format!("{to}-{from}")).ok()?;
    let mut next = state.clone();
    next.apply(action);
    (next.turn() > state.turn() && next.outcome().is_none()).then_some(next)
}

/// Both seats slide a piece forth, back and forth again from `start`: the mover is to move
/// in the position after the first two slides, which has now occurred twice, as has the
/// start, so one more return would draw.
fn shuffled(start: &Qilin, rng: &mut SmallRng) -> Option<Qilin> {
    let (mine, one) = quiet_turn(start, rng)?;
    let (theirs, two) = quiet_turn(&one, rng)?;
    let three = back(&two, &mine)?;
    let again = back(&three, &theirs)?;
    let five = again.clone().parse_action(&mine).ok().map(|a| {
        let mut next = again.clone();
        next.apply(a);
        next
    })?;
    let action = five.parse_action(&theirs).ok()?;
    let mut six = five;
    six.apply(action);
    (six.position() == two.position()).then_some(six)
}

/// A 3-against-3 start and the game after [`shuffled`], in a position stored as a draw where
/// at least half of the mover's turns lose.
fn drawn_position_near_a_repetition(tables: &Tablebases) -> (Qilin, Qilin) {
    let mut rng = SmallRng::seed_from_u64(36);
    loop {
        let start = random_three_a_side(&mut rng);
        let Some(now) = shuffled(&start, &mut rng) else {
            continue;
        };
        if tables.probe(&fresh(&now)) != Some(Proved::Draw) {
            continue;
        }
        let mut ends = Vec::new();
        turn_ends(&now, &mut ends);
        let losing = ends
            .iter()
            .filter(|end| matches!(stored_after(tables, &fresh(end)), Some(Proved::Loss(_))))
            .count();
        if losing * 2 >= ends.len() {
            return (start, now);
        }
    }
}

#[test]
fn a_proved_draw_is_held_when_a_repetition_is_near() {
    // Removed when the test ends, also when it fails.
    let guard = tempfile::TempDir::with_prefix("ludus-tb-draws-").unwrap();
    let dir = guard.path();
    let endgames = Qilin::endgames().unwrap();
    generate(endgames, Qilin::INFO.id, 3, dir, |_| {}).unwrap();
    let tables = Arc::new(Tablebases::open::<Qilin>(dir).unwrap());
    let (start, now) = drawn_position_near_a_repetition(&tables);
    // With the history, only the draw is answered.
    let probe = now.endgame_probe().unwrap();
    assert_eq!(probe.within, 0, "{}", now.position());
    assert_eq!(tables.probe(&now), Some(Proved::Draw));
    install(Some(PathBuf::from(dir)));
    for seed in 0..12 {
        // A random mover whose solver proved the start: left to itself it would lose at
        // least half the time. Its solver's budget proves no more than "at least a draw"
        // here (the exact value needs more nodes), which must be enough to hold the draw.
        let budget = SolveBudget {
            nodes: 300,
            ..SolveBudget::default()
        };
        let mut player = SolvingAgent::new(Box::new(RandomAgent::new(seed)), 8, budget);
        let proved = player.analyse(&start, &StopFlag::default()).evaluation;
        assert!(
            matches!(proved, Some(ludus_ai::Evaluation::Proved(_))),
            "{proved:?}"
        );
        let decision = player.analyse(&now, &StopFlag::default()).action;
        let mut next = now.clone();
        next.apply(decision);
        let mut ends = Vec::new();
        if next.turn() > now.turn() || next.outcome().is_some() {
            ends.push(next);
        } else {
            turn_ends(&next, &mut ends);
        }
        assert!(
            ends.iter()
                .any(|end| stored_after(&tables, &fresh(end)) == Some(Proved::Draw)),
            "seed {seed}: {} gave up the draw with {}",
            now.position(),
            now.format_action(decision)
        );
    }
    install(None);
}
