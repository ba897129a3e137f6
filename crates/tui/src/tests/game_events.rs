//! What the game screen says when something happens that a person must not miss: a team
//! knocked out (Splut!), the last person out, and who won in the game-over box's title.

use super::{render, run_cmd, seat_choices, send};
use crate::app::{App, Confirm, Play};
use crate::msg::Msg;
use crate::play::{after_change, start};
use crate::setup::Setup;

/// Splut! spec §9.9: South's troll throws the rock from c4 north onto West's sorcerer on c7.
const S9_9: &str = "size=9 seats=south,west,north tomove=south turn=6 used=1 lev=unused locked=-
south: Sd2 De2 Td4
west: Sc7 Db5 Tb4
north: Sf8 De8 Td8
rocks: c4 e1 e9 i5";

fn knock_out_west(seats: &[&str]) -> App {
    let mut app = App::new((100, 30), 0, 7);
    let players = ["players=3".to_string()];
    let game = ludus_games::new_game("splut", &players, Some(S9_9), 1).unwrap();
    let setup = Setup::from_game(&game);
    let play = Play::new(game, &seat_choices(seats), setup, 1).unwrap();
    let cmd = start(&mut app, play);
    run_cmd(&mut app, cmd);
    let play = app.play_mut().unwrap();
    play.game.play("Td4-c4*n#").unwrap();
    let _ = after_change(&mut app, false);
    app
}

#[test]
fn a_knocked_out_team_is_announced() {
    let app = knock_out_west(&["human", "human", "human"]);
    let notes: Vec<&str> = app
        .play()
        .unwrap()
        .notes
        .iter()
        .map(|n| n.text.as_str())
        .collect();
    assert!(
        notes.iter().any(
            |n| n.starts_with("Yellow (West) is out after Blue (South) played")
                || n.contains("is out after")
        ),
        "{notes:?}"
    );
    assert_eq!(app.confirm, None, "people are still playing");
}

#[test]
fn the_last_person_out_may_leave_or_watch() {
    let app = knock_out_west(&["ai:1", "human", "ai:1"]);
    assert_eq!(app.confirm, Some(Confirm::LeaveOrWatch));
    let screen = render(&app);
    assert!(screen.contains("Your team is out"), "{screen}");
    // The whole question shows, the keys included, at the smallest and a wide size.
    for size in [(80, 24), (120, 40)] {
        let mut app = knock_out_west(&["ai:1", "human", "ai:1"]);
        send(&mut app, Msg::Resize(size.0, size.1));
        let screen = render(&app);
        assert!(screen.contains("(n)?"), "{size:?}:\n{screen}");
        assert!(screen.contains("(y)"), "{size:?}:\n{screen}");
    }
}

#[test]
fn the_game_over_box_names_the_winner_and_why() {
    let mut app = App::new((100, 30), 0, 7);
    super::start(&mut app, "replica", &["human", "human"], &[]);
    let play = app.play_mut().unwrap();
    play.game.resign(ludus_engine::Seat::FIRST);
    let _ = after_change(&mut app, true);
    let screen = render(&app);
    let title = screen
        .lines()
        .find(|l| l.contains(" wins: "))
        .unwrap_or_default();
    assert!(title.contains("wins: "), "{screen}");
}

fn with_insight(
    id: &str,
    options: &[(&str, &str)],
    seat: u8,
    evaluation: ludus_ai::Evaluation,
) -> String {
    let mut app = App::new((100, 30), 0, 7);
    super::start(&mut app, id, &["human"; 4], options);
    app.play_mut().unwrap().insight = Some(crate::app::Insight {
        seat: ludus_engine::Seat::new(seat),
        analysis: ludus_ai::AnyAnalysis {
            notation: String::new(),
            evaluation: Some(evaluation),
            depth: 3,
            nodes: 1,
            pv: Vec::new(),
        },
        by: "ai:4".into(),
        live: false,
    });
    render(&app)
}

#[test]
fn the_evaluation_keeps_one_point_of_view_with_a_legend() {
    use ludus_ai::Evaluation;
    // The second seat's +1.50 is the first seat's -1.50: the sign does not flip by searcher.
    let screen = with_insight("replica", &[], 1, Evaluation::Score(150));
    assert!(screen.contains("-1.50 for White"), "{screen}");
    assert!(screen.contains("◀ White"), "{screen}");
    let screen = with_insight("replica", &[], 0, Evaluation::Score(150));
    assert!(screen.contains("+1.50 for White"), "{screen}");
    // Four seats: a share, not a raw score.
    let screen = with_insight("splut", &[("players", "4")], 2, Evaluation::Score(-10_555));
    assert!(screen.contains("% share"), "{screen}");
    assert!(!screen.contains("-105.55"), "{screen}");
}

#[test]
fn an_error_goes_once_a_move_succeeds_and_redo_says_what_it_did() {
    use crate::play::play_typed;
    let mut app = App::new((100, 30), 0, 7);
    super::start(&mut app, "qawale", &["human", "human"], &[]);
    let _ = play_typed(&mut app, "zz");
    assert!(app.play().unwrap().notes.iter().any(|n| n.error));
    let cmd = play_typed(&mut app, "a1:NEN");
    run_cmd(&mut app, cmd);
    assert!(
        !app.play().unwrap().notes.iter().any(|n| n.error),
        "stale error kept"
    );
    super::press(&mut app, ratatui::crossterm::event::KeyCode::Char('u'));
    super::press(&mut app, ratatui::crossterm::event::KeyCode::Char('r'));
    let last = app.play().unwrap().notes.last().unwrap().text.clone();
    assert!(last.starts_with("redone "), "{last}");
}

#[test]
fn typing_while_the_computer_is_to_move_goes_into_the_prompt() {
    use ratatui::crossterm::event::KeyCode;
    let mut app = App::new((100, 30), 0, 7);
    super::start(&mut app, "replica", &["ai:1", "human"], &[]);
    assert!(app.play().unwrap().human_to_move().is_none());
    super::press(&mut app, KeyCode::Char(':'));
    super::type_text(&mut app, "q");
    assert!(!app.quit, "q was typed, not taken as quit");
    assert_eq!(app.prompt.as_ref().map(|p| p.text.as_str()), Some("q"));
}

#[test]
fn qilin_arrow_keys_follow_the_lines() {
    use crate::pointing::step_cursor;
    let game = ludus_games::new_game("qilin", &[], None, 0).unwrap();
    let view = game.view();
    for (i, cell) in view.cells.iter().enumerate() {
        let from = ludus_engine::CellId(i as u16);
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let to = step_cursor(&view, from, dx, dy);
            let has_line_that_way = view.links.iter().any(|&(a, b)| {
                let other = if a == from {
                    b
                } else if b == from {
                    a
                } else {
                    return false;
                };
                let o = &view.cells[other.to_usize()];
                let (ox, oy) = (
                    i32::from(o.x) - i32::from(cell.x),
                    i32::from(o.y) - i32::from(cell.y),
                );
                ox * dx + oy * dy > 0
            });
            if has_line_that_way {
                assert!(
                    view.links.contains(&(from, to)) || view.links.contains(&(to, from)),
                    "{} ({dx},{dy}) left the lines for {}",
                    cell.name,
                    view.cells[to.to_usize()].name
                );
            }
        }
    }
}

#[test]
fn qilin_leaves_room_at_140_by_45_and_pieces_use_their_point() {
    use crate::layout::{game_areas, BoardGeometry};
    let game = ludus_games::new_game("qilin", &[], None, 0).unwrap();
    let view = game.view();
    let area = game_areas(ratatui::layout::Rect::new(0, 0, 140, 45)).board;
    let geometry = BoardGeometry::fit(&view, area).unwrap();
    assert!(
        u16::from(view.height) * geometry.ch <= 36,
        "{} rows",
        u16::from(view.height) * geometry.ch
    );
    let mut app = App::new((140, 45), 0, 7);
    super::start(&mut app, "qilin", &["human", "human"], &[]);
    let cmd = crate::play::play_typed(&mut app, "d1");
    run_cmd(&mut app, cmd);
    let screen = render(&app);
    assert!(screen.contains("  (R)  "), "a wide chip:\n{screen}");
}
