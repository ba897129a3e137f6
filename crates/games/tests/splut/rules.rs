//! Part of the Splut! tests (see `tests/splut.rs`): options, draws, resignation and random games.

use super::*;
use ludus_engine::{Notation, Presentation, Rules};

// ---------------------------------------------------------------------------------------
// Options

#[test]
fn options_are_validated() {
    let bad = |pairs: &[&str], needle: &str| {
        let e = parse_options::<SplutOptions>("splut", pairs).unwrap_err();
        assert!(e.to_string().contains(needle), "{pairs:?}: {e}");
    };
    bad(&["size=10"], "expected an odd number from 9 to 25");
    bad(&["size=7"], "expected an odd number from 9 to 25");
    bad(&["size=27"], "expected an odd number from 9 to 25");
    bad(&["players=1"], "expected 2, 3 or 4");
    bad(&["players=5"], "expected 2, 3 or 4");
    bad(&["repetition=1"], "0 (off) or a count");
    bad(&["colour=red"], "unknown option");
    let o: SplutOptions =
        parse_options("splut", &["size=13", "players=4", "levitate_follow=on"]).unwrap();
    assert_eq!((o.size, o.players, o.levitate_follow), (13, 4, true));
    assert!(SplutOptions::default().validate().is_ok());
    assert_eq!(Splut::INFO.id, "splut");
    let names: Vec<&str> = Splut::INFO.options.iter().map(|o| o.name).collect();
    assert_eq!(
        names,
        [
            "players",
            "size",
            "max_turns",
            "repetition",
            "levitate_follow"
        ]
    );
}

#[test]
fn setup_of_every_side_on_a_larger_board() {
    let s = Splut::new(
        &SplutOptions {
            players: 4,
            size: 13,
            ..SplutOptions::default()
        },
        0,
    );
    assert_eq!(
        s.position(),
        "size=13 seats=south,west,north,east tomove=south turn=0 used=0 lev=unused locked=-\n\
         south: Sf2 Dg2 Th2\nwest: Sb8 Db7 Tb6\nnorth: Sh12 Dg12 Tf12\neast: Sl6 Dl7 Tl8\n\
         rocks: g1 a7 g13 m7"
    );
    assert_eq!(s.seat_count(), 4);
    assert_eq!(s.seat_name(Seat::new(3)), "Yellow");
}

#[test]
fn turn_limit_draws_and_zero_means_none() {
    let text = pos2("Sd2 De2 Tf2", "Sf8 De8 Td8", "e1 a5 e9 i5");
    let limited = SplutOptions {
        max_turns: 6,
        ..SplutOptions::default()
    };
    let mut s = load(&text, &limited);
    for step in ["Sd2-d3", "Sd3-d4", "Sd4-d5"] {
        play(&mut s, step);
    }
    let outcome = s.outcome().expect("turn 6 reached");
    assert_eq!(
        (outcome.verdict, &*outcome.reason),
        (Verdict::Draw, "turn limit")
    );
    let unlimited = SplutOptions {
        max_turns: 0,
        ..SplutOptions::default()
    };
    let mut s = load(&text.replace("turn=5", "turn=50000"), &unlimited);
    for step in ["Sd2-d3", "Sd3-d4", "Sd4-d5"] {
        play(&mut s, step);
    }
    assert!(s.outcome().is_none());
    let e = Splut::from_position(
        &text.replace("turn=5", "turn=1001"),
        &SplutOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("past the turn limit"), "{e}");
}

/// Two turns each that bring every piece back: the turn-start position recurs every 4 turns.
fn shuffle(s: &mut Splut, rounds: usize) {
    for _ in 0..rounds {
        for step in [
            "Sd2-d3", "Sd3-d4", "De2-e3", "Sf8-f7", "Sf7-f6", "De8-e7", "Sd4-d3", "Sd3-d2",
            "De3-e2", "Sf6-f7", "Sf7-f8", "De7-e8",
        ] {
            assert!(s.outcome().is_none(), "ended before {step}");
            play(s, step);
        }
    }
}

#[test]
fn repetition_draws_on_the_third_occurrence() {
    let text = pos2("Sd2 De2 Tf2", "Sf8 De8 Td8", "e1 a5 e9 i5");
    let mut s = load(&text, &SplutOptions::default());
    let key = s.key();
    shuffle(&mut s, 1);
    assert_eq!(s.key(), key);
    assert!(s.outcome().is_none(), "second occurrence only");
    shuffle(&mut s, 1);
    let outcome = s.outcome().expect("third occurrence");
    assert_eq!(
        (outcome.verdict, &*outcome.reason),
        (Verdict::Draw, "repetition")
    );
    // Option: limit 2 draws one cycle earlier; 0 never draws.
    let two = SplutOptions {
        repetition: 2,
        ..SplutOptions::default()
    };
    let mut s = load(&text, &two);
    shuffle(&mut s, 1);
    assert!(s.outcome().is_some());
    let off = SplutOptions {
        repetition: 0,
        ..SplutOptions::default()
    };
    let mut s = load(&text, &off);
    shuffle(&mut s, 5);
    assert!(s.outcome().is_none());
}

// ---------------------------------------------------------------------------------------
// Resignation

#[test]
fn resignation_in_two_player_games() {
    let mut s = Splut::new(&SplutOptions::default(), 0);
    s.resign(Seat::FIRST);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(Seat::SECOND));
    assert_eq!(outcome.reason, "Blue resigned");
    let before = s.position();
    s.resign(Seat::SECOND);
    assert_eq!(s.position(), before, "ignored once over");
}

#[test]
fn resignation_with_three_and_four_players_removes_one_team() {
    let mut s = Splut::new(&opts(4), 0);
    play(&mut s, "Sd2-d3");
    // West resigns while it is West's turn: the turn passes on to North.
    s.resign(Seat::new(1));
    assert!(s.outcome().is_none());
    assert_eq!(s.to_move(), Some(Seat::new(2)));
    assert_eq!(s.turn(), 2);
    assert!(s.position().contains("west: -\n"));
    // East resigns out of turn: North keeps its turn.
    play(&mut s, "Sf8-f7");
    s.resign(Seat::new(3));
    assert_eq!(s.to_move(), Some(Seat::new(2)));
    assert!(s.position().contains("used=1"));
    play(&mut s, "Sf7-f6");
    play(&mut s, "Sf6-f5");
    assert_eq!(s.to_move(), Some(Seat::FIRST));
    s.resign(Seat::FIRST);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(Seat::new(2)));
    assert_eq!(outcome.reason, "Blue resigned");
}

// ---------------------------------------------------------------------------------------
// The random-simulation kit. It assumes that a resignation ends the game (true with two
// players); with three or four a resigning team leaves and the others play on (issue #6), so
// there the kit runs in batches of 7 games (only every 8th game of a batch resigns) and
// resignation is tested above.

fn simulate(options: &SplutOptions, games: usize, seed: u64) {
    if options.players == 2 {
        random_simulation::<Splut>(options, games, seed);
    } else {
        for batch in 0..games.div_ceil(7) {
            random_simulation::<Splut>(options, 7, seed * 1000 + batch as u64);
        }
    }
}

fn sized(players: u32, size: u32) -> SplutOptions {
    SplutOptions {
        players,
        size,
        ..SplutOptions::default()
    }
}

#[test]
fn random_games_2p_size_9() {
    simulate(&SplutOptions::default(), 2000, 1);
}

#[test]
fn random_games_3p_size_9() {
    simulate(&sized(3, 9), 350, 2);
}

#[test]
fn random_games_4p_size_9() {
    simulate(&sized(4, 9), 350, 3);
}

#[test]
fn random_games_2p_size_13() {
    simulate(&sized(2, 13), 350, 4);
}

#[test]
fn random_games_3p_size_13() {
    simulate(&sized(3, 13), 210, 5);
}

#[test]
fn random_games_4p_size_13() {
    simulate(&sized(4, 13), 210, 6);
}

#[test]
fn random_games_with_levitate_follow() {
    let options = SplutOptions {
        levitate_follow: true,
        ..SplutOptions::default()
    };
    simulate(&options, 300, 7);
}

#[test]
fn random_games_three_and_four_players_with_resignations() {
    // The kit's checks for the part it cannot run: resign at random moments, the game goes
    // on without that team, and the record (with its `resign N` entries) replays exactly.
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;
    use rand::{RngExt, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(8);
    let mut actions = Vec::new();
    for game in 0..200 {
        let players = 3 + (game % 2);
        let mut session = Session::<Splut>::new(&opts(players), 0);
        let resign_at: Vec<u32> = (0..rng.random_range(1..players))
            .map(|_| rng.random_range(0..300))
            .collect();
        let mut decisions = 0;
        while session.state().outcome().is_none() {
            if resign_at.contains(&decisions) {
                let alive: Vec<usize> = session
                    .view()
                    .seats
                    .iter()
                    .filter(|s| s.alive)
                    .map(|s| s.seat.to_usize())
                    .collect();
                let seat = Seat::new(*alive.choose(&mut rng).unwrap() as u8);
                let before = alive.len();
                session.resign(seat);
                let after = session.view().seats.iter().filter(|s| s.alive).count();
                assert_eq!(after, before - 1);
                assert_eq!(session.state().outcome().is_some(), after == 1);
            }
            if session.state().outcome().is_some() {
                break;
            }
            session.state().legal_actions(&mut actions);
            if game % 10 == 0 {
                check_inputs(session.state(), &actions);
            }
            session.play(*actions.choose(&mut rng).unwrap()).unwrap();
            decisions += 1;
        }
        let replayed = Session::<Splut>::from_record(&session.record()).unwrap();
        assert_eq!(replayed.state().position(), session.state().position());
        assert_eq!(replayed.state().outcome(), session.state().outcome());
    }
}

/// Every legal step is chosen by its own cells and label: `[piece, destination]`, cells of
/// the view.
fn check_inputs(state: &Splut, actions: &[SplutAction]) {
    let cells = state.view().cells.len();
    let mut seen = std::collections::HashSet::new();
    for &action in actions {
        let input = state.action_input(action);
        assert!(input.cells.iter().all(|c| c.to_usize() < cells));
        assert_eq!(
            input.cells.len(),
            if action == SplutAction::Pass { 0 } else { 2 }
        );
        assert!(
            seen.insert((input.cells, input.label)),
            "{}",
            state.position()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Through the registry, as the command line and the terminal app drive it.

#[test]
fn registry_drives_splut_by_name_with_options() {
    use ludus_games::{game_info, load_record, new_game};
    assert_eq!(game_info("splut").unwrap().name, "Splut!");
    let e = new_game("splut", &["size=10".to_string()], None, 0).unwrap_err();
    assert!(e.to_string().contains("odd number from 9 to 25"), "{e}");
    let mut game = new_game("splut", &["players=4".to_string()], None, 0).unwrap();
    let moves: Vec<String> = game.legal_moves().into_iter().map(|m| m.notation).collect();
    assert_eq!(moves, ["Sd2-d3", "De2-e3", "Tf2-f3"]);
    // Whole turns and single steps, long and short forms, as `--after` feeds them.
    assert_eq!(game.play("Sd2-d3"), Ok(1));
    assert_eq!(game.play("Sb6-c6 Sc6-c7"), Ok(2));
    assert_eq!(game.play("Ss"), Ok(1));
    assert_eq!(game.turn(), 2);
    let history: Vec<String> = game.history().iter().map(|t| t.text.clone()).collect();
    assert_eq!(history, ["Sd2-d3", "Sb6-c6 Sc6-c7", "Sf8-f7"]);
    let replayed = load_record(&game.record()).unwrap();
    assert_eq!(replayed.position(), game.position());
    // A position string given on the command line (lines separated by ';').
    let text = "size=9 seats=south,north tomove=south turn=5 used=0 lev=unused locked=-; \
                south: Sd2 De2 Td4; north: Se7 Df7 Td8; rocks: e4 e1 a5 i5";
    let mut game = new_game("splut", &[], Some(text), 0).unwrap();
    assert_eq!(game.play("Te*n"), Ok(1));
    assert_eq!(game.outcome().unwrap().winner(), Some(Seat::FIRST));
    assert_eq!(game.history()[0].text, "Td4-e4*n#");
}

// ---------------------------------------------------------------------------------------
// Quiescence (`ai:alphabeta:quiesce=true`) follows throws only.

#[test]
fn throws_are_the_tactical_steps() {
    // §9.1: the troll's four throws from e4 are tactical, its walks and pull are not.
    let s = load2("Sd2 De2 Td4", "Se7 Df7 Td8", "e4 e1 a5 i5");
    let mut actions = Vec::new();
    s.legal_actions(&mut actions);
    let mut tactical: Vec<String> = actions
        .iter()
        .filter(|&&a| s.is_tactical(a))
        .map(|&a| s.format_action(a))
        .collect();
    tactical.sort();
    assert_eq!(
        tactical,
        sorted(&["Td4-e4*e", "Td4-e4*n#", "Td4-e4*s!", "Td4-e4*w"])
    );
}
