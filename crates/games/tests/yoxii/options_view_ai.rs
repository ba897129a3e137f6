//! The first_player option (§2), resignation, the board view (§9), the heuristics (§9)
//! and the registry.

use super::*;
use ludus_engine::{Notation, Presentation, Rules};

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
    assert_eq!(input.cells[..], [view.cell_named("b5").unwrap()]);
    assert_eq!(input.label.as_deref(), Some("2"));
    let input = start.action_input(start.parse_action("e4").unwrap());
    assert_eq!(input.cells[..], [start.view().cell_named("e4").unwrap()]);
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
    // The pending placement counts: White's best value, a 4, in the `pending` term (how
    // much it weighs against Red's coming Totem move is the fitted weights' business).
    let mut terms = [0.0; 11];
    moved.terms(WHITE, &mut terms);
    assert_eq!(Yoxii::TERMS[3], "pending");
    assert!((terms[3] - 4.0).abs() < f64::EPSILON, "{terms:?}");
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

// Quiescence (`ai:alphabeta:quiesce=true`) follows the placement that completes a turn.
#[test]
fn placements_are_tactical_and_totem_moves_are_not() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    assert!(legal(&start).iter().all(|&a| !start.is_tactical(a)));
    let moved = after(&start, "d5");
    let placements = legal(&moved);
    assert_eq!(placements.len(), 32, "8 squares × 4 values");
    assert!(placements.iter().all(|&a| moved.is_tactical(a)));
}

// Forward pruning (`ai:alphabeta:prune=true`, level 5) leaves out the placements of a value
// between the smallest and the largest the mover holds; never a Totem move.
#[test]
fn placements_of_a_middle_value_are_pruned() {
    let start = Yoxii::new(&YoxiiOptions::default(), 0);
    assert!(legal(&start).iter().all(|&a| !start.is_pruned(a)));
    let pruned_of = |state: &Yoxii| -> Vec<String> {
        let pruned = legal(state).into_iter().filter(|&a| state.is_pruned(a));
        pruned.map(|a| state.format_action(a)).collect()
    };
    let pruned = pruned_of(&after(&start, "d5"));
    assert_eq!(pruned.len(), 16, "values 2 and 3 on 8 squares: {pruned:?}");
    assert!(pruned.iter().all(|a| a.contains("2@") || a.contains("3@")));
    // White holds only 1, 2 and 3 (its fours are on the board): 2 is the one middle value.
    let no_fours = Yoxii::from_position(
        "XXX/...../......./...#.../......./...../xxx w",
        &YoxiiOptions::default(),
    );
    let pruned_values = pruned_of(&after(&no_fours.unwrap(), "d5"));
    assert_eq!(pruned_values.len(), 8, "{pruned_values:?}");
    assert!(
        pruned_values.iter().all(|a| a.contains("2@")),
        "{pruned_values:?}"
    );
}
