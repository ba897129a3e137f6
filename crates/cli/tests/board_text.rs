//! The plain board text a line-mode player reads: seat numbers appear only where the pieces'
//! letters are shared by both sides, and hands are listed under the board.

use std::process::{Command, Stdio};

/// The board `ludus play GAME --position POSITION --plain` prints before its first prompt.
fn board(game: &str, position: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["play", game, "--position", position])
        .args(["--p1", "human", "--p2", "human", "--plain"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"quit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn qawale_letters_say_whose_stone_it_is_so_no_seat_numbers() {
    let qawale = board("qawale", "NN,-,-,NN/-,D,L,-/N,-,N,-/-,-,-,NN D");
    assert!(qawale.contains("3  . D L .  3"), "{qawale}");
    assert!(!qawale.contains("seat numbers"), "{qawale}");
}

#[test]
fn yoxii_pieces_carry_the_seat_on_the_board_but_not_in_the_hands() {
    // Both sides hold values 1-4, so the board pieces carry the seat, the hands (named lines)
    // do not, and the value is not written twice.
    let yoxii = board("yoxii", ".../...../...#.../...Y.../......./...../... r");
    assert!(yoxii.contains("31"), "{yoxii}");
    assert!(
        yoxii.contains("seat numbers: 1 = White, 2 = Red"),
        "{yoxii}"
    );
    assert!(yoxii.contains("White in hand: 1×5 2×5 3×4 4×3"), "{yoxii}");
}
