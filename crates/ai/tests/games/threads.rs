//! Searching on several threads (`threads=N`), on the five games through the registry:
//!
//! - alpha-beta (Lazy SMP) and MCTS (root and tree parallelism) with two threads decide
//!   legally on every game, from the start and from a middle game, and keep to their time
//!   budget;
//! - level 5 takes the parameter too, whatever agent the game names, and with it fills its
//!   time or not as measured per game (Replica keeps the half-time stop);
//! - with one thread, a fixed-depth search is repeatable exactly (the fingerprint), and
//!   `threads=1` is the search without the parameter;
//! - `threads` outside 1..=64 is refused with a message naming the range.

use std::time::{Duration, Instant};

use ludus_ai::{build_agent, resolve_best, Agent, AgentKind, AgentSpec, AlphaBetaConfig, StopFlag};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor, GAMES};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

/// The time each threaded decision may take.
const BUDGET: Duration = Duration::from_millis(60);
/// Past this a search did not keep to its budget: a search that ignored it would run for
/// minutes (to its depth or tree limit). Far above the budget, as a machine shared with other
/// builds can hold a thread back for a second or more; how close a search keeps to its
/// budget is a figure for `ludus bench`, not a test.
const KEPT: Duration = Duration::from_secs(10);

fn agent<G: Game + Heuristic>(spec: &str, seed: u64) -> Box<dyn Agent<G>> {
    let spec: AgentSpec = spec.parse().unwrap();
    build_agent::<G>(&spec, seed).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The start and a position after 12 random decisions.
fn positions<G: Game>() -> Vec<G> {
    let start = G::new(&G::Options::default(), 3);
    let mut middle = start.clone();
    let mut rng = SmallRng::seed_from_u64(3);
    let mut actions = Vec::new();
    for _ in 0..12 {
        middle.legal_actions(&mut actions);
        let Some(&action) = actions.choose(&mut rng) else {
            break;
        };
        middle.apply(action);
    }
    if middle.to_move().is_none() {
        return vec![start];
    }
    vec![start, middle]
}

struct TwoThreads;

impl GameVisitor for TwoThreads {
    type Output = ();
    fn visit<G: Game + Heuristic>(self) {
        let stop = StopFlag::default();
        let seconds = BUDGET.as_secs_f64();
        for spec in [
            format!("ai:alphabeta:time={seconds},threads=2"),
            format!("ai:alphabeta:time={seconds},threads=2,quiesce=true,fill=true"),
            format!("ai:mcts:time={seconds},threads=2,parallel=root"),
            format!("ai:mcts:time={seconds},threads=2,parallel=tree"),
            format!("ai:5:time={seconds},threads=2"),
        ] {
            let mut player = agent::<G>(&spec, 5);
            for state in positions::<G>() {
                let started = Instant::now();
                let analysis = player.analyse(&state, &stop);
                let took = started.elapsed();
                assert!(
                    state.is_legal(analysis.action),
                    "{spec} on {}: illegal {:?} at {}",
                    G::INFO.id,
                    analysis.action,
                    state.position()
                );
                assert!(analysis.nodes > 0, "{spec} on {}: no search", G::INFO.id);
                assert!(took <= KEPT, "{spec} on {}: took {took:?}", G::INFO.id);
            }
        }
    }
}

#[test]
fn two_threads_decide_legally_within_the_budget_in_every_game() {
    for info in GAMES {
        dispatch(info.id, TwoThreads).unwrap();
    }
}

struct OneThread;

impl GameVisitor for OneThread {
    type Output = ();
    fn visit<G: Game + Heuristic>(self) {
        let stop = StopFlag::default();
        let state = G::new(&G::Options::default(), 1);
        let run = |spec: &str| {
            let analysis = agent::<G>(spec, 9).analyse(&state, &stop);
            (analysis.action, analysis.nodes, analysis.depth)
        };
        let plain = run("ai:alphabeta:depth=4");
        assert_eq!(plain, run("ai:alphabeta:depth=4"), "{}", G::INFO.id);
        assert_eq!(
            plain,
            run("ai:alphabeta:depth=4,threads=1"),
            "{}",
            G::INFO.id
        );
        let mcts = run("ai:mcts:iterations=300");
        assert_eq!(
            mcts,
            run("ai:mcts:iterations=300,threads=1"),
            "{}",
            G::INFO.id
        );
    }
}

#[test]
fn one_thread_searches_exactly_as_before() {
    for info in GAMES {
        dispatch(info.id, OneThread).unwrap();
    }
}

struct Refused;

impl GameVisitor for Refused {
    type Output = ();
    fn visit<G: Game + Heuristic>(self) {
        for spec in [
            "ai:alphabeta:threads=0",
            "ai:alphabeta:threads=65",
            "ai:mcts:threads=0",
            "ai:mcts:threads=two",
            "ai:mcts:threads=65,parallel=tree",
            "ai:5:threads=100",
        ] {
            let spec: AgentSpec = spec.parse().unwrap();
            let error = build_agent::<G>(&spec, 1).err().expect("refused");
            assert!(error.to_string().contains("threads="), "{error}");
        }
        let spec: AgentSpec = "ai:alphabeta:threads=65".parse().unwrap();
        let error = build_agent::<G>(&spec, 1).err().unwrap().to_string();
        assert!(error.contains("from 1 to 64"), "{error}");
    }
}

#[test]
fn thread_counts_outside_one_to_sixty_four_are_refused() {
    dispatch("qilin", Refused).unwrap();
}

/// With an iteration limit, each of the MCTS threads runs it: the counts add up, whether the
/// threads grow a tree each or share one, and on one tree whether they hold back the updates
/// of every node visited before or of none.
struct IterationsAddUp;

impl GameVisitor for IterationsAddUp {
    type Output = ();
    fn visit<G: Game + Heuristic>(self) {
        let state = G::new(&G::Options::default(), 1);
        for parallel in ["root", "tree", "tree,hold=1", "tree,hold=4294967295"] {
            let spec = format!("ai:mcts:iterations=200,threads=3,parallel={parallel}");
            let analysis = agent::<G>(&spec, 2).analyse(&state, &StopFlag::default());
            assert_eq!(analysis.nodes, 600, "{spec}");
            assert!(state.is_legal(analysis.action), "{spec}");
        }
    }
}

#[test]
fn mcts_threads_each_run_the_iteration_limit() {
    dispatch("replica", IterationsAddUp).unwrap();
}

/// Whether level 5 with two threads (as on every core of this machine) fills its time: its
/// spec resolved for the game as `build_agent` resolves it; `None` if it is not alpha-beta.
struct LevelFiveFills;

impl GameVisitor for LevelFiveFills {
    type Output = Option<bool>;
    fn visit<G: Game + Heuristic>(self) -> Option<bool> {
        let typed: AgentSpec = "ai:5:threads=2".parse().unwrap();
        let resolved = resolve_best(&G::INFO, &typed);
        assert!(build_agent::<G>(&resolved, 1).is_ok(), "{resolved}");
        (resolved.kind == AgentKind::AlphaBeta)
            .then(|| AlphaBetaConfig::from_spec(&resolved).unwrap().fill_time)
    }
}

#[test]
fn level_five_with_helpers_fills_its_time_except_in_replica() {
    // Measured at 100 ms (docs/STRENGTH.md, "A second core"): helpers that fill the time gain
    // in Qilin and Splut!, while Replica's second thread gains more with the half-time stop.
    // Yoxii's level 5 is alpha-beta with quiescence and pruning, with the default fill.
    let fills = |id: &str| dispatch(id, LevelFiveFills).unwrap();
    assert_eq!(fills("replica"), Some(false));
    assert_eq!(fills("qilin"), Some(true));
    assert_eq!(fills("splut"), Some(true));
    assert_eq!(fills("qawale"), Some(true));
    assert_eq!(fills("yoxii"), Some(true));
}
