//! Resignation, the board view and its action inputs, and the registry entry with its option.

use super::*;
use ludus_engine::{Notation, Presentation, Rules};

// Resignation ends the game for the other side.
#[test]
fn resignation() {
    let mut state = Replica::new(&ReplicaOptions::default(), 0);
    state.resign(WHITE);
    assert_eq!(winner(&state), Some((BLACK, "White resigned".into())));
    assert_eq!(state.to_move(), None);
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
            .map(|c| &*view.cells[c.to_usize()].name)
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
