//! Qawale: the worked scenarios of `shared/rules/qawale.md` §8, the perft goldens in
//! `tests/data/qawale.perft` (cross-checked by the independent enumeration in
//! `qawale/reference.rs`), and the random-simulation kit. Notation and position strings are
//! tested in `qawale/notation.rs`; options, view, resignation and heuristics in
//! `qawale/options_view_ai.rs`.

use ludus_engine::{
    options_from_json, parse_options, perft, Heuristic, MoveError, Notation, Presentation, Rules,
    Seat, Session, Verdict,
};
use std::collections::{BTreeSet, HashSet};

#[path = "qawale/draws.rs"]
mod draws;
#[path = "qawale/notation.rs"]
mod notation;
#[path = "qawale/options_view_ai.rs"]
mod options_view_ai;
#[path = "qawale/reference.rs"]
mod reference;

use ludus_engine::testkit::{check_perft_data, random_simulation, random_simulation_from};
use ludus_games::qawale::{
    BothLines, Dir, FirstPlayer, Qawale, QawaleAction, QawaleOptions, Square, DARK, LIGHT,
};

const START: &str = "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN D";

fn pos(text: &str) -> Qawale {
    pos_with(text, &QawaleOptions::default())
}

fn pos_with(text: &str, options: &QawaleOptions) -> Qawale {
    Qawale::from_position(text, options).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

/// Plays one complete turn written in turn notation.
fn play(state: &Qawale, turn: &str) -> Qawale {
    let mut next = state.clone();
    for action in state
        .parse_complete_turn(turn)
        .unwrap_or_else(|e| panic!("{e}"))
    {
        next.apply(action);
    }
    next
}

/// Every complete turn from `state`, as (turn notation, resulting state), by playing decisions
/// until the turn counter grows.
fn complete_turns(state: &Qawale) -> Vec<(String, Qawale)> {
    fn walk(
        start: &Qawale,
        state: &Qawale,
        path: &mut Vec<QawaleAction>,
        out: &mut Vec<(String, Qawale)>,
    ) {
        if state.turn() > start.turn() {
            out.push((start.format_turn(path), state.clone()));
            return;
        }
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        for action in actions {
            let mut next = state.clone();
            next.apply(action);
            path.push(action);
            walk(start, &next, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(state, state, &mut Vec::new(), &mut out);
    out
}

fn distinct_results(turns: &[(String, Qawale)]) -> usize {
    turns
        .iter()
        .map(|(_, s)| s.position())
        .collect::<HashSet<_>>()
        .len()
}

fn winner(state: &Qawale) -> Option<Verdict> {
    state.outcome().map(|o| o.verdict)
}

// §8 Q1 — opening move count.
//   4 | NN |    |    | NN |
//   3 |    |    |    |    |
//   2 |    |    |    |    |
//   1 | NN |    |    | NN |     Dark to move
#[test]
fn q1_opening_move_count() {
    let start = Qawale::new(&QawaleOptions::default(), 0);
    assert_eq!(start.position(), START);
    let mut stacks = Vec::new();
    start.legal_actions(&mut stacks);
    let corners = ["a1", "d1", "a4", "d4"].map(|s| QawaleAction::Stack(sq(s)));
    assert_eq!(stacks, [corners[0], corners[1], corners[2], corners[3]]);
    let turns = complete_turns(&start);
    assert_eq!(turns.len(), 40);
    assert_eq!(perft(&start, 1), 40);
    assert_eq!(distinct_results(&turns), 40);
    let listed: BTreeSet<String> = turns.into_iter().map(|(t, _)| t).collect();
    let mut expected = BTreeSet::new();
    for (origin, paths) in [
        ("a1", "EEE,EEN,ENE,ENN,ENW,NEE,NEN,NES,NNE,NNN"),
        ("a4", "EEE,EES,ESE,ESS,ESW,SEE,SEN,SES,SSE,SSS"),
        ("d1", "NNN,NNW,NWN,NWS,NWW,WNE,WNN,WNW,WWN,WWW"),
        ("d4", "SSS,SSW,SWN,SWS,SWW,WSE,WSS,WSW,WWS,WWW"),
    ] {
        for path in paths.split(',') {
            expected.insert(format!("{origin}:{path}"));
        }
    }
    assert_eq!(listed, expected);
}

// §8 Q2 — a path that turns corners, and the next ply.
//   a1:NEN drops N on a2, N on b2, D on b3.
#[test]
fn q2_path_turning_corners_and_next_ply() {
    let start = pos(START);
    let after = play(&start, "a1:NEN");
    assert_eq!(after.position(), "NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L");
    assert_eq!(after.to_move(), Some(LIGHT));
    assert_eq!(after.turn(), 1);
    let turns = complete_turns(&after);
    assert_eq!(turns.len(), 56);
    assert_eq!(perft(&after, 1), 56);
    assert_eq!(distinct_results(&turns), 56);
    for (origin, count) in [("a2", 6), ("b2", 10), ("b3", 10), ("a4", 10), ("d1", 10)] {
        let n = turns.iter().filter(|(t, _)| t.starts_with(origin)).count();
        assert_eq!(n, count, "turns from {origin}");
    }
    // The list-of-squares form is the same turn.
    assert_eq!(play(&start, "a1 a2 b2 b3").position(), after.position());
    assert_eq!(
        play(&start, "a1:NNN").position(),
        "NND,-,-,NN/N,-,-,-/N,-,-,-/-,-,-,NN L"
    );
    assert_eq!(
        play(&start, "a1:NES").position(),
        "NN,-,-,NN/-,-,-,-/N,N,-,-/-,D,-,NN L"
    );
}

// §8 Q3 — revisiting the origin, and illegal paths.
//   4 | NN |     |    | NN |
//   3 |    |     |    |    |
//   2 |    | NDN |    |    |
//   1 | N  |     |    | N  |     Light to move
#[test]
fn q3_revisiting_the_origin_and_illegal_paths() {
    let state = pos("NN,-,-,NN/-,-,-,-/-,NDN,-,-/N,-,-,N L");
    let after = play(&state, "b2:NESW");
    assert_eq!(after.position(), "NN,-,-,NN/-,N,D,-/-,L,N,-/N,-,-,N D");
    assert_eq!(winner(&after), None);

    let err = state.parse_complete_turn("b2:NSEW").unwrap_err();
    assert!(err.to_string().contains("straight back"), "{err}");
    let err = state.parse_complete_turn("b2:NEE").unwrap_err();
    assert!(
        err.to_string().contains("3 steps") && err.to_string().contains("4 stones"),
        "{err}"
    );
    // As an unfinished turn (a save in mid-sowing) NEE is fine: the turn is not over.
    let partial = state.parse_turn("b2:NEE").unwrap();
    assert_eq!(partial.len(), 4);
    let mut mid = state.clone();
    for &a in &partial {
        mid.apply(a);
    }
    assert_eq!(mid.turn(), state.turn());
    assert_eq!(mid.to_move(), Some(LIGHT));
    let err = state.parse_complete_turn("b2:WWNE").unwrap_err();
    assert!(err.to_string().contains("leaves the board"), "{err}");
    let err = state.parse_complete_turn("b2:NESWN").unwrap_err();
    assert!(err.to_string().contains("only 4 stones"), "{err}");

    let turns = complete_turns(&state);
    assert_eq!(turns.len(), 66);
    assert_eq!(distinct_results(&turns), 62);
}

// §8 Q4 — four in a row on the tops only.
//   4 | NN   | NN |    | NN |
//   3 |      |    |    | D  |
//   2 |      |    |    |    |
//   1 | NNDL | DL | DL |    |     Light to move; d3:SS drops D on d2, L on d1
#[test]
fn q4_four_in_a_row_on_tops_only() {
    let state = pos("NN,NN,-,NN/-,-,-,D/-,-,-,-/NNDL,DL,DL,- L");
    let after = play(&state, "d3:SS");
    assert_eq!(
        after.position(),
        "NN,NN,-,NN/-,-,-,-/-,-,-,D/NNDL,DL,DL,L D"
    );
    assert_eq!(winner(&after), Some(Verdict::Win(LIGHT)));
    assert_eq!(after.to_move(), None);
    let mut actions = Vec::new();
    after.legal_actions(&mut actions);
    assert!(actions.is_empty());

    // Control: b1 holds L under D, so rank 1 is not all L.
    let control = pos("NN,NN,-,NN/-,-,-,D/-,-,-,-/NNDL,LD,DL,- L");
    let after = play(&control, "d3:SS");
    assert_eq!(
        after.position(),
        "NN,NN,-,NN/-,-,-,-/-,-,-,D/NNDL,LD,DL,L D"
    );
    assert_eq!(winner(&after), None);
    assert_eq!(after.to_move(), Some(DARK));
}

// §8 Q5 — a line made only for the opponent.
//   4 | NN |    | D  | NN |
//   3 | N  | ND |    |    |
//   2 | L  | LD | L  | D  |
//   1 |    | ND | L  | N  |     Light to move; c4:WW drops D on b4, L on a4
#[test]
fn q5_line_made_only_for_the_opponent() {
    let state = pos("NN,-,D,NN/N,ND,-,-/L,LD,L,D/-,ND,L,N L");
    let after = play(&state, "c4:WW");
    assert_eq!(after.position(), "NNL,D,-,NN/N,ND,-,-/L,LD,L,D/-,ND,L,N D");
    assert_eq!(winner(&after), Some(Verdict::Win(DARK)));
    assert_eq!(
        after.outcome().unwrap().reason,
        "four in a row, made by the opponent"
    );
}

// §8 Q6 — both colours get a line.
//   4 | NN |    | D  | NN |
//   3 | NL | ND | D  | D  |
//   2 | L  | LD | L  | D  |
//   1 | L  | ND | L  | N  |     Light to move; c4:WW gives file a all L and file b all D
#[test]
fn q6_both_colours_get_a_line() {
    let text = "NN,-,D,NN/NL,ND,D,D/L,LD,L,D/L,ND,L,N L";
    let result = "NNL,D,-,NN/NL,ND,D,D/L,LD,L,D/L,ND,L,N D";
    let after = play(&pos(text), "c4:WW");
    assert_eq!(after.position(), result);
    assert_eq!(winner(&after), Some(Verdict::Win(LIGHT)));

    let draw = QawaleOptions {
        both_lines: BothLines::Draw,
        ..QawaleOptions::default()
    };
    let after = play(&pos_with(text, &draw), "c4:WW");
    assert_eq!(after.position(), result);
    assert_eq!(winner(&after), Some(Verdict::Draw));
}

// §8 Q7 — a line formed mid-sow and covered again.
//   4 | NN |    |    | NN |
//   3 |    |    |    | LD |
//   2 | DL | DL | DL |    |
//   1 | NN | D  |    | NN |     Light to move; d3:SWS: L on d2 (rank 2 all L), D on c2, L on c1
#[test]
fn q7_line_formed_mid_sow_and_covered() {
    let state = pos("NN,-,-,NN/-,-,-,LD/DL,DL,DL,-/NN,D,-,NN L");
    let actions = state.parse_complete_turn("d3:SWS").unwrap();
    let mut mid = state.clone();
    mid.apply(actions[0]);
    mid.apply(actions[1]);
    // Rank 2 shows four L tops right now, but nothing is checked mid-turn.
    assert!(mid.has_line(ludus_games::qawale::Stone::Light));
    assert_eq!(mid.outcome(), None);
    assert_eq!(mid.to_move(), Some(LIGHT));
    let after = play(&state, "d3:SWS");
    assert_eq!(
        after.position(),
        "NN,-,-,NN/-,-,-,-/DL,DL,DLD,L/NN,D,L,NN D"
    );
    assert_eq!(winner(&after), None);
    assert_eq!(after.to_move(), Some(DARK));
}

// §8 Q8 — the 16th move: a win takes priority over the draw.
//   4 | NN  | DL | NN | DL |
//   3 | ND  |    | LD | NN |
//   2 | D   |    |    | L  |
//   1 | NDL | DL | DL |    |     Light to move with the last stone in hand
#[test]
fn q8_sixteenth_move_win_beats_draw() {
    let state = pos("NN,DL,NN,DL/ND,-,LD,NN/D,-,-,L/NDL,DL,DL,- L");
    assert_eq!(state.view().hands[0].pieces[0].1, 0);
    assert_eq!(state.view().hands[1].pieces[0].1, 1);
    let turns = complete_turns(&state);
    assert_eq!(turns.len(), 160);
    let wins: BTreeSet<&str> = turns
        .iter()
        .filter(|(_, s)| winner(s) == Some(Verdict::Win(LIGHT)))
        .map(|(t, _)| t.as_str())
        .collect();
    let expected: BTreeSet<&str> = ["a1:NNES", "c1:NWN", "d2:SW", "c3:ESS", "c3:SES", "d4:SSS"]
        .into_iter()
        .collect();
    assert_eq!(wins, expected);
    assert!(turns.iter().all(|(_, s)| s.outcome().is_some()));
    assert_eq!(
        turns
            .iter()
            .filter(|(_, s)| winner(s) == Some(Verdict::Draw))
            .count(),
        154
    );
    let win = play(&state, "d2:SW");
    assert_eq!(
        win.position(),
        "NN,DL,NN,DL/ND,-,LD,NN/D,-,-,-/NDL,DL,DLL,L D"
    );
    assert_eq!(winner(&win), Some(Verdict::Win(LIGHT)));
    let draw = play(&state, "d2:NN");
    assert_eq!(
        draw.position(),
        "NN,DL,NN,DLL/ND,-,LD,NNL/D,-,-,-/NDL,DL,DL,- D"
    );
    assert_eq!(winner(&draw), Some(Verdict::Draw));
    assert_eq!(draw.turn(), 16);
}

// §8 Q9 — a column of one colour on one square is not a line.
//   4 | NN |      |    | NN |
//   3 |    |      |    |    |
//   2 |    | DDDD |    |    |
//   1 | NN | LLLL |    | NN |     Dark to move
#[test]
fn q9_column_of_one_colour_is_not_a_line() {
    let state = pos("NN,-,-,NN/-,-,-,-/-,DDDD,-,-/NN,LLLL,-,NN D");
    assert_eq!(state.outcome(), None);
    assert_eq!(state.to_move(), Some(DARK));
    assert_eq!(complete_turns(&state).len(), 186);
    assert_eq!(perft(&state, 1), 186);
}

// §8 Q10 — duplicate results from different paths.
//   4 | NN |     |    | NN |
//   3 |    |     |    |    |
//   2 |    | NNN |    |    |
//   1 | N  |     |    |    |     Dark to move
#[test]
fn q10_duplicate_results_from_different_paths() {
    let state = pos("NN,-,-,NN/-,-,-,-/-,NNN,-,-/N,-,-,- D");
    let result = "NN,-,-,NN/-,N,N,-/-,D,N,-/N,-,-,- L";
    assert_eq!(play(&state, "b2:NESW").position(), result);
    assert_eq!(play(&state, "b2:ENWS").position(), result);
    assert_eq!(play(&state, "b2:NESW").key(), play(&state, "b2:ENWS").key());
    let turns = complete_turns(&state);
    assert_eq!(turns.len(), 62);
    assert_eq!(distinct_results(&turns), 58);
    let from_b2: Vec<_> = turns
        .iter()
        .filter(|(t, _)| t.starts_with("b2"))
        .cloned()
        .collect();
    assert_eq!(from_b2.len(), 38);
    assert_eq!(distinct_results(&from_b2), 34);
}

// §3 and §7: W(s, L), the non-backtracking walks of the spec's table, match the engine's
// sowing paths (a stack of L - 1 stones on an otherwise empty-ish board).
#[test]
fn walk_counts_match_the_spec_table() {
    // 8 neutral stones: L - 1 of them on the square, the rest spread elsewhere.
    for (square, lengths) in [
        (
            "a1",
            [(2, 4), (3, 10), (4, 24), (5, 54), (6, 108), (8, 472)],
        ),
        (
            "b1",
            [(2, 6), (3, 14), (4, 32), (5, 66), (6, 136), (8, 624)],
        ),
        (
            "b2",
            [(2, 10), (3, 20), (4, 38), (5, 80), (6, 178), (8, 822)],
        ),
    ] {
        for (length, expected) in lengths {
            let mut state = board_with_stack(sq(square), length - 1);
            state.apply(QawaleAction::Stack(sq(square)));
            assert_eq!(perft(&state, 1), expected, "W({square}, {length})");
        }
    }
}

/// A Dark-to-move board with `height` neutral stones on `square` and the other neutrals in a
/// pile on another square.
fn board_with_stack(square: Square, height: usize) -> Qawale {
    let mut cells = vec![String::from("-"); 16];
    let other = if square == sq("d4") {
        sq("c4")
    } else {
        sq("d4")
    };
    cells[square.to_usize()] = "N".repeat(height);
    if height < 8 {
        cells[other.to_usize()] = "N".repeat(8 - height);
    }
    let ranks: Vec<String> = (0..4)
        .rev()
        .map(|rank| cells[rank * 4..rank * 4 + 4].join(","))
        .collect();
    pos(&format!("{} D", ranks.join("/")))
}

// ---- Perft goldens (tests/data/qawale.perft), §7 and §8 -------------------------------

#[test]
fn perft_goldens() {
    let checked = check_perft_data::<Qawale>(include_str!("data/qawale.perft"));
    assert!(checked >= 15, "only {checked} perft lines checked");
}

#[test]
fn perft_agrees_with_an_independent_enumeration() {
    let start = reference::board(START);
    assert_eq!(reference::count(&start, 'D', 1), 40);
    assert_eq!(reference::count(&start, 'D', 2), 2176);
    assert_eq!(reference::count(&start, 'D', 3), 143_712);
    let q2 = "NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L";
    assert_eq!(reference::count(&reference::board(q2), 'L', 2), 3742);
    let q8 = "NN,DL,NN,DL/ND,-,LD,NN/D,-,-,L/NDL,DL,DL,- L";
    assert_eq!(reference::count(&reference::board(q8), 'L', 2), 160);
    let q5 = "NN,-,D,NN/N,ND,-,-/L,LD,L,D/-,ND,L,N L";
    assert_eq!(
        reference::count(&reference::board(q5), 'L', 2),
        perft(&pos(q5), 2)
    );
}

// ---- The random-simulation kit ----------------------------------------------------------

#[test]
fn random_games_default_options() {
    random_simulation::<Qawale>(&QawaleOptions::default(), 2000, 0x51A7);
}

#[test]
fn random_games_other_options() {
    for (first_player, both_lines) in [
        (FirstPlayer::Light, BothLines::Draw),
        (FirstPlayer::Random, BothLines::MoverWins),
        (FirstPlayer::Random, BothLines::Draw),
    ] {
        let options = QawaleOptions {
            first_player,
            both_lines,
        };
        random_simulation::<Qawale>(&options, 400, 0xBEEF);
    }
}

#[test]
fn random_games_from_scenario_positions() {
    let options = QawaleOptions::default();
    for text in [
        "NN,-,-,NN/-,-,-,-/-,NDN,-,-/N,-,-,N L b2:NE",
        "NN,DL,NN,DL/ND,-,LD,NN/D,-,-,L/NDL,DL,DL,- L",
        "NN,-,-,NN/-,-,-,-/-,DDDD,-,-/NN,LLLL,-,NN D",
    ] {
        random_simulation_from::<Qawale>(text, &options, 200, 3);
    }
}
