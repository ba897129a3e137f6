//! Qilin Chess XiaSanZi: the worked scenarios Q-1…Q-9 of `shared/rules/qilin.md` §7, the
//! options both ways, edge cases of §3.1, notation and position-string errors, the perft
//! goldens of `data/qilin.perft` and the random-simulation kit.
//!
//! Board (§1), canonical order a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6
//! a7 d7 g7:
//!
//! ```text
//! 7  a7-----------d7-----------g7
//! 6  |  b6--------d6--------f6 |      (+ diagonals a1-b2-c3, g1-f2-e3,
//! 5  |  |  c5-----d5-----e5  |  |        a7-b6-c5, g7-f6-e5)
//! 4  a4-b4-c4            e4-f4-g4
//! 3  |  |  c3-----d3-----e3  |  |
//! 2  |  b2--------d2--------f2 |
//! 1  a1-----------d1-----------g1
//!    a  b  c      d      e  f  g
//! ```

use ludus_engine::{parse_options, perft, MoveError, Notation, Rules, Session, Verdict};
#[path = "qilin/draws.rs"]
mod draws;

use ludus_engine::testkit::{check_perft_data, random_simulation};
use ludus_games::qilin::{Qilin, QilinOptions, Stage, BLACK, RED};

fn options(pairs: &[&str]) -> QilinOptions {
    parse_options("qilin", pairs).expect("valid options")
}

fn game(position: &str) -> Qilin {
    game_with(position, &[])
}

fn game_with(position: &str, pairs: &[&str]) -> Qilin {
    Qilin::from_position(position, &options(pairs)).expect("valid position")
}

fn legal(state: &Qilin) -> Vec<String> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    actions.iter().map(|&a| state.format_action(a)).collect()
}

fn play(state: &mut Qilin, text: &str) {
    for action in state.parse_turn(text).expect("legal turn") {
        state.apply(action);
    }
}

fn winner(state: &Qilin) -> Option<Verdict> {
    state.outcome().map(|o| o.verdict)
}

// §7 Q-1 — the start: an empty board, Red to place.
#[test]
fn q1_start_has_24_placements() {
    let start = Qilin::new(&QilinOptions::default(), 0);
    assert_eq!(start.position(), "........................ place R 18/18 0");
    assert_eq!(legal(&start).len(), 24);
    assert_eq!(start.to_move(), Some(RED));
    assert_eq!(perft(&start, 1), 24);
}

// §7 Q-2 — one placement completes two lines (a1-a4-a7, a7-b6-c5): two presses.
//
// 7  a7*----------d7-----------g7      Red: a1 a4 c5 b6 (+ a7)
// 6  |  R---------d6--------f6 |       Black: d1 d2 c3 e3
// 5  |  |  R------d5-----e5  |  |
// 4  R--b4-c4            e4-f4-g4
// 3  |  |  B------d3-----B   |  |
// 2  |  b2--------B---------f2 |
// 1  R------------B------------g1
#[test]
fn q2_one_placement_two_presses() {
    let mut state = game("RB..B.B.BR.....R..R..... place R 14/14 0");
    assert_eq!(legal(&state).len(), 16);
    play(&mut state, "a7");
    assert_eq!(state.pending(), 2);
    assert_eq!(state.to_move(), Some(RED));
    assert_eq!(legal(&state), ["xd1", "xd2", "xc3", "xe3"]);
    play(&mut state, "xd1");
    assert_eq!(legal(&state), ["xd2", "xc3", "xe3"]);
    assert_eq!(state.position(), "RP..B.B.BR.....R..R..R.. place R 12/14 1");
    play(&mut state, "xc3");
    assert_eq!(state.position(), "RP..B.P.BR.....R..R..R.. place B 11/14 0");
    assert_eq!(legal(&state).len(), 15);
    assert_eq!(state.turn(), 1);
}

#[test]
fn q2_turn_is_recorded_as_one_line() {
    let start = game("RB..B.B.BR.....R..R..... place R 14/14 0");
    let mut session =
        Session::<Qilin>::from_position(&start.position(), &QilinOptions::default()).unwrap();
    session.play_text("a7 xd1 xc3").unwrap();
    let turns = session.turns();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].text, "a7 xd1 xc3");
    assert!(turns[0].complete);
    // The spec's record line reads back too, and so does each decision on its own.
    assert_eq!(start.parse_turn("13. R a7 xd1 xc3").unwrap().len(), 3);
    let err = start.parse_turn("B a7").unwrap_err();
    assert!(err.to_string().contains("it is Red's turn"), "{err}");
}

// §7 Q-3 — triple press: a1 completes a1-d1-g1, a1-a4-a7 and a1-b2-c3.
//
// Red: d1 g1 b2 c3 a4 a7; Black: d2 f2 d3 e3 b4 g4.
#[test]
fn q3_triple_press() {
    let mut state = game(".RRRBBRBBRB...B......R.. place R 12/12 0");
    play(&mut state, "a1");
    assert_eq!(state.pending(), 3);
    assert_eq!(legal(&state).len(), 6);
    play(&mut state, "xd2");
    assert_eq!(legal(&state).len(), 5);
    play(&mut state, "xf2");
    assert_eq!(legal(&state).len(), 4);
    play(&mut state, "xd3");
    assert_eq!(state.hands().0, [8, 12]);
    assert_eq!(state.to_move(), Some(BLACK));
    assert_eq!(state.pending(), 0);
}

// §7 Q-4 — the transition with no pressed piece (the seed's `firststageend`).
//
// The spec's string `RRBBBRRB.BRBRBRRBRBRR.RB` contradicts its own text (it has 12 Red and 10
// Black pieces, d6 taken and a7 empty, and the wrong hands for 7/7). The text, the hands, the
// result string and Q-5 all agree on `RRBBBRRB.BRBRBRRBRB.RBRB`: 11 Red, 11 Black, e3 and d6
// empty, a7 Black. We test that one and check that the misprint is refused.
const Q4: &str = "RRBBBRRB.BRBRBRRBRB.RBRB place R 7/7 0";

#[test]
fn q4_transition_with_no_pressed_pieces() {
    let mut state = game(Q4);
    assert_eq!(legal(&state), ["e3", "d6"]);
    play(&mut state, "d6");
    assert_eq!((state.pending(), state.to_move()), (0, Some(BLACK)));
    play(&mut state, "e3");
    assert_eq!(state.stage(), Stage::Transition);
    assert_eq!(state.to_move(), Some(RED));
    assert_eq!(legal(&state).len(), 12);
    assert_eq!(
        state.position(),
        "RRBBBRRBBBRBRBRRBRBRRBRB transition R 6/6 1"
    );
    play(&mut state, "xa1");
    assert_eq!(state.to_move(), Some(BLACK));
    assert_eq!(legal(&state).len(), 12);
    play(&mut state, "xa7");
    assert_eq!(state.position(), ".RBBBRRBBBRBRBRRBRBRR.RB move B 6/6 0");
    assert_eq!(legal(&state), ["b2-a1", "a4-a1", "a4-a7", "b6-a7"]);
    // d6, e3, xa1, xa7: four turns, the last three decided in a row by Black after Red's xa1.
    assert_eq!(state.turn(), 4);
}

#[test]
fn q4_the_misprinted_string_is_refused() {
    let err = Qilin::from_position(
        "RRBBBRRB.BRBRBRRBRBRR.RB place R 7/7 0",
        &QilinOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("the hands should be 6/8"), "{err}");
}

#[test]
fn q4_first_player_loses_option() {
    let mut state = game_with(Q4, &["no_press_rule=first_player_loses"]);
    play(&mut state, "d6 e3");
    let outcome = state.outcome().expect("over");
    assert_eq!(outcome.verdict, Verdict::Win(BLACK));
    assert_eq!(outcome.reason, "no line in the placement stage");
    assert!(legal(&state).is_empty());
}

// §7 Q-5 — stage 2 opens with no legal move: Red e3 (line e3-e4-e5) presses g7, Black d6;
// g7 is cleared and its neighbours g4, f6, d7 are all Red.
#[test]
fn q5_stage_two_opens_with_no_legal_move() {
    for rule in [
        "no_press_rule=remove_own",
        "no_press_rule=first_player_loses",
    ] {
        let mut state = game_with(Q4, &[rule]);
        play(&mut state, "e3");
        assert_eq!(state.pending(), 1);
        play(&mut state, "xg7");
        play(&mut state, "d6");
        assert_eq!(state.stage(), Stage::Move);
        let outcome = state.outcome().expect("over");
        assert_eq!(outcome.verdict, Verdict::Win(RED), "{rule}");
        assert_eq!(outcome.reason, "Black has no legal move");
        assert_eq!(state.position(), "RRBBBRRBRBRBRBRRBRBBRBR. move B 5/6 0");
    }
}

// §7 Q-6 — capture ends the game (seed `blackwin`). Red: f2; Black: b2 a4 a7.
#[test]
fn q6_capture_ends_the_game() {
    let mut state = game("...B.R...B...........B.. move B 0/0 0");
    assert_eq!(
        legal(&state),
        ["b2-a1", "b2-d2", "b2-c3", "b2-b4", "a4-a1", "a4-b4", "a7-b6", "a7-d7"]
    );
    for slide in [
        "b2-d2", "b2-c3", "b2-b4", "a4-a1", "a4-b4", "a7-b6", "a7-d7",
    ] {
        let mut other = state.clone();
        play(&mut other, slide);
        assert_eq!(other.to_move(), Some(RED), "{slide} earns nothing");
    }
    play(&mut state, "b2-a1");
    assert_eq!(state.pending(), 1);
    assert_eq!(legal(&state), ["xf2"]);
    play(&mut state, "xf2");
    let outcome = state.outcome().expect("over");
    assert_eq!(outcome.verdict, Verdict::Win(BLACK));
    assert_eq!(outcome.reason, "Red has no pieces left");
    let start = game("...B.R...B...........B.. move B 0/0 0");
    let mut session =
        Session::<Qilin>::from_position(&start.position(), &QilinOptions::default()).unwrap();
    session.play_text("b2-a1 xf2").unwrap();
    assert_eq!(session.turns()[0].text, "b2-a1 xf2");
}

// §7 Q-7 — one slide completes two lines; a piece in a line may be removed.
//
// Red: b2 d1 g1 a4 a7; Black: c3 d3 e3 (a complete line) g4. Red b2-a1 completes a1-d1-g1
// and a1-a4-a7 (a1-b2-c3 is open: b2 was just vacated).
const Q7: &str = ".RRR..BBBR....B......R.. move R 0/0 0";

#[test]
fn q7_one_slide_two_lines() {
    let mut state = game(Q7);
    assert_eq!(legal(&state).len(), 10);
    play(&mut state, "b2-a1");
    assert_eq!(state.pending(), 2);
    assert_eq!(legal(&state), ["xc3", "xd3", "xe3", "xg4"]);
    play(&mut state, "xc3 xg4");
    assert_eq!(state.position(), "RRR....BBR...........R.. move B 0/0 0");
    assert_eq!(legal(&state), ["d3-d2", "d3-c3", "e3-f2", "e3-e4"]);
    assert_eq!(winner(&state), None);
}

#[test]
fn q7_min_pieces_three_ends_the_game() {
    let mut state = game_with(Q7, &["min_pieces=3"]);
    play(&mut state, "b2-a1 xc3 xg4");
    let outcome = state.outcome().expect("over");
    assert_eq!(outcome.verdict, Verdict::Win(RED));
    assert_eq!(outcome.reason, "Black has fewer than 3 pieces");
}

#[test]
fn q7_protect_lines() {
    let mut state = game_with(Q7, &["protect_lines=on"]);
    play(&mut state, "b2-a1");
    assert_eq!(legal(&state), ["xg4"]);
    let err = state.parse_action("xc3").unwrap_err();
    assert!(
        err.to_string().contains("protected by a complete line"),
        "{err}"
    );
    play(&mut state, "xg4");
    assert_eq!(legal(&state), ["xc3", "xd3", "xe3"]);
    play(&mut state, "xc3");
    assert_eq!(state.position(), "RRR....BBR...........R.. move B 0/0 0");
}

// §7 Q-8 — re-forming a line gives a new removal. Red: a1 d1 g1 (complete) c4; Black: d2 f4
// e5 b6.
#[test]
fn q8_reforming_a_line_gives_a_new_removal() {
    let mut state = game("RRR.B......R.B...BB..... move R 0/0 0");
    assert_eq!(
        legal(&state),
        ["a1-b2", "a1-a4", "g1-f2", "g1-g4", "c4-c3", "c4-b4", "c4-c5"]
    );
    play(&mut state, "g1-g4");
    assert_eq!((state.pending(), state.to_move()), (0, Some(BLACK)));
    play(&mut state, "b6-b4");
    play(&mut state, "g4-g1");
    assert_eq!(state.pending(), 1);
    assert_eq!(state.to_move(), Some(RED));
    assert_eq!(legal(&state), ["xd2", "xb4", "xf4", "xe5"]);
}

// §7 Q-9 — repetition draw (our addition). Red: a1; Black: g7.
const Q9: &str = "R......................B move R 0/0 0";
const Q9_CYCLE: [&str; 4] = ["a1-d1", "g7-d7", "d1-a1", "d7-g7"];

#[test]
fn q9_repetition_draw() {
    let mut state = game(Q9);
    for ply in 0..8 {
        assert_eq!(winner(&state), None, "ply {ply}");
        play(&mut state, Q9_CYCLE[ply % 4]);
    }
    let outcome = state.outcome().expect("draw after ply 8");
    assert_eq!(outcome.verdict, Verdict::Draw);
    assert_eq!(outcome.reason, "repetition of the position");
    assert_eq!(state.turn(), 8);
}

#[test]
fn q9_repetition_off() {
    let mut state = game_with(Q9, &["draw_repetition=0"]);
    for ply in 0..40 {
        play(&mut state, Q9_CYCLE[ply % 4]);
    }
    assert_eq!(winner(&state), None);
    // After 100 quiet turns the other draw rule ends it.
    for ply in 40..100 {
        assert_eq!(winner(&state), None, "ply {ply}");
        play(&mut state, Q9_CYCLE[ply % 4]);
    }
    let outcome = state.outcome().expect("draw");
    assert_eq!(outcome.reason, "100 turns without a removal");
}

#[test]
fn no_removal_limit_is_configurable() {
    let mut state = game_with(Q9, &["draw_no_removal_plies=3"]);
    play(&mut state, "a1-d1 g7-d7");
    assert_eq!(winner(&state), None);
    play(&mut state, "d1-g1");
    assert_eq!(state.outcome().unwrap().reason, "3 turns without a removal");
    let mut state = game_with(Q9, &["draw_no_removal_plies=0", "draw_repetition=0"]);
    for ply in 0..400 {
        play(&mut state, Q9_CYCLE[ply % 4]);
    }
    assert_eq!(winner(&state), None);
}

// §4 draw rules: a removal resets the no-removal counter. Red: a1 d1 g7; Black: b6 f6.
#[test]
fn a_removal_resets_the_no_removal_counter() {
    let mut state = game_with(
        "RR................B.B..R move R 0/0 0",
        &["draw_no_removal_plies=4"],
    );
    play(&mut state, "g7-g4");
    play(&mut state, "b6-b4");
    play(&mut state, "g4-g1 xb4");
    for slide in ["f6-f4", "g1-g4", "f4-f6"] {
        assert_eq!(winner(&state), None);
        play(&mut state, slide);
    }
    assert_eq!(winner(&state), None);
    play(&mut state, "a1-a4");
    assert_eq!(state.outcome().unwrap().reason, "4 turns without a removal");
}

// §3.1 (b): a player with an empty hand passes. Black has 0 in hand: Red places twice.
#[test]
fn an_empty_hand_passes() {
    let mut state = game(".RPPBPRPBBBPRPBBPBRPBBB. place R 6/0 0");
    play(&mut state, "a1");
    assert_eq!((state.to_move(), state.turn()), (Some(RED), 1));
    play(&mut state, "g7");
    assert_eq!(state.turn(), 2);
    assert_eq!(state.stage(), Stage::Move);
    assert_eq!(state.position(), "RR..B.R.BBB.R.BB.BR.BBBR move B 4/0 0");
    assert_eq!(state.to_move(), Some(BLACK));
}

// §3.1 (a): a press that cannot be made is dropped (no unpressed Black piece; an empty hand).
#[test]
fn impossible_presses_are_dropped() {
    let mut state = game("RR.P.PP.P..P..P.RR...... place R 8/12 0");
    play(&mut state, "g1");
    assert_eq!((state.pending(), state.to_move()), (0, Some(BLACK)));
    assert_eq!(state.hands().0, [7, 12]);
}

#[test]
fn resignation_ends_the_game_at_any_decision() {
    let mut state = game("RB..B.B.BR.....R..R..... place R 14/14 0");
    play(&mut state, "a7");
    state.resign(RED);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(BLACK));
    assert_eq!(outcome.reason, "Red resigned");
    assert!(legal(&state).is_empty());
}

#[test]
fn notation_forms_and_errors() {
    let mut state = game(Q7);
    let slide = state.parse_action("b2-a1").unwrap();
    assert_eq!(state.parse_action("b2a1"), Ok(slide));
    assert_eq!(state.parse_action("B2-A1."), Ok(slide));
    assert_eq!(state.format_action(slide), "b2-a1");
    let cases = [
        ("d4", "bad move 'd4': expected"),
        ("xx", "bad move"),
        ("a1-a7", "there is no Red piece on a1"),
        ("b2-b6", "b2 and b6 are not adjacent"),
        ("b2-c3", "c3 is not empty"),
        ("a1", "Red must slide a piece"),
        ("xc3", "Red must slide a piece"),
    ];
    for (text, message) in cases {
        let err = state.parse_action(text).unwrap_err();
        assert!(err.to_string().contains(message), "{text}: {err}");
    }
    play(&mut state, "b2-a1");
    let err = state.parse_action("xa4").unwrap_err();
    assert!(
        err.to_string().contains("a4 does not hold a Black piece"),
        "{err}"
    );
    let err = state.parse_turn("xc3 xa4").unwrap_err();
    assert!(matches!(err, MoveError::InTurn { index: 2, .. }), "{err}");
    state.resign(BLACK);
    assert!(matches!(
        state.parse_action("xc3"),
        Err(MoveError::GameOver(_))
    ));
}

/// Bad position strings and a word of the reason each is refused with.
const BAD_POSITIONS: &[(&str, &str)] = &[
    ("", "found 0 fields"),
    ("........................ place R 18/18", "found 4 fields"),
    (
        ".......................  place R 18/18 0",
        "the board has 23 points",
    ),
    (
        "......................X. place R 18/18 0",
        "bad point 'X' at d7",
    ),
    (
        "........................ fly R 18/18 0",
        "unknown stage 'fly'",
    ),
    (
        "........................ place W 18/18 0",
        "unknown side 'W'",
    ),
    (
        "........................ place R 19/18 0",
        "bad hands '19/18'",
    ),
    ("........................ place R 18-18 0", "bad hands"),
    (
        "........................ place R 18/18 4",
        "bad pending count '4'",
    ),
    (
        "........................ place B 18/18 0",
        "Red places first",
    ),
    (
        "R....................... place R 18/18 0",
        "the hands should be 17/18",
    ),
    (
        "R....................... place R 17/18 0",
        "Red places first",
    ),
    (
        "R......................B move R 0/0 1",
        "no point with that many complete lines",
    ),
    (
        "RRR....................B move R 0/0 3",
        "pending must be 0..2",
    ),
    (
        "RRR...................P. move B 0/0 0",
        "pressed points are cleared",
    ),
    (
        "RRR..................... move R 0/0 1",
        "removals that cannot be made",
    ),
    (
        "RRBBBRRB.BRBRBRRBRB.RBRB transition R 6/6 1",
        "when 0 point(s) are empty",
    ),
    (
        "RRBBBRRBBBRBRBRRBRBRRBRB transition R 6/6 0",
        "pending must be 1",
    ),
    (
        "RRBBBRRBBBRBRBRRBRBRRBRB place R 6/6 0",
        "the board is full",
    ),
    (
        "RRRRRRRRRRRRRRRRRRR..... move R 0/0 0",
        "more than 18 pieces",
    ),
    ("é.......................  place R 18/18 0", "bad point 'é'"),
];

#[test]
fn bad_position_strings_are_refused() {
    let cases = BAD_POSITIONS;
    for (text, message) in cases {
        let err = Qilin::from_position(text, &QilinOptions::default()).unwrap_err();
        assert!(err.to_string().contains(message), "{text}: {err}");
    }
}

#[test]
fn positions_round_trip_mid_turn() {
    for text in [
        "RP..B.B.BR.....R..R..R.. place R 12/14 1",
        "RRBBBRRBBBRBRBRRBRBRRBRB transition R 6/6 1",
        ".RBBBRRBBBRBRBRRBRBRRBRB transition B 6/6 1",
        "RRR.B......R.B...BB..... move B 0/0 0",
        "RRR...........B........B move R 0/0 1",
    ] {
        let state = game(text);
        assert_eq!(state.position(), text);
        assert_eq!(game(&state.position()).key(), state.key());
    }
    // A finished game gives back its result when the board shows it.
    let q5_end = game("RRBBBRRBRBRBRBRRBRBBRBR. move B 5/6 0");
    assert_eq!(winner(&q5_end), Some(Verdict::Win(RED)));
}

#[test]
fn options_are_validated() {
    for (pair, message) in [
        ("min_pieces=0", "expected 1, 2 or 3"),
        ("min_pieces=4", "expected 1, 2 or 3"),
        ("draw_repetition=1", "expected 0 (off) or 2 to 10"),
        ("draw_no_removal_plies=1001", "expected 0 (off) to 1000"),
        (
            "no_press_rule=nothing",
            "expected remove_own or first_player_loses",
        ),
        ("flying=on", "unknown option 'flying'"),
    ] {
        let err = parse_options::<QilinOptions>("qilin", &[pair]).unwrap_err();
        assert!(err.to_string().contains(message), "{pair}: {err}");
    }
}

// Perft goldens: `data/qilin.perft` (counts cross-checked with an independent model of §3–§4).
#[test]
fn perft_goldens() {
    let checked = check_perft_data::<Qilin>(include_str!("data/qilin.perft"));
    assert!(checked >= 20, "only {checked} perft lines checked");
}

// The conformance kit (engine `testkit`): seeded random games with every invariant checked.
#[test]
fn random_games_default_options() {
    random_simulation::<Qilin>(&QilinOptions::default(), 2000, 0x5149);
}

#[test]
fn random_games_min_pieces_three() {
    random_simulation::<Qilin>(&options(&["min_pieces=3"]), 2000, 0x5150);
}

#[test]
fn random_games_other_options() {
    random_simulation::<Qilin>(
        &options(&["protect_lines=on", "no_press_rule=first_player_loses"]),
        300,
        0x5151,
    );
    random_simulation::<Qilin>(&options(&["draw_no_removal_plies=20"]), 300, 0x5152);
}
