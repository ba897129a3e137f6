//! The exact solver against minimax to the end (plain alpha-beta, nothing else), on late positions of every game played
//! by two seats (from the registry): random games are played out, and positions a few turns
//! before their end (as many as a small minimax tree allows) are solved both ways. The values
//! must agree exactly, distance included, and the solver's decision must keep the value.
//! Proof-number search (df-pn) must find the same value (it proves no distance).

use ludus_ai::{
    build_agent, prove_value, AgentSpec, Evaluation, Proved, ProvedValue, SolveBudget, Solver,
    StopFlag,
};
use ludus_engine::{parse_options, Game, Heuristic, WIN_SCORE};
use ludus_games::{dispatch, GameVisitor, GAMES};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Most nodes of a minimax tree a test position may have (debug builds are slow).
const TREE_LIMIT: u64 = 40_000;

/// Longest line a test position's tree may hold, in turns (the recursion must fit the stack).
const LINE_LIMIT: u32 = 60;

/// How many of a game's last positions are tried.
const LATE: usize = 12;

/// The value of `state` for its seat to move by minimax to the end of the game, in the
/// solver's scores (distances counted from `root_turn`), with nothing but alpha-beta cut-offs
/// (no table, no ordering, no symmetry); `None` past `budget` nodes or [`LINE_LIMIT`] turns.
fn minimax<G: Game>(state: &G, root_turn: u32, budget: &mut u64) -> Option<i32> {
    negamax(state, root_turn, budget, -INFINITY, INFINITY)
}

const INFINITY: i32 = WIN_SCORE + 1;

fn negamax<G: Game>(
    state: &G,
    root_turn: u32,
    budget: &mut u64,
    mut alpha: i32,
    beta: i32,
) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    if state.turn() - root_turn > LINE_LIMIT {
        return None;
    }
    let mover = state.to_move()?;
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    let mut best = -INFINITY;
    for action in actions {
        let mut child = state.clone();
        child.apply(action);
        let at = WIN_SCORE - (child.turn() - root_turn) as i32;
        let score = match child.verdict() {
            Some(verdict) => match verdict.winner() {
                Some(w) if w == mover => at,
                Some(_) => -at,
                None => 0,
            },
            None if child.to_move() == Some(mover) => {
                negamax(&child, root_turn, budget, alpha, beta)?
            }
            None => -negamax(&child, root_turn, budget, -beta, -alpha)?,
        };
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}

/// The positions among the last [`LATE`] of a long random game whose minimax trees fit
/// [`TREE_LIMIT`], with their values. The game avoids ending while it can (each decision is a random one of those
/// that do not end it, if any), so that it runs to where few decisions are left in any line.
fn late_positions<G: Game>(options: &G::Options, seed: u64) -> Vec<(G, i32)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut line = vec![G::new(options, seed)];
    let mut actions = Vec::new();
    while let Some(state) = line
        .last()
        .filter(|s| s.to_move().is_some() && line.len() < 5000)
    {
        state.legal_actions(&mut actions);
        actions.shuffle(&mut rng);
        let next = actions
            .iter()
            .map(|&action| {
                let mut next = state.clone();
                next.apply(action);
                next
            })
            .min_by_key(|next| next.verdict().is_some())
            .expect("a game not over has a decision");
        line.push(next);
    }
    line.pop();
    // Of the last positions, those whose tree is small enough, the earliest first.
    let mut found = Vec::new();
    for state in line.into_iter().rev().take(LATE).rev() {
        let mut budget = TREE_LIMIT;
        if let Some(value) = minimax(&state, state.turn(), &mut budget) {
            found.push((state, value));
        }
    }
    found
}

/// The value for `state`'s seat to move of playing `action`, by minimax (distances from
/// `state`).
fn value_after<G: Game>(state: &G, action: G::Action) -> i32 {
    let mover = state.to_move();
    let mut after = state.clone();
    after.apply(action);
    let at = WIN_SCORE - (after.turn() - state.turn()) as i32;
    if let Some(verdict) = after.verdict() {
        return match verdict.winner() {
            Some(w) if Some(w) == mover => at,
            Some(_) => -at,
            None => 0,
        };
    }
    let mut budget = TREE_LIMIT;
    let v = minimax(&after, state.turn(), &mut budget).unwrap();
    if after.to_move() == mover {
        v
    } else {
        -v
    }
}

struct AgreesWithMinimax {
    seeds: u64,
}

impl GameVisitor for AgreesWithMinimax {
    type Output = usize;
    fn visit<G: Game + Heuristic>(self) -> usize {
        // A game with a turn limit among its options gets a short one, so that every line
        // from a late position ends within a small tree.
        let short: Vec<&str> = G::INFO
            .options
            .iter()
            .filter(|option| option.name == "max_turns")
            .map(|_| "max_turns=30")
            .collect();
        let options: G::Options = parse_options(G::INFO.id, &short).unwrap();
        let mut solver = Solver::<G>::new(4);
        let mut checked = 0;
        let positions = (0..self.seeds).flat_map(|seed| {
            late_positions::<G>(&options, seed)
                .into_iter()
                .map(move |found| (seed, found))
        });
        for (seed, (state, value)) in positions {
            if state.seat_count() != 2 {
                continue;
            }
            let solution = solver.solve(&state, &SolveBudget::default(), &StopFlag::default());
            let name = G::INFO.id;
            let at = state.position();
            assert_eq!(
                solution.proved(),
                Some(Proved::from_score(value)),
                "{name} seed {seed}: {at}"
            );
            assert_eq!(
                value_after(&state, solution.best.unwrap()),
                value,
                "{name} seed {seed}: the solver's decision loses value"
            );
            // df-pn keeps its numbers only for positions with a canonical key: where the
            // future depends on the history (Qilin's and Splut!'s draw rules) it would search
            // without a table, so it is checked where the key exists.
            if state.canonical_key().is_some() {
                let budget = SolveBudget {
                    nodes: 2_000_000,
                    ..SolveBudget::default()
                };
                let by_proof_numbers = prove_value(&state, &budget, 4, &StopFlag::default());
                let expected = ProvedValue::from(Proved::from_score(value));
                assert_eq!(
                    by_proof_numbers.value,
                    Some(expected),
                    "{name} seed {seed}: df-pn at {at}"
                );
            }
            checked += 1;
        }
        checked
    }
}

#[test]
fn the_solver_agrees_with_minimax_on_late_positions_of_every_two_seat_game() {
    for info in GAMES.iter().filter(|info| info.min_seats <= 2) {
        let checked = dispatch(info.id, AgreesWithMinimax { seeds: 6 }).unwrap();
        assert!(
            checked >= 6,
            "{}: only {checked} positions checked",
            info.id
        );
    }
}

/// An agent with the solver plays a decision that keeps the proved value and reports it.
struct PlaysProved;

impl GameVisitor for PlaysProved {
    type Output = usize;
    fn visit<G: Game + Heuristic>(self) -> usize {
        let options: G::Options = parse_options(G::INFO.id, &[] as &[&str]).unwrap();
        let spec: AgentSpec = "ai:4:depth=2,nodes=400000,solve=10000".parse().unwrap();
        let mut agent = build_agent::<G>(&spec, 1).unwrap();
        let mut checked = 0;
        for (state, value) in late_positions::<G>(&options, 3) {
            if state.seat_count() != 2 || G::INFO.options.iter().any(|o| o.name == "max_turns") {
                continue;
            }
            let analysis = agent.analyse(&state, &StopFlag::default());
            let proved = Proved::from_score(value);
            assert_eq!(analysis.evaluation, Some(Evaluation::Proved(proved)));
            assert_eq!(
                value_after(&state, analysis.action),
                value,
                "{}: the agent's decision loses value",
                G::INFO.id
            );
            checked += 1;
        }
        checked
    }
}

#[test]
fn an_agent_with_the_solver_plays_and_shows_the_proved_result() {
    let checked: usize = GAMES
        .iter()
        .filter(|info| info.min_seats <= 2)
        .map(|info| dispatch(info.id, PlaysProved).unwrap())
        .sum();
    assert!(checked >= 10, "only {checked} positions checked");
    let bad: AgentSpec = "ai:2:solve=4".parse().unwrap();
    let refused = build_agent::<ludus_engine::demo::Nim>(&bad, 1)
        .err()
        .unwrap();
    assert!(refused.to_string().contains("solve=4"), "{refused}");
    for (spec, named) in [
        ("ai:2:tables=false", "tables=false"),
        ("ai:5:tables=no", "tables=no"),
    ] {
        let bad: AgentSpec = spec.parse().unwrap();
        let refused = build_agent::<ludus_engine::demo::Nim>(&bad, 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            refused.contains(named) && refused.contains("true or false"),
            "{refused}"
        );
    }
}
