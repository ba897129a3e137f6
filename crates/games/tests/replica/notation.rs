//! Notation of moves and turns (§6), position strings (§1), and text that must never
//! panic.

use super::*;
use ludus_engine::{Notation, Rules};

// §6 — every notation form, and errors for bad text.
#[test]
fn notation_forms_and_errors() {
    let r2 = at("7B/8/2b5/2w5/2w5/2w5/8/W7 w", Sight::Forward3);
    let capture = ReplicaAction::Advance {
        from: "c3".parse().unwrap(),
        to: "c6".parse().unwrap(),
    };
    for text in ["c3xc6", "c3-c6", "C3XC6", " c3 x c6 ", "C3|"] {
        assert_eq!(r2.parse_action(text), Ok(capture), "{text}");
    }
    let diagonal = r2.parse_action("C3/").unwrap();
    assert_eq!(r2.format_action(diagonal), "c3-d4");
    assert_eq!(r2.parse_action("c3xd4"), Ok(diagonal));
    assert_eq!(r2.format_action(r2.parse_action("C3-").unwrap()), "c3-d3");
    assert_eq!(r2.parse_action("c3x"), r2.parse_action("c3*"));
    assert_eq!(r2.seed_notation(capture), "C3|");
    assert_eq!(r2.seed_notation(diagonal), "C3/");
    assert_eq!(
        r2.seed_notation(ReplicaAction::Transform("c3".parse().unwrap())),
        "C3x"
    );

    let err = r2.parse_action("c3-c5").unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move 'c3-c5': the piece on c3 cannot land on c5: it reaches c6, d3, d4"
    );
    let err = r2.parse_action("d3-d4").unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move 'd3-d4': no White piece on d3"
    );
    let err = r2.parse_action("a1*").unwrap_err();
    assert_eq!(err.to_string(), "illegal move 'a1*': a1 is already a king");
    assert!(matches!(
        r2.parse_action("c6-c5"),
        Err(MoveError::Illegal { .. })
    ));
    for bad in [
        "", "c3", "c3d4", "c3+", "i3-d4", "c3-d9", "c3=d4", "c3-d4-e5", "★", "c3→d4",
    ] {
        let err = r2.parse_action(bad).unwrap_err();
        assert!(matches!(err, MoveError::Syntax { .. }), "{bad}: {err}");
    }
    let err = r2.parse_action("c3d4").unwrap_err();
    assert!(err
        .to_string()
        .starts_with("bad move 'c3d4': expected a move like c3-d4"));

    // A finished game refuses everything.
    let won = play(&at("7B/6w1/8/8/8/8/8/W7 w", Sight::Forward3), "g7xh8");
    assert!(matches!(
        won.parse_action("a1-a2"),
        Err(MoveError::GameOver(_))
    ));
}

// §6 — a record-style line of moves plays through parse_turn, one word per decision.
#[test]
fn turns_are_single_decisions() {
    let start = Replica::new(&ReplicaOptions::default(), 0);
    // §6's record example `1. b4-c5 g5-f4 2. a1* ...` cannot be played as written (a1 is
    // White's king), so a transform of b1 stands in for it.
    assert!(start.parse_turn("b4-c5 g5-f4 a1*").is_err());
    let actions = start.parse_turn("b4-c5 g5-f4 b1*").unwrap();
    assert_eq!(actions.len(), 3);
    assert_eq!(start.format_turn(&actions), "b4-c5 g5-f4 b1*");
    let mut state = start.clone();
    for a in actions {
        state.apply(a);
    }
    assert_eq!(state.turn(), 3);
    assert!(start.parse_turn("b4-c5 b4-c5").is_err());
}

// §1 — position strings: round trip, alternatives accepted, errors for bad ones.
#[test]
fn position_strings_round_trip_and_refuse_bad_input() {
    let state = at("7B/8/2b5/2w5/2w5/2w5/8/W7 w", Sight::Forward3);
    assert_eq!(state.position(), "7B/8/2b5/2w5/2w5/2w5/8/W7 w");
    let dotted = at(".......B/8/2b5/2w5/2w5/2w5/8/W7  W", Sight::Forward3);
    assert_eq!(dotted.position(), state.position());
    assert_eq!(dotted.key(), state.key());
    assert_eq!(
        at("44/8/8/8/8/8/8/W6B b", Sight::All8).position(),
        "8/8/8/8/8/8/8/W6B b"
    );

    let cases = [
        ("", "expected 8 ranks"),
        ("7B/8/8/8/8/8/8/W7", "expected 8 ranks"),
        ("7B/8/8/8/8/8/8/W7 w extra", "expected 8 ranks"),
        ("7B/8/8/8/8/8/W7 w", "found 7 ranks"),
        ("7B/8/8/8/8/8/8/8/W7 w", "found 9 ranks"),
        ("7B/8/8/8/8/8/8/W7 x", "side to move 'x'"),
        ("7B/8/8/8/8/8/8/W8 w", "rank 1 is longer than 8 squares"),
        ("7B/8/8/8/8/8/7/W7 w", "rank 2 has 7 squares"),
        ("7B/8/8/8/8/8/8/W6k w", "unexpected 'k' in rank 1"),
        ("7B/8/8/8/8/8/8/W06 w", "unexpected '0' in rank 1"),
        ("7B/8/8/8/8/8/8/W9 w", "unexpected '9' in rank 1"),
        ("7B/8/8/8/8/8/8/W♔6 w", "unexpected '♔' in rank 1"),
        ("7B/8/8/8/8/wwwwwww1/wwwwwww1/W7 w", "White has 15 pieces"),
        ("8/8/8/8/8/8/8/W7 w", "Black acted last but has no king"),
        (
            "7W/8/8/8/8/8/8/B7 w",
            "White is to move but already has a king on h8",
        ),
    ];
    for (text, message) in cases {
        let err = Replica::from_position(text, &ReplicaOptions::default()).unwrap_err();
        assert!(err.to_string().contains(message), "{text}: {err}");
    }
}

// No panic on any text: random strings over the notation's alphabet.
#[test]
fn random_text_never_panics() {
    use rand::RngExt;
    let alphabet: Vec<char> = "abhiABH0189wWbB.-x*|/ /é".chars().collect();
    let mut rng = SmallRng::seed_from_u64(11);
    let start = Replica::new(&ReplicaOptions::default(), 0);
    for _ in 0..20_000 {
        let len = rng.random_range(0..12);
        let text: String = (0..len)
            .map(|_| *alphabet.choose(&mut rng).unwrap())
            .collect();
        if let Ok(action) = start.parse_action(&text) {
            assert!(start.is_legal(action), "{text}");
        }
        let _ = start.parse_turn(&text);
        let board = format!("{text}/8/8/8/8/8/8/W6B w");
        if let Ok(state) = Replica::from_position(&board, &ReplicaOptions::default()) {
            assert_eq!(at(&state.position(), Sight::Forward3).key(), state.key());
        }
    }
}
