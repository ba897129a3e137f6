//! Text from outside (typed moves, names and moves in records) never reaches the terminal
//! raw: control characters are shown escaped, and a huge token is cut, in errors, `replay`
//! and the line mode.

use std::process::{Command, Output, Stdio};

mod support;
use support::Spawned;

const ESC: char = '\u{1b}';

fn ludus(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Spawned)
        .expect("the binary runs");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn all_text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn an_escape_in_a_typed_move_is_shown_escaped_in_the_error() {
    let output = ludus(
        &["moves", "qawale", "--after", "\u{1b}[2J\u{1b}]0;pwned\u{7}"],
        "",
    );
    let text = all_text(&output);
    assert!(!text.contains(ESC), "{text:?}");
    assert!(text.contains("\\u{1b}[2J"), "{text}");
}

#[test]
fn a_huge_token_is_echoed_once_and_cut() {
    let token = "a".repeat(120_000);
    let output = ludus(&["moves", "qawale", "--after", &token], "");
    let text = all_text(&output);
    assert!(text.len() < 1000, "{} bytes echoed", text.len());
    assert!(text.contains("chars)"), "{text}");
}

#[test]
fn names_from_a_record_are_escaped_in_replay_and_line_mode() {
    // Removed when the test ends, also when it fails.
    let dir = tempfile::TempDir::with_prefix("ludus-hostile-").unwrap();
    let path = dir.path().join("names.json");
    let record = r#"{"format":1,"game":"qawale","options":{},"moves":["a1:NEN"],
        "players":[{"name":"Ann\u001b]0;pwned\u0007","kind":"human"},
                   {"name":"Bob\u001b[2J","kind":"human"}]}"#;
    std::fs::write(&path, record).unwrap();
    let path = path.to_str().unwrap();
    let replay = ludus(&["replay", path], "");
    assert!(replay.status.success(), "{}", all_text(&replay));
    let text = all_text(&replay);
    assert!(!text.contains(ESC), "{text:?}");
    assert!(text.contains("Ann\\u{1b}]0;pwned\\u{7}"), "{text}");
    let play = ludus(
        &["play", "--load", path, "--p2", "human"],
        "history\nbad\u{1b}[2Jmove\nquit\n",
    );
    let text = all_text(&play);
    assert!(!text.contains(ESC), "{text:?}");
    assert!(text.contains("Bob\\u{1b}[2J"), "{text}");
}
