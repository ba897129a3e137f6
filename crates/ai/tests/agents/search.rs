//! Agents on small games: legality, agreement between minimax and alpha-beta, tactics,
//! determinism, budgets and the erased interface.

use ludus_engine::{AnyGame, Game, Heuristic, Notation, Rules, Seat, Session, Verdict};
use std::thread;
use std::time::{Duration, Instant};

use ludus_ai::{erase, Evaluation, StopFlag};
use ludus_engine::demo::{Nim, NimOptions};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

use crate::games::{Mnk, MnkOptions, PartyNim, PartyNimOptions};
use crate::support::{agent, play_checked};

/// Every agent at tiny budgets.
const SPECS: &[&str] = &[
    "ai:1",
    "ai:2",
    "ai:3:nodes=3000",
    "ai:minimax:depth=1",
    "ai:4:nodes=400",
    "ai:alphabeta:depth=3,hash=1",
    "ai:alphabeta:depth=2,hash=0,eval=seed",
    "ai:mcts:iterations=60",
    "ai:mcts:iterations=40,cutoff=4,scale=50",
    "ai:mcts:iterations=50,tree=30,reuse=false",
    "ai:5:nodes=30",
];

fn mnk(size: u8, k: u8) -> Mnk {
    Mnk::new(&MnkOptions { size, k }, 0)
}

fn party(pile: u8, players: u8) -> PartyNim {
    PartyNim::new(&PartyNimOptions { pile, players }, 0)
}

#[test]
fn every_agent_plays_only_legal_decisions() {
    for (i, spec) in SPECS.iter().enumerate() {
        let seed = i as u64 * 100;
        for pile in [1, 2, 5, 11, 17] {
            play_checked(
                spec,
                Nim::new(&NimOptions { pile }, 0),
                seed + u64::from(pile),
            );
        }
        for game in 0..4 {
            play_checked(spec, mnk(3, 3), seed + game);
            play_checked(
                spec,
                party(13 + game as u8, 3 + (game % 2) as u8),
                seed + game,
            );
        }
        play_checked(spec, mnk(5, 4), seed);
    }
}

/// A random position `moves` decisions from `start` that is not over.
fn random_position<G: Game>(start: &G, moves: usize, seed: u64) -> Option<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = start.clone();
    let mut actions = Vec::new();
    for _ in 0..moves {
        state.legal_actions(&mut actions);
        state.apply(*actions.choose(&mut rng)?);
    }
    state.to_move().map(|_| state)
}

fn value<G: Game + Heuristic>(spec: &str, state: &G) -> Option<Evaluation> {
    agent::<G>(spec, 1)
        .analyse(state, &StopFlag::default())
        .evaluation
}

#[test]
fn alphabeta_and_minimax_agree_on_values() {
    // One decision per turn: depths in turns and decisions are the same.
    for seed in 0..24 {
        let Some(state) = random_position(&mnk(3, 3), seed as usize % 6, seed) else {
            continue;
        };
        for depth in 1..=4 {
            let minimax = value(
                &format!("ai:3:depth={depth},eval=evaluate,nodes=99999999"),
                &state,
            );
            let alphabeta = value(&format!("ai:4:depth={depth}"), &state);
            assert_eq!(minimax, alphabeta, "depth {depth} at {}", state.position());
        }
    }
    for seed in 0..8 {
        let Some(state) = random_position(&mnk(4, 3), 3 + seed as usize % 4, seed) else {
            continue;
        };
        for depth in 1..=3 {
            let minimax = value(
                &format!("ai:3:depth={depth},eval=evaluate,nodes=99999999"),
                &state,
            );
            let alphabeta = value(&format!("ai:4:depth={depth}"), &state);
            assert_eq!(minimax, alphabeta, "depth {depth} at {}", state.position());
        }
    }
}

#[test]
fn quiescence_sees_the_win_beyond_the_horizon() {
    let options = MnkOptions { size: 3, k: 3 };
    // o to move; x threatens c1 (cell 2): at one decision only quiescence sees that every
    // other mark loses to x's tactical reply.
    let threat = Mnk::from_position("xx./o../... o", &options).unwrap();
    let analysis =
        agent::<Mnk>("ai:4:depth=1,quiesce=true", 1).analyse(&threat, &StopFlag::default());
    assert_eq!(analysis.action, 2);
    // x threatens cells 2 and 6 at once: lost, seen at depth 1 with quiescence only.
    let fork = Mnk::from_position("xx./xo./..o o", &options).unwrap();
    let with = value("ai:4:depth=1,quiesce=true", &fork);
    assert!(matches!(with, Some(Evaluation::Loss(_))), "{with:?}");
    let without = value("ai:4:depth=1", &fork);
    assert!(matches!(without, Some(Evaluation::Score(_))), "{without:?}");
}

#[test]
fn search_options_keep_values_exact_in_solved_games() {
    // Reductions, evaluation ordering and quiescence change the path, never a proved result.
    for pile in 3..=14 {
        let nim = Nim::new(&NimOptions { pile }, 0);
        let plain = value("ai:4:depth=30", &nim);
        for spec in [
            "ai:4:depth=30,lmr=true",
            "ai:4:depth=30,order=eval",
            "ai:4:depth=30,quiesce=true",
        ] {
            assert_eq!(value(spec, &nim), plain, "{spec} at pile {pile}");
        }
    }
}

#[test]
fn alphabeta_and_minimax_agree_when_turns_hold_two_decisions() {
    // Two decisions per turn: minimax to d turns sees what alpha-beta sees in 2d decisions.
    // Without a table: a table may lend a deeper result from a shallower ply.
    for pile in 3..=16 {
        let nim = Nim::new(&NimOptions { pile }, 0);
        let three = party(pile, 3);
        for turns in 1..=3 {
            let minimax = format!("ai:3:depth={turns},nodes=99999999");
            let alphabeta = format!("ai:4:depth={},hash=0", 2 * turns);
            assert_eq!(value(&minimax, &nim), value(&alphabeta, &nim), "nim {pile}");
            assert_eq!(
                value(&minimax, &three),
                value(&alphabeta, &three),
                "party {pile}"
            );
        }
    }
}

const WINNERS: &[&str] = &[
    "ai:2",
    "ai:3",
    "ai:4:time=0.05",
    "ai:4:depth=1",
    "ai:mcts:iterations=300",
    "ai:5:time=0.05",
];

#[test]
fn every_agent_takes_a_win_in_one() {
    // x x .      the cells are numbered 0 1 2
    // o o .                         3 4 5
    // . . .  x to move: 2 wins.     6 7 8
    let state = Mnk::from_position("xx./oo./... x", &MnkOptions::default()).unwrap();
    for spec in WINNERS {
        let analysis = agent::<Mnk>(spec, 3).analyse(&state, &StopFlag::default());
        assert_eq!(analysis.action, 2, "{spec}");
        if !spec.starts_with("ai:2") {
            assert!(
                matches!(analysis.evaluation, Some(Evaluation::Win(1))),
                "{spec}: {analysis:?}"
            );
        }
    }
}

#[test]
fn searches_block_a_win_in_one() {
    // x x .
    // o . .
    // . . o  o to move must take 2.
    let state = Mnk::from_position("xx./o../..o o", &MnkOptions::default()).unwrap();
    for spec in [
        "ai:3",
        "ai:4:depth=2",
        "ai:4:time=0.05",
        "ai:mcts:iterations=3000",
    ] {
        let action = agent::<Mnk>(spec, 5).choose(&state, &StopFlag::default());
        assert_eq!(action, 2, "{spec}");
    }
}

/// Lets `spec` play the rest of the current turn and returns the state after it.
fn finish_turn<G: Game + Heuristic>(spec: &str, mut state: G) -> G {
    let mut agent = agent::<G>(spec, 9);
    let turn = state.turn();
    while state.turn() == turn && state.to_move().is_some() {
        let action = agent.choose(&state, &StopFlag::default());
        state.apply(action);
    }
    state
}

#[test]
fn searches_find_a_win_within_a_turn_of_two_decisions() {
    for spec in [
        "ai:3",
        "ai:4:time=0.05",
        "ai:4:depth=2",
        "ai:mcts:iterations=300",
    ] {
        // Four stones: only 2 then 2 wins at once.
        let nim = finish_turn(spec, Nim::new(&NimOptions { pile: 4 }, 0));
        assert_eq!(
            nim.outcome().map(|o| o.verdict),
            Some(Verdict::Win(Seat::FIRST)),
            "{spec}"
        );
        // Seat 2 of three, four stones left.
        let three = PartyNim::from_position("4 2 0", &PartyNimOptions::default()).unwrap();
        let three = finish_turn(spec, three);
        assert_eq!(
            three.outcome().map(|o| o.verdict),
            Some(Verdict::Win(Seat::SECOND)),
            "{spec}"
        );
    }
}

#[test]
fn alphabeta_sees_forced_results_from_the_mover_side() {
    // Piles of 5 or 6 (mod 6) lose for the side to move in two-step Nim.
    let lost = Nim::from_position("11 2 0", &NimOptions::default()).unwrap();
    assert!(matches!(
        value("ai:4:depth=30", &lost),
        Some(Evaluation::Loss(_))
    ));
    let won = Nim::from_position("10 2 0", &NimOptions::default()).unwrap();
    assert!(matches!(
        value("ai:4:depth=30", &won),
        Some(Evaluation::Win(_))
    ));
    // MCTS agrees in spirit: the winning side expects more than half.
    let Some(Evaluation::Reward(reward)) = value("ai:mcts:iterations=4000", &won) else {
        panic!("MCTS reports a reward");
    };
    assert!(reward > 0.5, "{reward}");
}

#[test]
fn agents_are_deterministic_for_a_seed() {
    let specs = SPECS.iter().chain(&["ai:mcts:iterations=200,cutoff=3"]);
    for spec in specs {
        let a = play_checked(spec, mnk(4, 3), 77);
        assert_eq!(a, play_checked(spec, mnk(4, 3), 77), "{spec}");
        let b = play_checked(spec, party(25, 4), 78);
        assert_eq!(b, play_checked(spec, party(25, 4), 78), "{spec}");
    }
    // Different seeds give different games, at least somewhere.
    let games: Vec<_> = (0..6).map(|s| play_checked("ai:1", mnk(4, 3), s)).collect();
    assert!(games.iter().any(|g| g != &games[0]));
}

/// The longest a search that keeps to its clock may appear to take here. The budgets below are
/// 50-200 ms; the bound is far above them because the test binaries share two cores with each
/// other in CI (a loaded machine once took 1.1 s), yet far below what a search that ignored its
/// clock or its stop flag would take on 7×7 (minutes): it separates the two without timing noise.
const CLOCK_KEPT: Duration = Duration::from_secs(8);

/// How long `spec` takes to analyse `state`, and whether its decision is legal.
fn timed<G: Game + Heuristic>(spec: &str, state: &G, stop: &StopFlag) -> Duration {
    let mut agent = agent::<G>(spec, 4);
    let start = Instant::now();
    let analysis = agent.analyse(state, stop);
    let elapsed = start.elapsed();
    assert!(state.is_legal(analysis.action), "{spec}");
    elapsed
}

#[test]
fn searches_keep_to_their_time_budget() {
    let board = mnk(7, 4);
    let stop = StopFlag::default();
    for spec in [
        "ai:4:time=0.05",
        "ai:mcts:time=0.05",
        "ai:5:time=0.05",
        "ai:3:nodes=20000",
    ] {
        let elapsed = timed(spec, &board, &stop);
        assert!(elapsed < CLOCK_KEPT, "{spec} took {elapsed:?}");
    }
}

#[test]
fn fill_spends_the_whole_budget_and_no_more() {
    // 7×7, four in a row: far from solved, so only the clock ends the deepening.
    let board = mnk(7, 4);
    let elapsed = timed("ai:4:time=0.2,fill=true", &board, &StopFlag::default());
    assert!(
        elapsed >= Duration::from_millis(190),
        "stopped early: {elapsed:?}"
    );
    assert!(elapsed < CLOCK_KEPT, "overran: {elapsed:?}");
}

#[test]
fn searches_return_promptly_when_stopped() {
    let board = mnk(7, 4);
    for spec in [
        "ai:4:time=60",
        "ai:mcts:time=60",
        "ai:3:depth=8,nodes=999999999",
    ] {
        let stop = StopFlag::default();
        let raiser = stop.clone();
        let handle = thread::spawn(move || {
            thread::sleep(Duration::from_millis(50));
            raiser.raise();
        });
        let elapsed = timed(spec, &board, &stop);
        handle.join().unwrap();
        assert!(elapsed < CLOCK_KEPT, "{spec} took {elapsed:?}");
    }
}

#[test]
fn iterative_deepening_reports_depth_and_a_legal_line() {
    let state = mnk(4, 3);
    let analysis = agent::<Mnk>("ai:4:depth=5", 1).analyse(&state, &StopFlag::default());
    assert_eq!(analysis.depth, 5);
    assert!(analysis.nodes > 100);
    assert!(!analysis.pv.is_empty() && analysis.pv.len() <= 5);
    let mut line = state.clone();
    for &action in &analysis.pv {
        assert!(line.is_legal(action));
        line.apply(action);
    }
}

#[test]
fn erased_agents_analyse_and_play_in_notation() {
    let mut game = AnyGame::from(Session::<Nim>::new(&NimOptions { pile: 10 }, 0));
    let mut hint = erase(agent::<Nim>("ai:4:depth=20", 1));
    let analysis = hint.analyse(&game, &StopFlag::default()).unwrap();
    assert_eq!(analysis.notation, "2");
    assert_eq!(analysis.pv.first(), Some(&analysis.notation));
    assert!(matches!(analysis.evaluation, Some(Evaluation::Win(_))));
    assert!(analysis.evaluation.unwrap().bar() > 0.99);
    let mut player = erase(agent::<Nim>("ai:mcts:iterations=100", 2));
    let notation = player.choose(&game, &StopFlag::default()).unwrap();
    game.play(&notation).unwrap();
    assert_eq!(player.spec(), "ai:mcts:iterations=100");
    // An agent for another game, or a finished game, gives nothing.
    let other = AnyGame::from(Session::<Mnk>::new(&MnkOptions::default(), 0));
    assert!(hint.analyse(&other, &StopFlag::default()).is_none());
    let mut over = AnyGame::from(Session::<Nim>::new(&NimOptions { pile: 1 }, 0));
    over.play("1").unwrap();
    assert!(hint.choose(&over, &StopFlag::default()).is_none());
}

#[test]
fn bad_specs_are_refused() {
    for bad in [
        "ai:4:depht=3",
        "ai:mcts:c=x",
        "ai:2:time=1",
        "ai:mcts:scale=0",
        "ai:1:x=1",
    ] {
        let spec = bad.parse().unwrap();
        assert!(ludus_ai::build_agent::<Nim>(&spec, 0).is_err(), "{bad}");
    }
}

#[test]
fn thinking_is_reported_after_each_iteration() {
    let mut depths = Vec::new();
    let state = mnk(4, 3);
    let last =
        agent::<Mnk>("ai:4:depth=4", 1).analyse_with(&state, &StopFlag::default(), &mut |a| {
            assert!(state.is_legal(a.action));
            depths.push(a.depth);
        });
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_eq!(last.depth, 4);
    let game = AnyGame::from(Session::<Mnk>::new(&MnkOptions::default(), 0));
    let mut seen = 0;
    let found = erase(agent::<Mnk>("ai:4:depth=3", 1))
        .analyse_with(&game, &StopFlag::default(), &mut |a| {
            assert!(!a.notation.is_empty());
            seen += 1;
        })
        .unwrap();
    assert_eq!((seen, found.depth), (3, 3));
}

#[test]
fn tic_tac_toe_is_a_draw() {
    let empty = mnk(3, 3);
    assert_eq!(value("ai:4:depth=9", &empty), Some(Evaluation::Score(0)));
    assert_eq!(
        value("ai:4:depth=9,hash=0", &empty),
        Some(Evaluation::Score(0))
    );
    assert_eq!(
        value("ai:3:depth=9,nodes=99999999", &empty),
        Some(Evaluation::Score(0))
    );
    // After a corner and an edge reply, the corner player wins by force.
    let edge = Mnk::from_position("x../.o./... x", &MnkOptions::default()).unwrap();
    assert_eq!(value("ai:4:depth=9", &edge), Some(Evaluation::Score(0)));
    let lost = Mnk::from_position("xo./.../... x", &MnkOptions::default()).unwrap();
    assert!(matches!(
        value("ai:4:depth=9", &lost),
        Some(Evaluation::Win(_))
    ));
}

#[test]
fn contempt_prices_the_draw() {
    // Tic-tac-toe is a draw: with contempt the searching side scores it at minus the
    // contempt (a plus with a negative one), and a forced win stays a win.
    let empty = mnk(3, 3);
    assert_eq!(
        value("ai:4:depth=9,contempt=30", &empty),
        Some(Evaluation::Score(-30))
    );
    assert_eq!(
        value("ai:4:depth=9,contempt=-30,threads=2", &empty),
        Some(Evaluation::Score(30))
    );
    let lost = Mnk::from_position("xo./.../... x", &MnkOptions::default()).unwrap();
    assert!(matches!(
        value("ai:4:depth=9,contempt=500", &lost),
        Some(Evaluation::Win(_))
    ));
}
