//! The arena on small games: totals, JSON keys, determinism across thread counts, seat
//! rotation, saved records and errors.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use ludus_ai::arena::{run_arena, ArenaConfig, ArenaError, ArenaReport};
use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{Game, GameRecord, Heuristic, Session};

use crate::games::{Mnk, PartyNim};

fn config<G: Game>(specs: &[&str], games: usize) -> ArenaConfig<G> {
    let mut config = ArenaConfig::new(specs.iter().map(|s| s.parse().unwrap()).collect());
    config.games_per_pair = games;
    config.seed = 11;
    config.threads = 2;
    config
}

fn run<G: Game + Heuristic>(config: &ArenaConfig<G>) -> ArenaReport {
    run_arena(config, |_, _| {}).unwrap()
}

fn check_totals(report: &ArenaReport) {
    for agent in &report.agents {
        let played = report
            .games
            .iter()
            .filter(|g| g.seats.contains(&agent.spec))
            .count();
        assert_eq!((agent.wins + agent.draws + agent.losses) as usize, played);
    }
    let wins: u32 = report.agents.iter().map(|a| a.wins).sum();
    let losses: u32 = report.agents.iter().map(|a| a.losses).sum();
    assert_eq!(
        wins, losses,
        "every decided game has one winner and one loser"
    );
}

#[test]
fn a_match_adds_up_and_the_stronger_agent_wins() {
    // Long enough that random play rarely stumbles through every turn right.
    let mut config = config::<Nim>(&["ai:4:depth=12", "ai:1"], 20);
    config.options = NimOptions { pile: 40 };
    let done = AtomicUsize::new(0);
    let report = run_arena(&config, |n, total| {
        assert_eq!(total, 20);
        done.fetch_max(n, Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(done.load(Ordering::Relaxed), 20);
    assert_eq!(report.game, "nim");
    assert_eq!(report.games.len(), 20);
    check_totals(&report);
    let strong = &report.agents[0];
    assert!(strong.wins >= 17, "{}", report.table());
    assert!(strong.score > 80.0 && strong.elo > 200.0 && strong.elo_ci95 > 0.0);
    assert!((report.agents[1].elo + strong.elo).abs() < 0.11);
    // Seats alternate.
    assert_eq!(
        report.games[0].seats,
        ["ai:alphabeta:depth=12", "ai:random"]
    );
    assert_eq!(
        report.games[1].seats,
        ["ai:random", "ai:alphabeta:depth=12"]
    );
    for game in &report.games {
        assert!(["1-0", "0-1"].contains(&game.result.as_str()));
        assert!(game.plies > 0);
    }
    let table = report.table();
    assert!(table.contains("ai:alphabeta:depth=12") && table.contains('%'));
}

#[test]
fn json_has_exactly_the_documented_keys() {
    let report = run(&config::<Mnk>(&["ai:2", "ai:1"], 4));
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let keys = |v: &serde_json::Value| -> BTreeSet<String> {
        v.as_object().unwrap().keys().cloned().collect()
    };
    let set = |names: &[&str]| {
        names
            .iter()
            .map(ToString::to_string)
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(keys(&json), set(&["game", "agents", "games"]));
    assert_eq!(json["game"], "mnk");
    for agent in json["agents"].as_array().unwrap() {
        // The pair statistics (docs/UGI.md, "Pair statistics") beside the game counts.
        let expected = [
            "spec",
            "wins",
            "draws",
            "losses",
            "score",
            "elo",
            "elo_ci95",
            "pentanomial",
            "penta_elo",
            "penta_elo_ci95",
            "nelo",
            "nelo_ci95",
            "los",
        ];
        assert_eq!(keys(agent), set(&expected));
        assert!(agent["wins"].is_u64() && agent["score"].is_number());
    }
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for game in games {
        assert_eq!(keys(game), set(&["seats", "result", "plies", "reason"]));
        assert_eq!(game["seats"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let specs = ["ai:mcts:iterations=40", "ai:2", "ai:4:depth=2"];
    let mut one = config::<Mnk>(&specs, 4);
    one.threads = 1;
    let mut two = one.clone();
    two.threads = 2;
    let (a, b) = (run(&one), run(&two));
    assert_eq!(a, b);
    assert_eq!(a.games.len(), 12, "three pairs of four games");
    check_totals(&a);
    for agent in &a.agents {
        assert_eq!(agent.wins + agent.draws + agent.losses, 8);
    }
}

#[test]
fn three_seat_games_rotate_the_pair() {
    let report = run(&config::<PartyNim>(&["ai:4:depth=4", "ai:1"], 6));
    check_totals(&report);
    assert_eq!(report.games[0].seats.len(), 3);
    assert_eq!(report.games[0].seats[0], report.games[0].seats[2]);
    assert_eq!(report.games[1].seats[0], report.games[0].seats[1]);
    for game in &report.games {
        assert_eq!(game.result.matches('1').count(), 1, "{}", game.result);
    }
}

#[test]
fn saved_games_replay() {
    // Removed when the test ends, also when it fails.
    let dir = tempfile::TempDir::with_prefix("ludus-arena-").unwrap();
    let mut config = config::<Nim>(&["ai:2", "ai:3"], 3);
    config.save_dir = Some(dir.path().to_path_buf());
    let report = run(&config);
    for (i, game) in report.games.iter().enumerate() {
        let path = dir.path().join(format!("nim-{:04}.json", i + 1));
        let record = GameRecord::load(&path).unwrap();
        assert_eq!(record.players[0].kind, game.seats[0]);
        let session = Session::<Nim>::from_record(&record).unwrap();
        assert_eq!(session.entries().len() as u64, game.plies);
    }
}

#[test]
fn bad_configs_are_refused() {
    let lonely = config::<Nim>(&["ai:1"], 2);
    assert!(matches!(
        run_arena(&lonely, |_, _| {}),
        Err(ArenaError::TooFewAgents(1))
    ));
    let bad = config::<Nim>(&["ai:1", "ai:4:speed=9"], 2);
    assert!(matches!(
        run_arena(&bad, |_, _| {}),
        Err(ArenaError::Agent(_))
    ));
}
