//! How the end of a game reads on the title line: every game names its winner there.

use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render, start_at};

/// Splut! spec §9.1: South's troll on d4 steps onto the rock on e4 and throws it north onto
/// North's sorcerer, which wins at once.
const S9_1: &str = "size=9 seats=south,north tomove=south turn=5 used=0 lev=unused locked=-\n\
                    south: Sd2 De2 Td4\nnorth: Se7 Df7 Td8\nrocks: e4 e1 a5 i5";

#[test]
fn the_title_names_the_winner_of_a_splut_game() {
    let mut app = new_app(80, 24);
    start_at(&mut app, "splut", S9_1, &["human", "human"]);
    for c in ":Td4-e4*n#".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert!(app.play().unwrap().game.outcome().is_some());
    let screen = render(&app);
    let title = screen.lines().next().unwrap();
    assert!(
        title.contains("Blue wins: last sorcerer standing"),
        "{screen}"
    );
}

#[test]
fn one_stone_in_hand_is_one_stone() {
    let mut app = new_app(100, 30);
    start_at(
        &mut app,
        "qawale",
        "NND,D,L,NN/D,L,D,L/L,D,L,D/NN,D,L,NNL D",
        &["human", "human"],
    );
    let screen = render(&app);
    assert!(screen.contains("(1 stone in hand)"), "{screen}");
}

#[test]
fn the_winning_qawale_line_is_marked() {
    use ratatui::style::Modifier;
    let mut app = new_app(100, 30);
    start_at(
        &mut app,
        "qawale",
        "NN,-,-,NN/-,L,-,-/-,L,-,L/NND,D,D,NND L",
        &["human", "human"],
    );
    let play = app.play().unwrap();
    assert!(play.game.outcome().is_some(), "{}", play.game.view().status);
    let view = play.game.view();
    let marked: Vec<&str> = view
        .cells
        .iter()
        .filter(|c| c.stack.last().is_some_and(|p| p.marked))
        .map(|c| &*c.name)
        .collect();
    assert_eq!(marked, ["a1", "b1", "c1", "d1"], "{}", render(&app));
    // Drawn underlined, a cue beside colour.
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    terminal.draw(|f| crate::view::view(&app, f)).unwrap();
    let underlined = terminal
        .backend()
        .buffer()
        .content
        .iter()
        .filter(|c| c.modifier.contains(Modifier::UNDERLINED) && c.symbol() == "D")
        .count();
    assert_eq!(underlined, 4);
}
