//! Decisions, turn notation and position strings (spec §6).

use super::*;
use ludus_engine::{Notation, Presentation, Rules};

// ---- Decisions and notation (§6) --------------------------------------------------------

#[test]
fn decisions_stack_then_steps() {
    let mut state = pos(START);
    let mut actions = Vec::new();
    state.apply(state.parse_action("A1").unwrap());
    assert_eq!(state.position(), format!("{START} a1"));
    state.legal_actions(&mut actions);
    assert_eq!(
        actions,
        [QawaleAction::Step(Dir::N), QawaleAction::Step(Dir::E)]
    );
    // A step as a letter (either case) or as the square it drops on.
    assert_eq!(state.parse_action("n"), Ok(QawaleAction::Step(Dir::N)));
    assert_eq!(state.parse_action("a2"), Ok(QawaleAction::Step(Dir::N)));
    assert_eq!(state.parse_action("b1"), Ok(QawaleAction::Step(Dir::E)));
    state.apply(QawaleAction::Step(Dir::N));
    state.legal_actions(&mut actions);
    // From a2 after going north: N or E, never S back to a1.
    assert_eq!(
        actions,
        [QawaleAction::Step(Dir::N), QawaleAction::Step(Dir::E)]
    );
    let err = state.parse_action("S").unwrap_err();
    assert!(err.to_string().contains("straight back"), "{err}");
    let err = state.parse_action("a1").unwrap_err();
    assert!(err.to_string().contains("straight back"), "{err}");
    let err = state.parse_action("W").unwrap_err();
    assert!(err.to_string().contains("leaves the board"), "{err}");
    let err = state.parse_action("c3").unwrap_err();
    assert!(err.to_string().contains("not next to a2"), "{err}");
    assert_eq!(state.turn(), 0);
    state.apply(QawaleAction::Step(Dir::E));
    assert_eq!(
        state.view().status,
        "Dark sows 3 stones from a1: 1 left (D), at b2"
    );
    state.apply(QawaleAction::Step(Dir::N));
    assert_eq!(state.turn(), 1);
    assert_eq!(state.to_move(), Some(LIGHT));
    let err = state.parse_action("N").unwrap_err();
    assert!(err.to_string().contains("choose a stack first"), "{err}");
    let err = state.parse_action("c1").unwrap_err();
    assert!(err.to_string().contains("c1 is empty"), "{err}");
    for bad in ["", "x", "e5", "a1:N", "NE", "a", "11"] {
        let err = state.parse_action(bad).unwrap_err();
        assert!(matches!(err, MoveError::Syntax { .. }), "{bad}: {err}");
    }
}

#[test]
fn turn_notation_forms() {
    let start = pos(START);
    let canonical = start.parse_turn("a1:NEN").unwrap();
    assert_eq!(canonical.len(), 4);
    for text in [
        "a1 a2 b2 b3",
        "a1-a2-b2-b3",
        "A1:nen",
        "a1 N E N",
        "a1 NEN",
        "a1:NE N",
        "a1 a2 E b3",
    ] {
        assert_eq!(start.parse_turn(text).unwrap(), canonical, "{text}");
    }
    assert_eq!(start.format_turn(&canonical), "a1:NEN");
    assert_eq!(start.format_turn(&canonical[..2]), "a1:N");
    assert_eq!(start.format_turn(&canonical[..1]), "a1");
    assert_eq!(start.parse_turn("a1:").unwrap(), canonical[..1]);
    // A turn continued from a mid-sowing state is a run of directions.
    let mut mid = start.clone();
    mid.apply(canonical[0]);
    mid.apply(canonical[1]);
    assert_eq!(mid.format_turn(&canonical[2..]), "EN");
    assert_eq!(mid.parse_turn("EN").unwrap(), canonical[2..]);
    assert_eq!(mid.parse_turn("b2 b3").unwrap(), canonical[2..]);
    // Two turns in a row.
    let two = start.parse_turn("a1:NEN d1:NNN").unwrap();
    assert_eq!(start.format_turn(&two), "a1:NEN d1:NNN");

    let err = start.parse_turn("a1:NENN").unwrap_err();
    assert!(err.to_string().contains("only 3 stones"), "{err}");
    let err = start.parse_turn("a1:NEX").unwrap_err();
    assert!(err.to_string().contains("N/E/S/W"), "{err}");
    let err = start.parse_turn("b2:NEN").unwrap_err();
    assert!(err.to_string().contains("b2 is empty"), "{err}");
    let err = start.parse_turn("a1 a2 c2").unwrap_err();
    assert!(err.to_string().contains("decision 3"), "{err}");
    let err = mid.parse_turn("a4:SS").unwrap_err();
    assert!(err.to_string().contains("must be finished"), "{err}");
    for bad in ["", "   ", "-", "z9:N", "a1:N:E"] {
        assert!(start.parse_turn(bad).is_err(), "{bad}");
    }
    assert!(start.parse_complete_turn("a1:NEN d1:NNN").is_err());
    assert!(mid.parse_complete_turn("EN").is_err());
}

#[test]
fn sessions_record_whole_turns() {
    let mut session = Session::<Qawale>::new(&QawaleOptions::default(), 0);
    session.play_text("a1:NEN").unwrap();
    session.play_text("a2").unwrap();
    session.play_text("N").unwrap();
    let texts: Vec<_> = session
        .turns()
        .iter()
        .map(|t| (t.text.clone(), t.complete))
        .collect();
    assert_eq!(
        texts,
        [("a1:NEN".to_string(), true), ("a2:N".to_string(), false)]
    );
    let record = session.record();
    let replayed = Session::<Qawale>::from_record(&record).unwrap();
    assert_eq!(replayed.state().position(), session.state().position());
    assert_eq!(replayed.state().key(), session.state().key());
}

// ---- Position strings (§6) --------------------------------------------------------------

#[test]
fn position_strings_round_trip_mid_turn() {
    let start = pos(START);
    let mut state = start.clone();
    for (i, action) in start.parse_turn("a1:NEN").unwrap().into_iter().enumerate() {
        let text = state.position();
        let back = pos(&text);
        assert_eq!(back.position(), text);
        assert_eq!(back.key(), state.key(), "decision {i}");
        assert_eq!(back.turn(), state.turn());
        state.apply(action);
    }
    assert_eq!(
        pos(&format!("{START} a1:NE")).view().status,
        "Dark sows 3 stones from a1: 1 left (D), at b2"
    );
    assert_eq!(
        pos(&format!("{START} a1")).view().status,
        "Dark sows 3 stones from a1 (N N D)",
        "the lifted stones show before the first drop"
    );
    // A sowing that circles back to its origin round-trips too.
    let q3 = "NN,-,-,NN/-,-,-,-/-,NDN,-,-/N,-,-,N L";
    let text = format!("{q3} b2:NES");
    let state = pos(&text);
    assert_eq!(state.position(), text);
    assert_eq!(state.sowing_at(), Some(sq("c2")));
    let mut done = state.clone();
    done.apply(QawaleAction::Step(Dir::W));
    assert_eq!(done.position(), "NN,-,-,NN/-,N,D,-/-,L,N,-/N,-,-,N D");
}

#[test]
fn equal_positions_have_equal_keys() {
    let start = pos(START);
    // Turn order changes nothing in the key of the resulting board.
    let a = play(&play(&start, "a1:NNN"), "d4:SSS");
    let b = pos(&a.position());
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), start.key());
    let light = QawaleOptions {
        first_player: FirstPlayer::Light,
        ..QawaleOptions::default()
    };
    assert_ne!(Qawale::new(&light, 0).key(), start.key());
}

/// Bad position strings and a word of the reason each is refused with.
const BAD_POSITIONS: &[(&str, &str)] = &[
    ("", "empty"),
    ("NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN", "side to move"),
    ("NN,-,-,NN/-,-,-,-/NN,-,-,NN D", "expected 4 ranks"),
    (
        "NN,-,-,NN/-,-,-/-,-,-,-,-/NN,-,-,NN D",
        "rank 3 has 3 squares",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,X,-,-/NN,-,-,NN D",
        "bad stack 'X' on b2",
    ),
    ("NN,-,-,NN/-,-,-,-/-,,-,-/NN,-,-,NN D", "bad stack '' on b2"),
    ("NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,N D", "7 neutral stones"),
    ("NN,-,-,NN/-,N,-,-/-,-,-,-/NN,-,-,NN D", "9 neutral stones"),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN X",
        "bad side to move 'X'",
    ),
    ("NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN L", "Light to move"),
    ("NN,-,-,NN/-,D,-,-/-,-,-,-/NN,-,-,NN D", "1 D and 0 L"),
    (
        "NN,DDDDD,-,NN/-,DDDD,-,-/LLLL,LLLLL,-,-/NN,-,-,NN D",
        "9 D and 9 L",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D a1:NE extra",
        "unexpected 'extra'",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D b2:N",
        "b2, which is empty",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D a1:NS",
        "step S is illegal",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D a1:WW",
        "step W is illegal",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D a1:NX",
        "expected directions",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D a1:NEN",
        "complete turn",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D x9",
        "bad pending sowing",
    ),
    (
        "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NNNNNNNNNNNNNNNNNNNNNNNNNNN D",
        "bad stack",
    ),
    (
        "NN,DL,NN,DL/ND,-,LD,NN/D,-,-,-/NDL,DL,DLL,L D a1",
        "after the end of the game",
    ),
];

#[test]
fn bad_position_strings_are_refused() {
    let cases = BAD_POSITIONS;
    for (text, expected) in cases {
        let err = Qawale::from_position(text, &QawaleOptions::default()).unwrap_err();
        assert!(err.to_string().contains(expected), "{text}: {err}");
    }
}

#[test]
fn finished_positions_are_judged_on_reading() {
    // Rank 1 all L, Dark to move: Light's last turn won.
    let won = pos("NN,DL,NN,DL/ND,-,LD,NN/D,-,-,-/NDL,DL,DLL,L D");
    assert_eq!(winner(&won), Some(Verdict::Win(LIGHT)));
    let draw = pos("NN,DL,NN,DLL/ND,-,LD,NNL/D,-,-,-/NDL,DL,DL,- D");
    assert_eq!(winner(&draw), Some(Verdict::Draw));
    assert_eq!(draw.to_move(), None);
}
