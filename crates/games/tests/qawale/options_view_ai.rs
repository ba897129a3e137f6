//! Options (§5 D4, D8), the board view, resignation, the heuristics and the registry.

use super::*;
use ludus_engine::{Notation, Presentation, Rules};

// ---- Options (§5 D4, D8) ---------------------------------------------------------------

#[test]
fn first_player_option() {
    let light = QawaleOptions {
        first_player: FirstPlayer::Light,
        ..QawaleOptions::default()
    };
    let state = Qawale::new(&light, 0);
    assert_eq!(state.to_move(), Some(LIGHT));
    assert_eq!(state.position(), "NN,-,-,NN/-,-,-,-/-,-,-,-/NN,-,-,NN L");
    let after = play(&state, "a1:NEN");
    assert_eq!(after.position(), "NN,-,-,NN/-,L,-,-/N,N,-,-/-,-,-,NN D");
    // Seat identities stay: seat 1 is Dark.
    assert_eq!(after.seat_name(Seat::FIRST), "Dark");
    assert_eq!(after.to_move(), Some(DARK));
    // Dark first refuses Light to move at the start; Light first accepts it.
    assert!(Qawale::from_position(&state.position(), &QawaleOptions::default()).is_err());
    assert!(Qawale::from_position(&after.position(), &light).is_ok());
    assert!(Qawale::from_position(START, &light).is_err());

    let random = QawaleOptions {
        first_player: FirstPlayer::Random,
        ..QawaleOptions::default()
    };
    let firsts: HashSet<_> = (0..32)
        .map(|seed| Qawale::new(&random, seed).to_move())
        .collect();
    assert_eq!(firsts.len(), 2, "a random first player comes out both ways");
    assert_eq!(
        Qawale::new(&random, 7).to_move(),
        Qawale::new(&random, 7).to_move()
    );
    assert!(Qawale::from_position(START, &random).is_ok());
    assert!(Qawale::from_position(&state.position(), &random).is_ok());
}

#[test]
fn options_parse_by_name_and_refuse_bad_values() {
    let options: QawaleOptions =
        parse_options("qawale", &["first_player=light", "both_lines=draw"]).unwrap();
    assert_eq!(options.first_player, FirstPlayer::Light);
    assert_eq!(options.both_lines, BothLines::Draw);
    assert!(parse_options::<QawaleOptions>("qawale", &["first_player=blue"]).is_err());
    assert!(parse_options::<QawaleOptions>("qawale", &["size=5"]).is_err());
    let json = serde_json::json!({ "both_lines": "mover_wins" });
    assert_eq!(
        options_from_json::<QawaleOptions>("qawale", &json).unwrap(),
        QawaleOptions::default()
    );
    assert_eq!(Qawale::INFO.id, "qawale");
    assert_eq!(Qawale::INFO.options.len(), 2);
    assert!(ludus_games::game_info("Qawale").is_ok());
}

// ---- View, resignation, heuristics ------------------------------------------------------

#[test]
fn view_shows_stacks_hands_and_status() {
    let state = play(&pos(START), "a1:NEN");
    let view = state.view();
    assert_eq!((view.width, view.height, view.cells.len()), (4, 4, 16));
    let b3 = &view.cells[view.cell_named("b3").unwrap().to_usize()];
    assert_eq!((b3.x, b3.y), (1, 2));
    assert_eq!(b3.stack.len(), 1);
    assert_eq!(b3.stack[0].kind, 'D');
    assert_eq!(b3.stack[0].owner, Some(DARK));
    let d4 = &view.cells[view.cell_named("d4").unwrap().to_usize()];
    assert_eq!(d4.stack.iter().map(|p| p.kind).collect::<String>(), "NN");
    assert_eq!(d4.stack[0].owner, None);
    assert_eq!(view.hands[0].pieces[0].1, 7);
    assert_eq!(view.hands[1].pieces[0].1, 8);
    assert_eq!(
        view.status,
        "Light to move: choose a stack (8 stones in hand)"
    );

    let mut mid = state.clone();
    mid.apply(QawaleAction::Stack(sq("b2")));
    assert_eq!(mid.view().status, "Light sows 2 stones from b2 (N L)");
    let input = mid.action_input(QawaleAction::Step(Dir::W));
    assert_eq!(input.cells[..], [view.cell_named("a2").unwrap()]);
    let input = state.action_input(QawaleAction::Stack(sq("b3")));
    assert_eq!(input.cells[..], [view.cell_named("b3").unwrap()]);
}

#[test]
fn resignation_ends_the_game_even_mid_turn() {
    let mut state = pos(START);
    state.apply(QawaleAction::Stack(sq("a1")));
    state.resign(DARK);
    assert_eq!(winner(&state), Some(Verdict::Win(LIGHT)));
    assert_eq!(state.outcome().unwrap().reason, "Dark resigned");
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    assert!(actions.is_empty());
    assert!(matches!(
        state.parse_action("N"),
        Err(MoveError::GameOver(_))
    ));
}

#[test]
fn seed_heuristic_prefers_own_stones() {
    // Dark to move: b2 holds two D, d4 none.
    let state = pos("NN,-,-,NN/-,-,-,-/L,DND,-,D/NN,L,-,N L");
    let state = play(&state, "d2:NW");
    // Light's turn dropped D on d3 and L on c3; b2 holds two D.
    assert!(
        state.seed_action_score(QawaleAction::Stack(sq("b2")))
            > state.seed_action_score(QawaleAction::Stack(sq("d4")))
    );
    // Lift b2 (D N D + D): the first stone to drop is Dark's, so prefer the square whose rank
    // and file hold most Dark stones: N (b3) sees d3's D in rank 3.
    let mut sowing = state.clone();
    sowing.apply(QawaleAction::Stack(sq("b2")));
    let score = |dir| sowing.seed_action_score(QawaleAction::Step(dir));
    assert_eq!(score(Dir::N), 1);
    assert_eq!(score(Dir::E), 0);
    assert_eq!(score(Dir::W), 0);
    sowing.apply(QawaleAction::Step(Dir::N)); // D on b3
                                              // The next stone is neutral: fewest Dark stones wins. N (b4): file b holds b3's D, 100 - 1;
                                              // E (c3) and W (a3): rank 3 holds b3's and d3's D, 100 - 2.
    let score = |dir| sowing.seed_action_score(QawaleAction::Step(dir));
    assert_eq!(score(Dir::N), 99);
    assert_eq!(score(Dir::E), 98);
    assert_eq!(score(Dir::W), 98);
}

#[test]
fn seed_heuristic_counts_the_target_square_twice() {
    // Dark to move; c2 holds a D. Lift a1 (N N D): the first stone is neutral, so the seed
    // prefers the fewest Dark stones in the target's rank plus file.
    let state = pos("NN,-,-,NN/-,-,-,-/-,-,D,L/NN,-,-,NN D");
    let mut sowing = state.clone();
    sowing.apply(QawaleAction::Stack(sq("a1")));
    // N (a2): rank 2 holds c2's D once: 100 - 1. E (b1): nothing: 100.
    assert_eq!(sowing.seed_action_score(QawaleAction::Step(Dir::N)), 99);
    assert_eq!(sowing.seed_action_score(QawaleAction::Step(Dir::E)), 100);
    // Lift d1 and drop its first stone west, on c1.
    let mut sowing = state.clone();
    sowing.apply(QawaleAction::Stack(sq("d1")));
    sowing.apply(QawaleAction::Step(Dir::W));
    // Now at c1, the next stone is neutral; N (c2) is the D's own square: rank and file, 100 - 2.
    assert_eq!(sowing.seed_action_score(QawaleAction::Step(Dir::N)), 98);
}

#[test]
fn the_registry_builds_qawale_and_plays_text() {
    let mut game = ludus_games::new_game("qawale", &["both_lines=draw".into()], None, 0).unwrap();
    assert_eq!(game.position(), START);
    assert_eq!(game.play("a1:NEN").unwrap(), 4);
    let moves: Vec<String> = game.legal_moves().into_iter().map(|m| m.notation).collect();
    assert_eq!(moves, ["d1", "a2", "b2", "b3", "a4", "d4"]);
    assert_eq!(game.history()[0].text, "a1:NEN");
    let from = ludus_games::new_game("QAWALE", &[], Some(&format!("{START} a1:N")), 0).unwrap();
    assert_eq!(from.position(), format!("{START} a1:N"));
    assert!(ludus_games::new_game("qawale", &[], Some("nonsense"), 0).is_err());
}

#[test]
fn evaluation_likes_lines_and_threats() {
    let start = pos(START);
    assert_eq!(start.evaluate(DARK), -start.evaluate(LIGHT));
    // Light has three L tops on rank 1 and moves next.
    let threat = pos("NN,NN,-,NN/-,-,-,D/-,-,-,-/NNDL,DL,DL,- L");
    assert!(threat.evaluate(LIGHT) > 100, "{}", threat.evaluate(LIGHT));
    assert!(threat.evaluate(DARK) < -100);
}

#[test]
fn heuristics_answer_on_every_state_of_random_games() {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
    let mut actions = Vec::new();
    for _ in 0..200 {
        let mut state = Qawale::new(&QawaleOptions::default(), 0);
        while let Some(seat) = state.to_move() {
            let score = state.evaluate(seat);
            assert!(score.abs() < ludus_engine::WIN_SCORE, "{score}");
            state.legal_actions(&mut actions);
            for &action in &actions {
                let rated = state.seed_action_score(action);
                assert!((-1000..1000).contains(&rated), "{rated}");
            }
            state.apply(*actions.choose(&mut rng).unwrap());
        }
    }
}

// Quiescence (`ai:alphabeta:quiesce=true`) follows the sowing steps to the end of the turn.
#[test]
fn sowing_steps_are_tactical_and_stack_choices_are_not() {
    let start = pos(START);
    let mut actions = Vec::new();
    start.legal_actions(&mut actions);
    assert!(actions.iter().all(|&a| !start.is_tactical(a)));
    let mut lifted = start.clone();
    lifted.apply(QawaleAction::Stack(sq("a1")));
    lifted.legal_actions(&mut actions);
    assert_eq!(actions.len(), 2, "a1 sows north or east");
    assert!(actions.iter().all(|&a| lifted.is_tactical(a)));
}
