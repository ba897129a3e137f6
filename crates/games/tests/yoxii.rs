//! Yoxii: the worked scenarios of `shared/rules/yoxii.md` §8, the turn structure (§3), the
//! full-board end (§4.1), perft goldens (`data/yoxii.perft`) and random games. The playout's
//! random draw is tested in `yoxii/draws.rs`. Notation and position strings are tested in
//! `yoxii/notation.rs`; options, resignation, the board view, heuristics and the registry in
//! `yoxii/options_view_ai.rs`.

use ludus_engine::{
    parse_options, perft, CellShape, Heuristic, Hue, MoveError, Notation, Rules, Seat, Verdict,
    WIN_SCORE,
};
use std::collections::HashSet;

#[path = "yoxii/draws.rs"]
mod draws;
#[path = "yoxii/notation.rs"]
mod notation;
#[path = "yoxii/options_view_ai.rs"]
mod options_view_ai;

use ludus_engine::testkit::{check_perft_data, random_simulation};
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

/// Runs the perft goldens of `data/yoxii.perft` (§7, §8).
#[test]
fn perft_goldens() {
    let checked = check_perft_data::<Yoxii>(include_str!("data/yoxii.perft"));
    assert!(checked >= 20, "only {checked} perft lines checked");
}

#[test]
fn random_games_keep_every_invariant() {
    random_simulation::<Yoxii>(&YoxiiOptions::default(), 2000, 0x594F_5849);
    random_simulation::<Yoxii>(&options(&["first_player=red"]), 400, 7);
    random_simulation::<Yoxii>(&options(&["tiebreak=none"]), 400, 11);
}
