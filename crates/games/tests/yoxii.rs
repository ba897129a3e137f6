//! Yoxii: the worked scenarios of `shared/rules/yoxii.md` §8, options, notation, position
//! strings, the board view, heuristics, perft goldens (`data/yoxii.perft`) and random games.

use std::collections::HashSet;

use ludus_engine::testkit::random_simulation;
use ludus_engine::{
    parse_options, perft, CellShape, Game, Heuristic, Hue, MoveError, Seat, Verdict, WIN_SCORE,
};
use ludus_games::yoxii::{
    greedy_turn, FirstPlayer, Square, Tiebreak, Yoxii, YoxiiAction, YoxiiOptions, RED, WHITE,
};

const START: &str = ".../...../......./...#.../......./...../... w";

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn options(pairs: &[&str]) -> YoxiiOptions {
    parse_options("yoxii", pairs).unwrap()
}

fn at(position: &str) -> Yoxii {
    Yoxii::from_position(position, &YoxiiOptions::default()).unwrap()
}

fn red_first(position: &str) -> Yoxii {
    Yoxii::from_position(position, &options(&["first_player=red"])).unwrap()
}

fn legal(state: &Yoxii) -> Vec<YoxiiAction> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    actions
}

/// The legal decisions in notation, space-separated.
fn moves(state: &Yoxii) -> String {
    legal(state)
        .into_iter()
        .map(|a| state.format_action(a))
        .collect::<Vec<_>>()
        .join(" ")
}

fn after(state: &Yoxii, text: &str) -> Yoxii {
    let mut next = state.clone();
    for action in state.parse_turn(text).unwrap() {
        next.apply(action);
    }
    next
}

/// The placement squares after the Totem goes to `to`.
fn placement_squares(state: &Yoxii, to: &str) -> Vec<String> {
    let next = after(state, to);
    let mut squares: Vec<String> = legal(&next)
        .into_iter()
        .filter_map(|a| match a {
            YoxiiAction::Place { square, .. } => Some(square.to_string()),
            YoxiiAction::Totem(_) => None,
        })
        .collect();
    squares.dedup();
    squares
}

/// Complete turns: (Totem move, placement) pairs.
fn complete_turns(state: &Yoxii) -> u64 {
    perft(state, 1)
}

// §8 Y1 — the start position.
//   7     . . .
//   6   . . . . .
//   5 . . . . . . .
//   4 . . . # . . .
//   3 . . . . . . .
//   2   . . . . .
//   1     . . .
//     a b c d e f g
#[test]
fn y1_start_position() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    assert_eq!(start.position(), START);
    assert_eq!(start.to_move(), Some(WHITE));
    assert_eq!(start.turn(), 0);
    assert_eq!(moves(&start), "c3 c4 c5 d3 d5 e3 e4 e5");
    for to in ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"] {
        let squares = placement_squares(&start, to);
        assert_eq!(squares.len(), 8, "{to}");
        assert!(squares.contains(&"d4".to_string()), "{to}");
    }
    assert_eq!(complete_turns(&start), 256);
    let mut positions = HashSet::new();
    for totem in legal(&start) {
        let mut moved = start.clone();
        moved.apply(totem);
        for place in legal(&moved) {
            let mut done = moved.clone();
            done.apply(place);
            assert_eq!(done.turn(), 1);
            positions.insert(done.position());
        }
    }
    assert_eq!(positions.len(), 256);
}

// §8 Y2 — the second ply: White played d5 3@d4; Red may not jump White's Y.
//   6   . . . . .
//   5 . . . # . . .
//   4 . . . Y . . .
#[test]
fn y2_opponent_piece_blocks() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    let state = after(&start, "d5 3@d4");
    assert_eq!(
        state.position(),
        ".../...../...#.../...Y.../......./...../... r"
    );
    assert_eq!(state.to_move(), Some(RED));
    assert_eq!(state.turn(), 1);
    assert_eq!(moves(&state), "c4 c5 c6 d6 e4 e5 e6");
    assert_eq!(placement_squares(&state, "d6").len(), 8);
    for to in ["c4", "c5", "c6", "e4", "e5", "e6"] {
        assert_eq!(placement_squares(&state, to).len(), 7, "{to}");
    }
    assert_eq!(complete_turns(&state), 200);
}

// §8 Y3 — a jump over two own pieces (d5 O, d6 T) to d7.
//   7     . . .
//   6   . . T . .
//   5 . . . O . . .
//   4 o . . # . . o
#[test]
fn y3_jump_over_two_own_pieces() {
    let white = at(".../..T../...O.../o..#..o/......./...../... w");
    assert_eq!(moves(&white), "c3 c4 c5 d3 d7 e3 e4 e5");
    assert_eq!(placement_squares(&white, "d7"), ["c6", "c7", "e6", "e7"]);
    assert_eq!(complete_turns(&white), 216);
    // With Red to move (a valid string only when Red moves first): no jump over White.
    let red = red_first(".../..T../...O.../o..#..o/......./...../... r");
    assert_eq!(moves(&red), "c3 c4 c5 d3 e3 e4 e5");
    assert_eq!(complete_turns(&red), 200);
}

// §8 Y4 — blocked jumps north: (a) at a Red piece, (b) at a Red piece after two, (c) at the edge.
//   (a)  7 . . .      (b)  7 . o .      (c)  7 . O .
//        6 . . t . .       6 . . O . .       6 . . O . .
//        5 . . . O . . .   5 . . . O . . .   5 . . . O . . .
//        4 . . . # . . .   4 . . . # . . .   4 . . . # . . .
#[test]
fn y4_blocked_jumps() {
    for position in [
        ".../..t../...O.../...#.../......./...../... w",
        ".o./..O../...O.../...#.../......./...../..o w",
        ".O./..O../...O.../...#.../......./...../ooo w",
    ] {
        let state = at(position);
        assert_eq!(moves(&state), "c3 c4 c5 d3 e3 e4 e5", "{position}");
        assert_eq!(complete_turns(&state), 200, "{position}");
        let err = state.parse_action("d7").unwrap_err();
        assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    }
}

// §8 Y5 — fallback placement: every neighbour of d7 is occupied after the jump.
//   7     O . o
//   6   . t T t .
//   5 . . . O . . .
//   4 . . . # . . .
#[test]
fn y5_fallback_placement() {
    let state = at("O.o/.tTt./...O.../...#.../......./...../... w");
    assert_eq!(moves(&state), "c3 c4 c5 d3 d7 e3 e4 e5");
    let d7 = placement_squares(&state, "d7");
    assert_eq!(d7.len(), 30);
    assert!(d7.contains(&"d4".to_string()));
    let expected = [
        ("d7", 30),
        ("c3", 8),
        ("d3", 8),
        ("e3", 8),
        ("c4", 7),
        ("e4", 7),
        ("c5", 5),
        ("e5", 5),
    ];
    for (to, count) in expected {
        assert_eq!(placement_squares(&state, to).len(), count, "{to}");
    }
    assert_eq!(complete_turns(&state), 312);
    // The fallback allows a square far from the Totem.
    let far = after(&state, "d7 4@c1");
    assert_eq!(far.to_move(), Some(RED));
}

// §8 Y6 — game end, equal scores 8–8, decided by the tie-break (Red 6 pieces, White 2).
//   6   y . y . .
//   5 O . X X o . T
//   4 O . o # t . T
//   3 O . t o o . T
#[test]
fn y6_equal_scores_decided_by_tiebreak() {
    let position = ".../y.y../O.XXo.T/O.o#t.T/O.too.T/...../... w";
    let state = at(position);
    let outcome = state.outcome().expect("White cannot move the totem");
    assert_eq!(outcome.verdict, Verdict::Win(RED));
    assert_eq!(
        outcome.reason,
        "totem surrounded: White 8 – Red 8, tie-break: Red has more pieces around the totem (6 to 2)"
    );
    assert_eq!(state.to_move(), None);
    assert!(legal(&state).is_empty());
    assert_eq!(state.position(), position);
    // tiebreak=none: a draw.
    let none = Yoxii::from_position(position, &options(&["tiebreak=none"])).unwrap();
    let outcome = none.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Draw);
    assert_eq!(outcome.reason, "totem surrounded: White 8 – Red 8");
    // With Red to move, Red still jumps in six directions.
    let red = red_first(".../y.y../O.XXo.T/O.o#t.T/O.too.T/...../... r");
    assert!(red.outcome().is_none());
    assert_eq!(moves(&red), "b2 b4 d2 f2 f4 f6");
}

// §8 Y7 — a full draw: 8–8 points, 4–4 pieces.
//   6   y . y . T
//   5 . . O X t . T
//   4 . o O # t . O
//   3 . . t T t . O
//   2   . . y . .
#[test]
fn y7_full_draw() {
    let position = ".../y.y.T/..OXt.T/.oO#t.O/..tTt.O/..y../... w";
    for tiebreak in ["adjacent_count", "none"] {
        let state =
            Yoxii::from_position(position, &options(&[&format!("tiebreak={tiebreak}")])).unwrap();
        let outcome = state.outcome().expect("White cannot move the totem");
        assert_eq!(outcome.verdict, Verdict::Draw, "{tiebreak}");
    }
    assert_eq!(
        at(position).outcome().unwrap().reason,
        "totem surrounded: White 8 – Red 8, tie-break: 4 pieces each around the totem"
    );
}

// §8 Y8 — scoring at the edge: the Totem on d7 has 5 neighbours; White 7, Red 8.
//   7     X # x
//   6   . Y y o .
//   5 . o . . . . .
//   3 O . . . . . O
#[test]
fn y8_scoring_at_the_edge() {
    let state = at("X#x/.Yyo./.o...../......./O.....O/...../... w");
    let outcome = state.outcome().expect("White cannot move the totem");
    assert_eq!(outcome.verdict, Verdict::Win(RED));
    assert_eq!(outcome.reason, "totem surrounded: White 7 – Red 8");
    assert_eq!(state.around(WHITE), (7, 2));
    assert_eq!(state.around(RED), (8, 3));
    let red = red_first("X#x/.Yyo./.o...../......./O.....O/...../... r");
    assert_eq!(moves(&red), "d5 f5");
}

// §2, Y-D9: option first_player; the colours keep their seats.
#[test]
fn first_player_option_both_ways() {
    let white = Yoxii::new(&options(&["first_player=white"]), 0);
    assert_eq!(white.to_move(), Some(Seat::FIRST));
    let red = Yoxii::new(&options(&["first_player=red"]), 0);
    assert_eq!(red.options().first_player, FirstPlayer::Red);
    assert_eq!(red.to_move(), Some(RED));
    assert_eq!(red.seat_name(RED), "Red");
    assert_eq!(red.seat_name(WHITE), "White");
    assert_eq!(
        red.position(),
        ".../...../......./...#.../......./...../... r"
    );
    let after_red = after(&red, "d5 1@d4");
    assert_eq!(
        after_red.position(),
        ".../...../...#.../...o.../......./...../... w"
    );
    // Piece-count rules follow the first player.
    assert!(Yoxii::from_position(&after_red.position(), &YoxiiOptions::default()).is_err());
    assert!(Yoxii::from_position(&after_red.position(), red.options()).is_ok());
    assert!(parse_options::<YoxiiOptions>("yoxii", &["first_player=blue"]).is_err());
    assert_eq!(options(&[]).tiebreak, Tiebreak::AdjacentCount);
}

// §3: turn structure, one placement per turn, keys follow the position.
#[test]
fn a_turn_is_a_totem_move_then_a_placement() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    let moved = after(&start, "d5");
    assert!(moved.is_placing());
    assert_eq!(moved.to_move(), Some(WHITE));
    assert_eq!(moved.turn(), 0);
    assert_eq!(
        moved.position(),
        ".../...../...#.../......./......./...../... w place"
    );
    let reparsed = at(&moved.position());
    assert_eq!(reparsed.key(), moved.key());
    assert_eq!(moves(&reparsed), moves(&moved));
    assert_ne!(moved.key(), start.key());
    assert_eq!(legal(&moved).len(), 32);
    let done = after(&moved, "3@d4");
    assert_eq!(done.turn(), 1);
    assert_eq!(done.key(), at(&done.position()).key());
    assert_eq!(done.in_hand(WHITE, 3), 4);
}

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

// §6: every validation of position strings.
#[test]
fn bad_position_strings_are_refused_with_a_reason() {
    let bad = |text: &str, needle: &str| {
        let err = Yoxii::from_position(text, &YoxiiOptions::default())
            .err()
            .unwrap_or_else(|| panic!("accepted '{text}'"));
        assert!(err.to_string().contains(needle), "'{text}': {err}");
    };
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

// §4.1: a full board is final for whoever is to move.
#[test]
fn a_full_board_ends_the_game() {
    let full = "OOO/OOTTT/TTYYYYY/XXX#ooo/oottttt/yyyyy/xxx w";
    let state = at(full);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(WHITE));
    assert_eq!(outcome.reason, "totem surrounded: White 13 – Red 7");
    assert_eq!(state.turn(), 36);
    assert_eq!(state.empty(), 0);
}

#[test]
fn resignation_ends_the_game() {
    let mut state = Yoxii::new(&YoxiiOptions::default(), 0);
    state.resign(WHITE);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(RED));
    assert_eq!(outcome.reason, "White resigned");
    assert!(legal(&state).is_empty());
}

// §9: the board view, the hands, and pointing at decisions.
#[test]
fn view_shows_totem_pieces_hands_and_inputs() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    let state = after(&start, "d5 3@d4 c6");
    let view = state.view();
    assert_eq!((view.width, view.height), (7, 7));
    assert_eq!(view.cells.len(), 37);
    assert!(view.cell_named("a1").is_none());
    assert!(view.cells.iter().all(|c| c.shape == CellShape::Square));
    let c6 = &view.cells[view.cell_named("c6").unwrap().to_usize()];
    assert_eq!((c6.x, c6.y), (2, 5));
    let totem = &c6.stack[0];
    assert_eq!(
        (totem.kind, totem.hue, totem.marked, totem.owner),
        ('T', Hue::Neutral, true, None)
    );
    let d4 = &view.cells[view.cell_named("d4").unwrap().to_usize()];
    let piece = &d4.stack[0];
    assert_eq!(piece.owner, Some(WHITE));
    assert_eq!(piece.hue, Hue::Light);
    assert_eq!(piece.label.as_deref(), Some("3"));
    assert!(view.cells[view.cell_named("d5").unwrap().to_usize()]
        .stack
        .is_empty());
    assert_eq!(view.hands.len(), 2);
    let white_hand: Vec<u32> = view.hands[0].pieces.iter().map(|p| p.1).collect();
    assert_eq!(white_hand, [5, 5, 4, 3]);
    assert_eq!(view.hands[1].pieces[0].0.hue, Hue::Red);
    assert_eq!(view.to_move, Some(RED));
    assert_eq!(
        view.status,
        "Red: place a piece · around the totem: White 0 – Red 0"
    );
    // Pointing: the Totem's destination, then the square with the value as label.
    let place = state.parse_action("2@b5").unwrap();
    let input = state.action_input(place);
    assert_eq!(input.cells, [view.cell_named("b5").unwrap()]);
    assert_eq!(input.label.as_deref(), Some("2"));
    let input = start.action_input(start.parse_action("e4").unwrap());
    assert_eq!(input.cells, [start.view().cell_named("e4").unwrap()]);
    assert_eq!(input.label, None);
    let over = at(".../y.y../O.XXo.T/O.o#t.T/O.too.T/...../... w");
    assert!(over.view().status.starts_with("Red wins: totem surrounded"));
}

// §9: the seed's level 2 and the evaluation.
//   7     X . o      White moves the Totem c6-d7 and places on c6: Red is then stuck.
//   6   . # y o .    With a 2, 3 or 4 White wins (6..8 against 5); with a 1 it is 5-5,
//   5 . . . O . O .  and Red wins the tie-break on pieces (3 against 2).
#[test]
fn heuristics_rate_winning_and_losing_turns() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    assert_eq!(start.evaluate(WHITE), -start.evaluate(RED));
    assert_eq!(start.seed_evaluate(WHITE), 0);
    let moved = after(&start, "d5");
    assert!(moved.evaluate(WHITE) > 0, "the pending placement counts");
    let state = at("X.o/.#yo./...O.O./......./......./...../... w");
    let d7 = state.parse_action("d7").unwrap();
    assert_eq!(state.seed_action_score(d7), WIN_SCORE);
    let at_d7 = after(&state, "d7");
    assert_eq!(moves(&at_d7), "1@c6 2@c6 3@c6 4@c6");
    let scores: Vec<i32> = legal(&at_d7)
        .into_iter()
        .map(|a| at_d7.seed_action_score(a))
        .collect();
    assert_eq!(scores, [-WIN_SCORE, WIN_SCORE, WIN_SCORE, WIN_SCORE]);
    let lost = after(&at_d7, "1@c6");
    assert_eq!(lost.outcome().unwrap().verdict, Verdict::Win(RED));
    // Other Totem moves let the game go on: rated by points, well inside the win score.
    for action in legal(&state).into_iter().filter(|&a| a != d7) {
        assert!(
            state.seed_action_score(action).abs() < WIN_SCORE,
            "{action:?}"
        );
    }
    // The opponent's greedy reply puts its best value next to the Totem.
    let (totem, place) = greedy_turn(&start);
    assert!(start.is_legal(totem));
    let moved = after(&start, &start.format_action(totem));
    assert_eq!(moved.format_action(place).chars().next(), Some('4'));
}

#[test]
fn the_registry_knows_yoxii() {
    let game = ludus_games::new_game("yoxii", &["tiebreak=none".into()], None, 0).unwrap();
    assert_eq!(game.position(), START);
    assert!(ludus_games::new_game("yoxii", &[], Some(".../... w"), 0).is_err());
    assert_eq!(ludus_games::game_info("YOXII").unwrap().max_turns, 36);
}

/// One case of `data/yoxii.perft`: its id, position and options.
#[derive(Default)]
struct PerftCase {
    id: String,
    position: String,
    options: Vec<String>,
}

impl PerftCase {
    fn state(&self) -> Yoxii {
        let options: YoxiiOptions = parse_options("yoxii", &self.options).unwrap();
        if self.position == "startpos" {
            return Yoxii::new(&options, 0);
        }
        Yoxii::from_position(&self.position, &options)
            .unwrap_or_else(|e| panic!("{}: {e}", self.id))
    }
}

/// Runs the perft goldens of `data/yoxii.perft` (§7, §8).
#[test]
fn perft_goldens() {
    let mut case = PerftCase::default();
    let mut checked = 0;
    for line in include_str!("data/yoxii.perft").lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "id" => {
                case = PerftCase {
                    id: rest.to_string(),
                    position: "startpos".to_string(),
                    options: Vec::new(),
                }
            }
            "position" => case.position = rest.to_string(),
            "options" => case.options = rest.split_whitespace().map(String::from).collect(),
            "perft" => {
                let (turns, count) = rest.split_once(' ').unwrap();
                let (turns, count): (u32, u64) = (turns.parse().unwrap(), count.parse().unwrap());
                if cfg!(debug_assertions) && count > 2_000_000 {
                    continue;
                }
                assert_eq!(
                    perft(&case.state(), turns),
                    count,
                    "{} perft {turns}",
                    case.id
                );
                checked += 1;
            }
            other => panic!("unknown perft line '{other}'"),
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn random_games_keep_every_invariant() {
    random_simulation::<Yoxii>(&YoxiiOptions::default(), 2000, 0x594F_5849);
    random_simulation::<Yoxii>(&options(&["first_player=red"]), 400, 7);
    random_simulation::<Yoxii>(&options(&["tiebreak=none"]), 400, 11);
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
