//! What the side panel keeps in sight at the smallest size: every count of pieces in hand,
//! also while the chooser of decisions is open.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render, start};

/// The counts of one seat's pieces in hand as the panel writes them: `(4)×3` or `[4]×3`.
fn counts(screen: &str, open: char) -> usize {
    (1..=4)
        .filter(|n| {
            screen.contains(&format!("{open}{n})×")) || screen.contains(&format!("{open}{n}]×"))
        })
        .count()
}

#[test]
fn yoxii_at_80_by_24_shows_every_count_in_hand_with_the_chooser_open() {
    let mut app = new_app(80, 24);
    start(&mut app, "yoxii", &["human", "human"], &[]);
    let screen = render(&app);
    assert_eq!(counts(&screen, '('), 4, "{screen}");
    assert_eq!(counts(&screen, '['), 4, "{screen}");
    type_move(&mut app, ":d5");
    let d4 = app.play().unwrap().game.view().cell_named("d4").unwrap();
    app.play_mut().unwrap().cursor = d4;
    press(&mut app, KeyCode::Enter);
    assert!(app.play().unwrap().chooser.is_some());
    let screen = render(&app);
    assert!(screen.contains("choose"), "{screen}");
    assert_eq!(counts(&screen, '('), 4, "{screen}");
    assert_eq!(counts(&screen, '['), 4, "{screen}");
}

fn type_move(app: &mut crate::app::App, text: &str) {
    super::type_text(app, text);
    press(app, KeyCode::Enter);
}

#[test]
fn the_board_size_message_stays_left_of_the_panel() {
    use crate::layout::game_areas;
    // Splut!'s largest board does not fit the smallest terminals.
    for size in [(60, 20), (80, 24)] {
        let mut app = new_app(size.0, size.1);
        start(&mut app, "splut", &["human"; 2], &[("size", "25")]);
        let screen = render(&app);
        let divider = game_areas(ratatui::layout::Rect::new(0, 0, size.0, size.1))
            .panel
            .x;
        // The message, read in the board's part of each line, is whole.
        let board: Vec<String> = screen
            .lines()
            .map(|l| l.chars().take(usize::from(divider)).collect())
            .collect();
        let words = board
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            words.contains("enlarge the terminal."),
            "{size:?}:\n{screen}"
        );
        for line in screen.lines().skip(1).take(usize::from(size.1) - 2) {
            let at = line.chars().nth(usize::from(divider));
            assert_eq!(at, Some('│'), "{size:?}:\n{screen}");
        }
    }
}
