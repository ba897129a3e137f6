//! `ludus arena --adjudicate-draw / --adjudicate-resign`: games end early when the players'
//! own scores agree, with the reason in the report and the saved record, and the scores that
//! ended them in the record's notes. Fixed-depth players keep the games the same on any
//! machine.

use std::path::Path;

use serde_json::Value;

mod support;
use support::{ludus, temp_dir};

const GAME: &str = "qilin";

/// Plays two games of fixed-depth players with `rule`, saved in `dir`; the JSON report.
fn arena(dir: &Path, rule: &[&str]) -> Value {
    let base = [
        GAME,
        "--ai",
        "ai:4:depth=3",
        "--ai",
        "ai:4:depth=1",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
        "--save-games",
        dir.to_str().unwrap(),
    ];
    let output = ludus(&[&["arena"], &base[..], rule].concat());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{rule:?}: {err}");
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Saved game `i` (from 1).
fn record(dir: &Path, i: usize) -> Value {
    let path = dir.join(format!("{GAME}-{i:04}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A note's score as a number for the seat that decided (mates beyond every bound).
fn score(note: &Value) -> Option<i64> {
    let text = note["score"].as_str()?;
    let words: Vec<&str> = text.split_whitespace().collect();
    match words[..] {
        ["cp", cp] => cp.parse().ok(),
        ["mate", n] => Some(if n.starts_with('-') {
            -1_000_000
        } else {
            1_000_000
        }),
        _ => None,
    }
}

/// The last `count` notes of seat `seat` (from 1).
fn last_of(notes: &[Value], seat: u64, count: usize) -> Vec<Value> {
    let mine: Vec<Value> = notes
        .iter()
        .filter(|n| n["seat"] == seat)
        .cloned()
        .collect();
    mine[mine.len().saturating_sub(count)..].to_vec()
}

#[test]
fn a_game_both_players_score_as_lost_is_adjudicated_to_the_winner() {
    let dir = temp_dir("adjudge", "resign");
    let report = arena(
        dir.path(),
        &["--adjudicate-resign", "movecount=3,score=400"],
    );
    let games = report["games"].as_array().unwrap();
    let mut adjudicated = 0;
    for (i, game) in games.iter().enumerate() {
        let reason = game["reason"].as_str().unwrap();
        let saved = record(dir.path(), i + 1);
        assert_eq!(saved["result"]["reason"], reason, "{saved}");
        if !reason.starts_with("adjudicated:") {
            continue;
        }
        adjudicated += 1;
        let winner = if game["result"] == "1-0" { 1 } else { 2 };
        assert!(reason.contains(&format!("for seat {winner}")), "{reason}");
        let notes = saved["decisions"].as_array().unwrap();
        for note in last_of(notes, winner, 3) {
            assert!(score(&note).is_some_and(|s| s >= 400), "{note}");
        }
        for note in last_of(notes, 3 - winner, 3) {
            assert!(score(&note).is_some_and(|s| s <= -400), "{note}");
        }
    }
    // Depth 3 against depth 1 wins material long before the last piece falls.
    assert!(adjudicated > 0, "no game was adjudicated: {report}");
}

#[test]
fn a_level_game_is_adjudicated_a_draw_after_its_move_number() {
    let dir = temp_dir("adjudge", "draw");
    let report = arena(
        dir.path(),
        &["--adjudicate-draw", "movenumber=6,movecount=2,score=100000"],
    );
    for (i, game) in report["games"].as_array().unwrap().iter().enumerate() {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason.starts_with("adjudicated a draw"), "{reason}");
        assert_eq!(game["result"], "1/2-1/2", "{game}");
        let notes = record(dir.path(), i + 1)["decisions"]
            .as_array()
            .unwrap()
            .clone();
        assert!(notes.len() >= 6, "ended before decision 6: {notes:?}");
        for seat in [1, 2] {
            for note in last_of(&notes, seat, 2) {
                assert!(score(&note).is_some_and(|s| s.abs() <= 100_000), "{note}");
            }
        }
    }
}

#[test]
fn without_the_rules_no_game_is_adjudicated() {
    let dir = temp_dir("adjudge", "off");
    let report = arena(dir.path(), &[]);
    for game in report["games"].as_array().unwrap() {
        assert!(
            !game["reason"].as_str().unwrap().contains("adjudicated"),
            "{game}"
        );
    }
}

#[test]
fn bad_rules_are_refused_in_one_line() {
    for (args, says) in [
        (
            vec![GAME, "--adjudicate-resign", "movecount=0,score=5"],
            "--adjudicate-resign '",
        ),
        (
            vec![GAME, "--adjudicate-draw", "movecount=2"],
            "score must be a whole number",
        ),
        (
            vec![
                "splut",
                "-o",
                "players=3",
                "--adjudicate-resign",
                "movecount=2,score=5",
            ],
            "needs a game of two seats; this one has 3",
        ),
    ] {
        let output = ludus(&[&["arena"], &args[..], &["--ai", "ai:1", "--ai", "ai:1"]].concat());
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
