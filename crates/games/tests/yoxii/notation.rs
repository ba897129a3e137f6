//! Decision and turn notation and position strings (§6), and edited text that must never
//! panic.

use super::*;
use ludus_engine::{Notation, Rules};

// §6: the notation of decisions and turns.
#[test]
fn notation_reads_seed_letters_commas_and_round_trips() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    let turn = start.parse_turn("d5 3@d4").unwrap();
    assert_eq!(
        turn,
        [
            YoxiiAction::Totem(sq("d5")),
            YoxiiAction::Place {
                value: 3,
                square: sq("d4")
            }
        ]
    );
    assert_eq!(start.format_turn(&turn), "d5 3@d4");
    for text in ["d5,3@d4", "d5 Y@d4", "d5, y@d4", " D5  Y@D4 "] {
        assert_eq!(start.parse_turn(text).unwrap(), turn, "{text}");
    }
    let moved = after(&start, "d5");
    for (letter, value) in [("O", 1), ("t", 2), ("Y", 3), ("x", 4), ("4", 4)] {
        let action = moved.parse_action(&format!("{letter}@c6")).unwrap();
        assert_eq!(
            action,
            YoxiiAction::Place {
                value,
                square: sq("c6")
            }
        );
        assert_eq!(moved.format_action(action), format!("{value}@c6"));
    }
    // An unfinished turn parses and formats too.
    assert_eq!(start.parse_turn("d5").unwrap().len(), 1);
}

#[test]
fn bad_notation_is_an_error_not_a_panic() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    let moved = after(&start, "d5");
    let syntax = |state: &Yoxii, text: &str| {
        let err = state.parse_action(text).unwrap_err();
        assert!(matches!(err, MoveError::Syntax { .. }), "{text}: {err}");
        err.to_string()
    };
    let illegal = |state: &Yoxii, text: &str| {
        let err = state.parse_action(text).unwrap_err();
        assert!(matches!(err, MoveError::Illegal { .. }), "{text}: {err}");
        err.to_string()
    };
    for text in [
        "", "h4", "d0", "d44", "5@d4", "@d4", "3@", "3@z9", "Q@d4", "d5 3@d4", "é@d4",
    ] {
        syntax(&start, text);
        syntax(&moved, text);
    }
    assert!(syntax(&start, "xx").contains("expected a totem destination like d5"));
    assert!(syntax(&moved, "Z@d4").contains("a value 1-4 or O/T/Y/X"));
    assert!(illegal(&start, "a1").contains("a1 is off the board"));
    assert!(illegal(&start, "d4").contains("the totem cannot go to d4"));
    assert!(illegal(&start, "d6").contains("the totem cannot go to d6"));
    assert!(illegal(&start, "3@d4").contains("must move the totem first"));
    assert!(illegal(&moved, "e5").contains("must place a piece"));
    assert!(illegal(&moved, "3@d5").contains("d5 is not empty"));
    assert!(illegal(&moved, "3@d2").contains("d2 is not next to the totem on d5"));
    assert!(illegal(&moved, "3@g7").contains("off the board"));
    // Out of a value: three 4s, then none.
    let mut state = start.clone();
    for turn in [
        "d5 4@d4", "e5 4@e4", "d6 4@d5", "e6 1@e5", "d7 4@d6", "e7 1@e6",
    ] {
        state = after(&state, turn);
    }
    let moved = after(&state, "d7");
    assert!(illegal(&moved, "X@e7").contains("White has no piece of value 4 left"));
    assert!(moved.is_legal(moved.parse_action("3@e7").unwrap()));
    // Errors in a turn name the decision.
    let err = start.parse_turn("d5 9@d4").unwrap_err();
    assert!(err.to_string().contains("decision 2"), "{err}");
    assert!(start.parse_turn("  ,  ").is_err());
    // A finished game refuses everything.
    let over = at(".../y.y.T/..OXt.T/.oO#t.O/..tTt.O/..y../... w");
    assert!(matches!(
        over.parse_action("d5"),
        Err(MoveError::GameOver(_))
    ));
}

/// Asserts that the position string `text` is refused with a message containing `needle`.
fn bad(text: &str, needle: &str) {
    let err = Yoxii::from_position(text, &YoxiiOptions::default())
        .err()
        .unwrap_or_else(|| panic!("accepted '{text}'"));
    assert!(err.to_string().contains(needle), "'{text}': {err}");
}

// §6: every validation of position strings.
#[test]
fn bad_position_strings_are_refused_with_a_reason() {
    bad("", "expected 7 ranks");
    bad(
        ".../...../......./...#.../......./...../...",
        "expected 7 ranks",
    );
    bad(
        ".../...../......./...#.../......./... w",
        "expected 7 ranks separated by '/', found 6",
    );
    bad(
        ".../...../......./...#.../......./...../....  w",
        "rank 1 has 4 squares, expected 3",
    );
    bad(
        "../...../......./...#.../......./...../... w",
        "rank 7 has 2 squares",
    );
    bad(
        ".../...../......./...#.../......./...../..Z w",
        "unexpected 'Z' on rank 1",
    );
    bad(
        ".../...../......./...#.../......./...../..é w",
        "unexpected 'é'",
    );
    bad(
        ".../...../......./......./......./...../... w",
        "exactly one totem '#', found 0",
    );
    bad(
        ".../...../......./...#.../......./...../#.. w",
        "exactly one totem '#', found 2",
    );
    bad(START.trim_end_matches('w'), "expected 7 ranks");
    bad(&START.replace(" w", " b"), "bad side to move 'b'");
    bad(&format!("{START} later"), "unexpected 'later'");
    bad(&format!("{START} place extra"), "expected 7 ranks");
}

// §6: the pieces on the board must agree with the hands and the side to move.
#[test]
fn position_strings_with_impossible_piece_counts_are_refused() {
    bad(
        "XXX/X..../......./...#.../......./...../xxx r",
        "White has 4 pieces of value 4 on the board, at most 3",
    );
    bad(
        "OOO/OOO../......./...#.../......./...../ooo w",
        "White has 6 pieces of value 1",
    );
    bad(
        ".../...../......./...#.../......./...../... r",
        "with White first and Red to move, White must have one piece more than Red on the board (White 0, Red 0)",
    );
    bad(
        ".../...../......./...#O../......./...../... w",
        "White must have as many pieces as Red",
    );
    bad(
        ".../...../......./...#o../......./...../... r",
        "White must have one piece more than Red",
    );
}

// §6: the counts depend on who starts; a pending placement needs an empty square.
#[test]
fn bad_position_strings_for_other_options_or_a_pending_placement_are_refused() {
    let err = Yoxii::from_position(
        ".../...../......./...#.../......./...../... w",
        &options(&["first_player=red"]),
    )
    .err()
    .unwrap();
    assert!(
        err.to_string()
            .contains("with Red first (first_player=red) and White to move, Red must have one piece more than White"),
        "{err}"
    );
    // A full board with a pending placement has nowhere to put the piece.
    let full = "OOO/OOTTT/TTYYYYY/XXX#ooo/oottttt/yyyyy/xxx w place";
    let err = Yoxii::from_position(full, &YoxiiOptions::default())
        .err()
        .unwrap();
    assert!(err.to_string().contains("no square is empty"), "{err}");
}

// No panic on any text: every one-character edit of valid strings and moves.
#[test]
fn edited_text_never_panics() {
    let positions = [
        START,
        ".../..T../...O.../o..#..o/......./...../... w",
        "O.o/.tTt./...O.../...#.../......./...../... w place",
    ];
    let replacements = ['.', '#', 'O', 'x', 'w', 'r', '/', ' ', '9', 'é', '@', ','];
    for text in positions.iter().copied().chain(["d5 3@d4", "d5,Y@d4"]) {
        let chars: Vec<char> = text.chars().collect();
        for i in 0..=chars.len() {
            for &c in &replacements {
                for edit in [0, 1, 2] {
                    let mut edited = chars.clone();
                    match edit {
                        0 if i < edited.len() => edited[i] = c,
                        1 => edited.insert(i, c),
                        _ if i < edited.len() => {
                            edited.remove(i);
                        }
                        _ => continue,
                    }
                    let edited: String = edited.into_iter().collect();
                    if let Ok(state) = Yoxii::from_position(&edited, &YoxiiOptions::default()) {
                        assert_eq!(at(&state.position()).key(), state.key(), "{edited}");
                    }
                    let start = Yoxii::new(&YoxiiOptions::default(), 0);
                    let _ = start.parse_turn(&edited);
                    let _ = after(&start, "d5").parse_action(&edited);
                }
            }
        }
    }
}
