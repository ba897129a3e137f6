//! Replica against its spec, `shared/rules/replica.md`: the worked scenarios R1–R9 (§7) under
//! both sight modes, perft goldens (`data/replica.perft`), the termination bound (§4) and the
//! random-simulation kit. The playout's random draw is tested in `replica/draws.rs`. Notation and position strings (§1, §6) are tested in
//! `replica/notation.rs`; resignation, the board view and the registry in
//! `replica/view_registry.rs`.

use ludus_engine::{parse_options, MoveError, Notation, Rules, Seat, Verdict};
use std::collections::HashSet;

#[path = "replica/draws.rs"]
mod draws;
#[path = "replica/notation.rs"]
mod notation;
#[path = "replica/view_registry.rs"]
mod view_registry;

use ludus_engine::testkit::{check_perft_data, random_simulation};
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
    let checked = check_perft_data::<Replica>(include_str!("data/replica.perft"));
    assert!(checked >= 30, "only {checked} perft lines checked");
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
