//! `ludus arena --tc BASE+INC`: every seat has a clock. A slow outside engine is given the
//! clocks and loses on time; a built-in player's budget for each decision, saved in the
//! games file with the clock it came from, follows the rule `ludus ugi` uses; `--movetime`
//! binds built-in players whose spec sets no time.

use std::path::Path;

use serde_json::Value;

mod support;
use support::{ludus, temp_dir};

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// The JSON report of `ludus arena ARGS --json`, which must succeed.
fn arena(args: &[&str]) -> Value {
    let output = ludus(&[&["arena"], args, &["--json"]].concat());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {err}");
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// The `decisions` notes of saved game `i` (from 1).
fn notes(dir: &Path, i: usize) -> Vec<Value> {
    let path = dir.join(format!("qawale-{i:04}.json"));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    record["decisions"].as_array().expect("decisions").clone()
}

fn slow_engine(ms: u64) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/random_ugi.py");
    format!("slow=python3 {} {LUDUS} qawale slow:{ms}", script.display())
}

#[test]
fn a_slow_engine_given_the_clocks_loses_on_time() {
    let dir = temp_dir("clock", "slow");
    let engine = slow_engine(400);
    let dir_text = dir.path().to_str().unwrap();
    let report = arena(&[
        "qawale",
        "--ai",
        "ai:1",
        "--engine",
        &engine,
        "--tc",
        "2+0",
        "--margin",
        "100",
        "--games",
        "2",
        "--save-games",
        dir_text,
    ]);
    for (i, game) in report["games"].as_array().unwrap().iter().enumerate() {
        let reason = game["reason"].as_str().unwrap();
        // 2000 ms and a 100 ms margin cannot hold six decisions of 400 ms: whatever the
        // machine's speed, the engine loses on time by its sixth decision (and a busy
        // machine's slow start of a decision does not cost it the first).
        assert!(reason.starts_with("slow lost on time: "), "{reason}");
        assert!(reason.ends_with("on its clock (margin 100 ms)"), "{reason}");
        let seats = game["seats"].as_array().unwrap();
        let seat = 1 + seats.iter().position(|s| s == "slow").unwrap();
        assert_eq!(
            game["result"],
            if seat == 1 { "0-1" } else { "1-0" },
            "{game}"
        );
        let engine_notes: Vec<Value> = notes(dir.path(), i + 1)
            .into_iter()
            .filter(|n| n["seat"] == seat)
            .collect();
        // The clock before its first decision, and the score of its `info` line.
        assert!((1..=5).contains(&engine_notes.len()), "{engine_notes:?}");
        assert_eq!(engine_notes[0]["clock_ms"], 2000);
        assert_eq!(engine_notes[0]["score"], "cp 7");
    }
}

#[test]
fn a_built_in_player_budgets_each_decision_from_its_clock() {
    let dir = temp_dir("clock", "budget");
    let dir_text = dir.path().to_str().unwrap();
    arena(&[
        "qawale",
        "--ai",
        "ai:alphabeta:depth=2",
        "--ai",
        "ai:1",
        "--tc",
        "10+0.1",
        "--games",
        "2",
        "--save-games",
        dir_text,
    ]);
    let mut budgets = 0;
    for i in 1..=2 {
        let notes = notes(dir.path(), i);
        // Game 1 seats the alpha-beta player first, game 2 second.
        let searcher = i;
        for note in notes.iter().filter(|n| n["seat"] == searcher) {
            let clock = note["clock_ms"].as_u64().unwrap();
            // The share `ludus ugi` gives `go wtime`: a 20th plus ¾ of the increment, at
            // most half the clock.
            assert_eq!(
                note["budget_ms"],
                (clock / 20 + 75).min(clock / 2),
                "{note}"
            );
            budgets += 1;
        }
        let first = notes.iter().find(|n| n["seat"] == searcher).unwrap();
        assert_eq!(first["budget_ms"], 575, "{first}");
        // The random player has a clock but no budget to set.
        let other = notes.iter().find(|n| n["seat"] != searcher).unwrap();
        assert!(other["clock_ms"].is_u64() && other.get("budget_ms").is_none());
    }
    assert!(budgets >= 4, "{budgets}");
}

#[test]
fn movetime_binds_built_in_players_unless_their_spec_sets_a_time() {
    let dir = temp_dir("clock", "movetime");
    let dir_text = dir.path().to_str().unwrap();
    arena(&[
        "qawale",
        "--ai",
        "ai:alphabeta:depth=2",
        "--ai",
        "ai:alphabeta:depth=2,time=0.5",
        "--movetime",
        "30",
        "--games",
        "1",
        "--save-games",
        dir_text,
    ]);
    let notes = notes(dir.path(), 1);
    let budget =
        |seat: usize| notes.iter().find(|n| n["seat"] == seat).unwrap()["budget_ms"].clone();
    assert_eq!(budget(1), 30);
    assert_eq!(budget(2), 500);
    let both = ludus(&[
        "arena",
        "qawale",
        "--ai",
        "ai:1",
        "--ai",
        "ai:1",
        "--tc",
        "1+0",
        "--movetime",
        "5",
    ]);
    assert!(!both.status.success());
    let bad = ludus(&[
        "arena", "qawale", "--ai", "ai:1", "--ai", "ai:1", "--tc", "ten",
    ]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("bad time control 'ten': expected BASE+INC"),
        "{err}"
    );
}

/// The number of records in `dir`.
fn saved(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn resume_plays_only_the_games_the_interrupted_run_lacks() {
    let dir = temp_dir("clock", "resume");
    let file = dir.path().join("run.jsonl");
    let tournament = [
        "qawale",
        "--ai",
        "ai:4:depth=1",
        "--ai",
        "ai:1",
        "--games",
        "6",
    ];
    let whole = arena(&[&tournament[..], &["--out", file.to_str().unwrap()]].concat());
    // Interrupted after two games, in the middle of writing the third.
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let third = &lines[3][..lines[3].len() / 2];
    std::fs::write(
        &file,
        format!("{}\n{}\n{}\n{third}", lines[0], lines[1], lines[2]),
    )
    .unwrap();
    let records = dir.path().join("records");
    let resume = [
        "--resume",
        file.to_str().unwrap(),
        "--save-games",
        records.to_str().unwrap(),
    ];
    let resumed = arena(&[&tournament[..], &resume].concat());
    assert_eq!(resumed, whole);
    // Only the four missing games were played, and the file holds all six again.
    assert_eq!(saved(&records), 4);
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 7);
    // Another tournament's file is refused, and left as it was.
    let other = ludus(&[&["arena"], &tournament[..], &["--seed", "3"], &resume].concat());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("another tournament"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 7);
}
