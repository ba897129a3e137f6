//! The line mode of `ludus play` as a person (or a script) meets it: a bad byte on one line
//! does not end the game, undo and redo are inverses, a lone decision gets an answer, the
//! output ends with a newline, the default computer is the app's level 3, and the plain board
//! numbers seats only where the pieces' letters are shared by both sides.

use std::process::{Command, Stdio};

mod support;
use support::Spawned;

/// Runs `ludus play ARGS --plain` with `input` on stdin; gives stdout.
fn play(args: &[&str], input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("play")
        .args(args)
        .arg("--plain")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Spawned)
        .expect("the binary runs");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// A path named `name` in a fresh folder, and the folder's guard: the folder goes when the
/// guard drops (also when the test fails), so the test keeps it to its end.
fn temp_file(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::TempDir::with_prefix("ludus-line-").unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on_and_is_saved() {
    let (_dir, path) = temp_file("bytes.json");
    let text = play(
        &["qawale", "--p2", "human", "--save", path.to_str().unwrap()],
        b"a1:NEN\n\xff\xfe\nd1:NNW\n",
    );
    assert!(text.contains("that line is not UTF-8 text"), "{text}");
    assert!(text.contains("2. Light plays d1:NNW"), "{text}");
    let record = std::fs::read_to_string(&path).unwrap();
    assert!(record.contains("\"d1:NNW\""), "{record}");
}

#[test]
fn undo_and_redo_are_inverses_against_a_computer() {
    let text = play(
        &["qawale", "--p2", "ai:1", "--seed", "4"],
        b"a1:NEN\nposition\nundo\nposition\nredo\nposition\nquit\n",
    );
    let positions: Vec<&str> = text
        .split("> ")
        .filter(|chunk| chunk.contains(" D\n") && chunk.starts_with(|c: char| c != ' '))
        .map(|chunk| chunk.lines().next().unwrap())
        .filter(|line| line.contains('/'))
        .collect();
    assert_eq!(positions.len(), 3, "{text}");
    assert_ne!(positions[0], positions[1], "undo takes back both turns");
    assert_eq!(positions[0], positions[2], "redo brings both back: {text}");
}

#[test]
fn a_lone_decision_says_the_turn_goes_on() {
    let text = play(&["qawale", "--p2", "human"], b"a1\nN\nquit\n");
    assert!(
        text.contains("a1 so far; the turn goes on: N E\n"),
        "{text}"
    );
    assert!(text.contains("a1:N so far; the turn goes on: "), "{text}");
}

#[test]
fn the_output_ends_with_a_newline() {
    let text = play(&["replica", "--p2", "human"], b"quit\n");
    assert!(text.ends_with("left the game unfinished\n"), "{text:?}");
}

#[test]
fn the_default_computer_is_level_3_as_in_the_app() {
    let (_dir, path) = temp_file("default.json");
    play(
        &["replica", "--save", path.to_str().unwrap()],
        b"b2-c3\nresign\n",
    );
    let record = std::fs::read_to_string(&path).unwrap();
    assert!(record.contains("\"kind\": \"ai:minimax\""), "{record}");
}

#[test]
fn qawale_letters_say_whose_stone_it_is_so_no_seat_numbers() {
    let qawale = play(
        &[
            "qawale",
            "--p1",
            "human",
            "--p2",
            "human",
            "--position",
            "NN,-,-,NN/-,D,L,-/N,-,N,-/-,-,-,NN D",
        ],
        b"quit\n",
    );
    assert!(qawale.contains("3  . D L .  3"), "{qawale}");
    assert!(!qawale.contains("seat numbers"), "{qawale}");
}

#[test]
fn yoxii_pieces_carry_the_seat_on_the_board_but_not_in_the_hands() {
    // Both sides hold values 1-4, so the board pieces carry the seat, the hands (named lines)
    // do not, and the value is not written twice.
    let yoxii = play(
        &[
            "yoxii",
            "--p1",
            "human",
            "--p2",
            "human",
            "--position",
            ".../...../...#.../...Y.../......./...../... r",
        ],
        b"quit\n",
    );
    assert!(yoxii.contains("31"), "{yoxii}");
    assert!(
        yoxii.contains("seat numbers: 1 = White, 2 = Red"),
        "{yoxii}"
    );
    assert!(yoxii.contains("White in hand: 1×5 2×5 3×4 4×3"), "{yoxii}");
}
