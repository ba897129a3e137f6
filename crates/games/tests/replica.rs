//! Replica against its spec, `shared/rules/replica.md`: the worked scenarios R1–R9 (§7) under
//! both sight modes, perft goldens (`data/replica.perft`), notation and position strings
//! (§1, §6), the termination bound (§4), the board view and the heuristics.

use std::collections::HashSet;

use ludus_engine::testkit::random_simulation;
use ludus_engine::{parse_options, perft, Game, MoveError, Seat, Verdict};
use ludus_games::replica::{Replica, ReplicaAction, ReplicaOptions, Sight, Square};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

const START: &str = "4bbbB/4bbbb/6bb/6bb/ww6/ww6/wwww4/Wwww4 w";
const BOTH: [Sight; 2] = [Sight::Forward3, Sight::All8];

fn options(sight: Sight) -> ReplicaOptions {
    ReplicaOptions { sight }
}

fn at(position: &str, sight: Sight) -> Replica {
    Replica::from_position(position, &options(sight)).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn moves(state: &Replica) -> String {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    actions
        .iter()
        .map(|&a| state.format_action(a))
        .collect::<Vec<_>>()
        .join(" ")
}

fn count(state: &Replica) -> usize {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    actions.len()
}

fn play(state: &Replica, text: &str) -> Replica {
    let mut next = state.clone();
    let action = next.parse_action(text).unwrap_or_else(|e| panic!("{e}"));
    next.try_apply(action).unwrap();
    next
}

fn winner(state: &Replica) -> Option<(Seat, String)> {
    state
        .outcome()
        .map(|o| (o.winner().expect("no draws"), o.reason.to_string()))
}

const WHITE: Seat = Seat::FIRST;
const BLACK: Seat = Seat::SECOND;

// §7 R1 — the initial position (§2):
//   8  . . . . b b b B
//   7  . . . . b b b b
//   6  . . . . . . b b
//   5  . . . . . . b b
//   4  w w . . . . . .
//   3  w w . . . . . .
//   2  w w w w . . . .
//   1  W w w w . . . .
//      a b c d e f g h
const R1_WHITE: &str = "a1-a5 a1-e1 a1-c3 b1-b5 b1-e1 b1-d3 b1* c1-c3 c1-e1 c1-e3 c1* \
    d1-d3 d1-e1 d1-e2 d1* a2-a5 a2-e2 a2-c4 a2* b2-b5 b2-e2 b2-c3 b2* c2-c3 c2-e2 c2-d3 \
    d2-d3 d2-e2 d2-e3 a3-a5 a3-c3 a3-c5 a3* b3-b5 b3-c3 b3-c4 a4-a5 a4-c4 a4-b5 a4* b4-b5 \
    b4-c4 b4-c5";

#[test]
fn r1_initial_position_43_moves_each_side() {
    let normalised = R1_WHITE.split_whitespace().collect::<Vec<_>>().join(" ");
    for sight in BOTH {
        let start = Replica::new(&options(sight), 0);
        assert_eq!(start.position(), START);
        assert_eq!(start.to_move(), Some(WHITE));
        assert_eq!(moves(&start), normalised, "{sight:?}");
        assert_eq!(count(&start), 43);

        // Black's 43 are the 180° mirror image of White's.
        let black = at(&START.replace(" w", " b"), sight);
        let listed = moves(&black);
        assert!(
            listed.starts_with("g5-g4 g5-f5 g5-f4 h5-h4 h5-f5 h5-g4 h5*"),
            "{listed}"
        );
        let black_set: HashSet<String> = listed.split(' ').map(str::to_string).collect();
        let mirrored: HashSet<String> = normalised.split(' ').map(mirror).collect();
        assert_eq!(black_set, mirrored);
        for m in ["h8-h4", "h8-d8", "h8-f6", "g8*"] {
            assert!(black_set.contains(m), "{m}");
        }
    }
}

/// The 180° image of a move text (`a1-a5` → `h8-h4`).
fn mirror(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='h' => char::from(b'h' - (c as u8 - b'a')),
            '1'..='8' => char::from(b'8' - (c as u8 - b'1')),
            other => other,
        })
        .collect()
}

// §7 R2 — a jump over two friendly pieces captures an enemy:
//   8  . . . . . . . B
//   6  . . b . . . . .
//   5  . . w . . . . .
//   4  . . w . . . . .
//   3  . . w . . . . .
//   1  W . . . . . . .
#[test]
fn r2_jump_over_two_friends_captures() {
    for sight in BOTH {
        let state = at("7B/8/2b5/2w5/2w5/2w5/8/W7 w", sight);
        assert_eq!(
            moves(&state),
            "a1-a2 a1-b1 a1-b2 c3xc6 c3-d3 c3-d4 c3* c4xc6 c4-d4 c4-d5 c5xc6 c5-d5 c5-d6"
        );
        let after = play(&state, "c3xc6");
        assert_eq!(after.position(), "7B/8/2w5/2w5/2w5/8/8/W7 b");
        assert_eq!(after.outcome(), None);
        assert_eq!(moves(&after), "h8-h7 h8-g8 h8-g7");
    }
}

// §7 R3 — a transform blocked by an enemy in the line:
//   8  . . . . . . . B
//   4  w . . w . . . .
//   3  . . . . . . . .
//   2  b w . . . . . .
//   1  W . . . . . . .
#[test]
fn r3_transform_blocked_by_an_enemy() {
    for sight in BOTH {
        let state = at("7B/8/8/8/w2w4/8/bw6/W7 w", sight);
        assert_eq!(
            moves(&state),
            "a1xa2 a1-b1 a1-c3 b2-b3 b2-c2 b2-c3 b2* a4-a5 a4-b4 a4-b5 d4-d5 d4-e4 d4-e5 d4*"
        );
        let err = state.parse_action("a4*").unwrap_err();
        assert_eq!(err.to_string(), "illegal move 'a4*': no White king sees a4");
        assert!(state.parse_action("d4*").is_ok());
    }
}

// §7 R4 — a king reaches the corner by jumping:
//   8  . . . . . . . .
//   7  . . . . . . w .
//   6  . . . . . W . .
//   3  . . B . . . . .
#[test]
fn r4_king_jumps_to_the_corner_and_wins() {
    for sight in BOTH {
        let state = at("8/6w1/5W2/8/8/2B5/8/8 w", sight);
        assert_eq!(moves(&state), "f6-f7 f6-g6 f6-h8 g7-g8 g7-h7 g7-h8 g7*");
        let after = play(&state, "f6-h8");
        assert_eq!(after.position(), "7W/6w1/8/8/8/2B5/8/8 b");
        assert_eq!(winner(&after), Some((WHITE, "king reached h8".into())));
        assert_eq!(after.to_move(), None);
        assert_eq!(count(&after), 0);

        let plain = play(&state, "g7-h8");
        assert_eq!(plain.position(), "7w/8/5W2/8/8/2B5/8/8 b");
        assert_eq!(plain.outcome(), None);
    }
}

// §7 R5 — a plain piece captures a king:
//   8  . . . . . . . B
//   7  . . . . . . w .
//   1  W . . . . . . .
#[test]
fn r5_plain_piece_captures_the_king() {
    for sight in BOTH {
        let state = at("7B/6w1/8/8/8/8/8/W7 w", sight);
        assert_eq!(moves(&state), "a1-a2 a1-b1 a1-b2 g7-g8 g7-h7 g7xh8 g7*");
        let after = play(&state, "g7xh8");
        assert_eq!(after.position(), "7w/8/8/8/8/8/8/W7 b");
        assert_eq!(winner(&after), Some((WHITE, "king captured".into())));
        // The finished position string reads back as the same finished game.
        let reread = at(&after.position(), sight);
        assert_eq!(winner(&reread), Some((WHITE, "king captured".into())));
    }
}

// §7 R6 — forward3 and all8 differ:
//   8  B . . . . . . .
//   6  . . . w . w . .
//   4  . w . W . . . .
//   2  . w . . . . . .
#[test]
fn r6_forward3_and_all8_differ() {
    let position = "B7/8/3w1w2/8/1w1W4/8/1w6/8 w";
    let forward3 = at(position, Sight::Forward3);
    assert_eq!(count(&forward3), 17);
    let transforms = |s: &Replica| {
        moves(s)
            .split(' ')
            .filter(|m| m.ends_with('*'))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(transforms(&forward3), ["d6*", "f6*"]);
    let all8 = at(position, Sight::All8);
    assert_eq!(count(&all8), 19);
    assert_eq!(transforms(&all8), ["b2*", "b4*", "d6*", "f6*"]);
    assert!(forward3.parse_action("b2*").is_err());
    assert!(all8.parse_action("b2*").is_ok());
}

// §7 R7 — transforming a piece on the target corner wins:
//   8  B . . . . . . w
//   5  . . . . W . . .
#[test]
fn r7_transform_on_the_corner_wins() {
    for sight in BOTH {
        let state = at("B6w/8/8/4W3/8/8/8/8 w", sight);
        assert_eq!(moves(&state), "e5-e6 e5-f5 e5-f6 h8*");
        let after = play(&state, "h8*");
        assert_eq!(after.position(), "B6W/8/8/4W3/8/8/8/8 b");
        assert_eq!(winner(&after), Some((WHITE, "king reached h8".into())));
        assert_eq!(after.outcome().unwrap().verdict, Verdict::Win(WHITE));
    }
}

// §7 R8 — a piece with no advances:
//   8  B . . . . . . w
//   7  . . . . . . . w
//   1  W . . . . . . .
#[test]
fn r8_piece_without_advances() {
    for sight in BOTH {
        let state = at("B6w/7w/8/8/8/8/8/W7 w", sight);
        assert_eq!(moves(&state), "a1-a2 a1-b1 a1-b2 h8*");
        let err = state.parse_action("h7-h8").unwrap_err();
        assert!(err.to_string().contains("it has no advance"), "{err}");
        assert!(state.parse_action("h7*").is_err());
        let after = play(&state, "h8*");
        assert_eq!(winner(&after), Some((WHITE, "king reached h8".into())));
    }
}

// §7 R9 — Black's directions and sight:
//   8  . . . . . . . B
//   5  . . . . b . . .
//   1  W . . . . . . .
#[test]
fn r9_black_directions_and_sight() {
    for sight in BOTH {
        let state = at("7B/8/8/4b3/8/8/8/W7 b", sight);
        assert_eq!(moves(&state), "e5-e4 e5-d5 e5-d4 e5* h8-h7 h8-g8 h8-g7");
    }
}

// §4 — a Black king on a1 wins for Black; capture of any king wins even with others left.
#[test]
fn black_wins_on_a1_and_any_king_capture_wins() {
    let state = at("7B/8/8/8/8/8/1B6/W1w5 b", Sight::Forward3);
    let after = play(&state, "b2xa1");
    assert_eq!(winner(&after), Some((BLACK, "king captured".into())));
    let state = at("7B/8/8/8/8/8/BW6/8 b", Sight::Forward3);
    let after = play(&state, "a2-a1");
    assert_eq!(winner(&after), Some((BLACK, "king reached a1".into())));
    // White has two kings; capturing one still wins.
    let state = at("7B/8/8/8/8/W7/1w6/1WB5 w", Sight::Forward3);
    let after = play(&state, "b1xc1");
    assert_eq!(winner(&after), Some((WHITE, "king captured".into())));
}

// Perft goldens, as data (`data/replica.perft`).
#[test]
fn perft_goldens() {
    let text = include_str!("data/replica.perft");
    let mut checked = 0;
    let mut current: Option<(String, String, Vec<String>)> = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "id" => current = Some((rest.to_string(), START.to_string(), Vec::new())),
            "position" => {
                let c = current.as_mut().expect("id first");
                c.1 = if rest == "startpos" { START } else { rest }.to_string();
            }
            "options" => {
                let c = current.as_mut().expect("id first");
                c.2 = rest.split_whitespace().map(str::to_string).collect();
            }
            "perft" => {
                let (id, position, pairs) = current.as_ref().expect("id first");
                let (turns, expected) = rest.split_once(' ').expect("perft TURNS COUNT");
                let (turns, expected): (u32, u64) =
                    (turns.parse().unwrap(), expected.parse().unwrap());
                if cfg!(debug_assertions) && expected > 2_000_000 {
                    continue;
                }
                let opts: ReplicaOptions = parse_options("replica", pairs).unwrap();
                let state = Replica::from_position(position, &opts).unwrap();
                assert_eq!(perft(&state, turns), expected, "{id} perft {turns}");
                checked += 1;
            }
            other => panic!("unknown perft line '{other}'"),
        }
    }
    assert!(checked >= 30, "only {checked} perft lines checked");
}

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

// §4 — finished games read from position strings.
#[test]
fn finished_positions_are_recognised() {
    let won = at("7W/8/8/8/8/8/8/1B6 b", Sight::Forward3);
    assert_eq!(winner(&won), Some((WHITE, "king reached h8".into())));
    let lost_king = at("7B/8/8/8/8/8/8/w7 w", Sight::Forward3);
    assert_eq!(winner(&lost_king), Some((BLACK, "king captured".into())));
    assert_eq!(count(&lost_king), 0);
}

// Resignation ends the game for the other side.
#[test]
fn resignation() {
    let mut state = Replica::new(&ReplicaOptions::default(), 0);
    state.resign(WHITE);
    assert_eq!(winner(&state), Some((BLACK, "White resigned".into())));
    assert_eq!(state.to_move(), None);
}

// The conformance kit under both sight modes.
#[test]
fn random_simulation_forward3() {
    random_simulation::<Replica>(&options(Sight::Forward3), 5000, 1);
}

#[test]
fn random_simulation_all8() {
    random_simulation::<Replica>(&options(Sight::All8), 5000, 2);
}

/// Σ(14 − file − rank) + non-kings for one side (spec §4).
fn potential(state: &Replica, seat: Seat) -> u32 {
    let pieces = state.pieces_of(seat);
    let kings = state.kings_of(seat);
    Square::all()
        .filter(|s| pieces & s.bit() != 0)
        .map(|s| {
            let progress = if seat == WHITE {
                u32::from(s.file() + s.rank())
            } else {
                u32::from(14 - s.file() - s.rank())
            };
            14 - progress + u32::from(kings & s.bit() == 0)
        })
        .sum()
}

// §4 — termination: each action lowers the mover's potential, the opponent's never rises, so no
// game exceeds 302 plies; "no legal move" is never reached.
#[test]
fn games_end_within_302_plies() {
    assert_eq!(Replica::INFO.max_turns, 302);
    let mut rng = SmallRng::seed_from_u64(7);
    let mut actions = Vec::new();
    let mut longest = 0;
    for game in 0..3000 {
        let sight = BOTH[game % 2];
        let mut state = Replica::new(&options(sight), 0);
        assert_eq!(potential(&state, WHITE), 151);
        assert_eq!(potential(&state, BLACK), 151);
        while state.outcome().is_none() {
            state.legal_actions(&mut actions);
            let mover = state.to_move().unwrap();
            let before = (
                potential(&state, mover),
                potential(&state, mover.opponent()),
            );
            state.apply(*actions.choose(&mut rng).unwrap());
            let after = (
                potential(&state, mover),
                potential(&state, mover.opponent()),
            );
            assert!(
                after.0 < before.0 && after.1 <= before.1,
                "{}",
                state.position()
            );
        }
        assert!(state.turn() <= 302);
        assert_ne!(state.outcome().unwrap().reason, "no legal move");
        longest = longest.max(state.turn());
    }
    assert!(longest > 20, "{longest}");
}

// The board view: checkered, kings marked, White light; clicks identify every action.
#[test]
fn board_view_and_action_inputs() {
    use ludus_engine::Hue;
    let state = at("7B/8/8/8/w2w4/8/bw6/W7 w", Sight::Forward3);
    let view = state.view();
    assert_eq!((view.width, view.height, view.cells.len()), (8, 8, 64));
    let a1 = &view.cells[view.cell_named("a1").unwrap().to_usize()];
    assert_eq!((a1.x, a1.y, a1.shaded), (0, 0, true));
    let piece = &a1.stack[0];
    assert_eq!(
        (piece.kind, piece.marked, piece.hue),
        ('K', true, Hue::Light)
    );
    let b1 = &view.cells[view.cell_named("b1").unwrap().to_usize()];
    assert!(!b1.shaded && b1.stack.is_empty());
    let a2 = &view.cells[view.cell_named("a2").unwrap().to_usize()].stack[0];
    assert_eq!(
        (a2.kind, a2.marked, a2.hue, a2.owner),
        ('M', false, Hue::Dark, Some(BLACK))
    );
    let h8 = view.cell_named("h8").unwrap().to_usize();
    assert_eq!((view.cells[h8].x, view.cells[h8].y), (7, 7));
    assert_eq!(view.to_move, Some(WHITE));
    assert!(view.status.starts_with("White to move"), "{}", view.status);

    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    let mut seen = HashSet::new();
    for &action in &actions {
        let input = state.action_input(action);
        let names: Vec<&str> = input
            .cells
            .iter()
            .map(|c| view.cells[c.to_usize()].name.as_str())
            .collect();
        let text = state.format_action(action);
        match action {
            ReplicaAction::Advance { .. } => {
                assert_eq!(names.join(""), text.replace(['-', 'x'], ""));
                assert_eq!(input.label, None);
            }
            ReplicaAction::Transform(_) => {
                assert_eq!(names, [&text[..2], &text[..2]]);
                assert_eq!(input.label.as_deref(), Some("transform"));
            }
        }
        assert!(seen.insert((input.cells, input.label)), "{text}");
    }
    let over = play(&at("7B/6w1/8/8/8/8/8/W7 w", Sight::Forward3), "g7xh8");
    assert_eq!(
        over.view().status,
        "White wins: king captured — White 2 (1 king), Black 0 (0 kings)"
    );
}

// The registry knows the game and its option.
#[test]
fn registry_entry() {
    let info = ludus_games::game_info("replica").unwrap();
    assert_eq!(info.id, "replica");
    assert_eq!(info.options[0].name, "sight");
    let game = ludus_games::new_game("replica", &["sight=all8".to_string()], None, 0).unwrap();
    assert_eq!(game.position(), START);
    assert!(ludus_games::new_game("replica", &["sight=six".to_string()], None, 0).is_err());
    let opts: ReplicaOptions = parse_options("replica", &["sight=all8"]).unwrap();
    assert_eq!(opts.sight, Sight::All8);
    assert_eq!(
        ludus_engine::options_to_pairs(&ReplicaOptions::default()),
        [("sight".to_string(), "forward3".to_string())]
    );
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
