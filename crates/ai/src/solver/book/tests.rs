//! The book on two-step Nim (a turn is two decisions; piles that are multiples of 3 are lost
//! for the seat to move), where every value is known.

use std::sync::Arc;

use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{Notation, Rules, Seat, Verdict};

use super::*;
use crate::solver::{SolveBudget, Solver, SolvingAgent};
use crate::{Agent, Evaluation, RandomAgent, StopFlag};

fn at(position: &str) -> Nim {
    Nim::from_position(position, &NimOptions::default()).unwrap()
}

/// A book of the positions given, each solved in full.
fn book_of(positions: &[&str]) -> String {
    let mut solver = Solver::<Nim>::new(1).with_book(None);
    let lines = positions
        .iter()
        .map(|p| {
            let line = solver.book_entry(&at(p), &SolveBudget::default(), &StopFlag::default());
            line.unwrap()
        })
        .collect();
    book_text::<Nim>(lines)
}

#[test]
fn a_book_gives_the_value_and_the_whole_best_turn() {
    let text = book_of(&["7 1 0", "6 2 0", "2 1 0"]);
    // A pile of 7 is won by taking 1 + 1, which leaves 5 (lost); a pile of 2 ends the game.
    assert!(text.starts_with("# ludus solved book: nim\n"), "{text}");
    assert!(text.contains("7 1 0\twin 3\t5 2 0\n"), "{text}");
    assert!(text.contains("2 1 0\twin 1\tend\n"), "{text}");
    let book = Book::parse::<Nim>(&text).unwrap();
    assert_eq!(book.len(), 3);
    assert_eq!(book.probe(&at("6 2 0")), Some(Proved::Loss(2)));
    assert_eq!(book.probe(&at("8 1 0")), None);
    let turn = book.best_turn(&at("7 1 0")).unwrap();
    assert_eq!(turn.proved, Proved::Win(3));
    assert_eq!(turn.decisions, [1, 1]);
    // A turn that ends the game: any that wins it (here 1 + 1 or 2) will do.
    let mut two = at("2 1 0");
    for decision in book.best_turn(&two).unwrap().decisions {
        two.apply(decision);
    }
    assert_eq!(two.verdict().and_then(Verdict::winner), Some(Seat::FIRST));
    // Other options than the defaults: the book says nothing.
    let other = Nim::from_position("7 1 0", &NimOptions { pile: 7 }).unwrap();
    assert_eq!(book.probe(&other), None);
    assert!(book.best_turn(&other).is_none());
}

#[test]
fn the_solver_answers_a_book_position_without_searching() {
    let book = Arc::new(Book::parse::<Nim>(&book_of(&["7 1 0"])).unwrap());
    let mut solver = Solver::<Nim>::new(1).with_book(Some(book));
    let solution = solver.solve(&at("7 1 0"), &SolveBudget::default(), &StopFlag::default());
    assert!(solution.from_book);
    assert_eq!(solution.nodes, 0);
    assert_eq!(solution.proved(), Some(Proved::Win(3)));
    assert_eq!(solution.best, Some(1));
    // Below the root the book's value is taken as it is, like an endgame table's: a book
    // that calls 7 lost makes 11 (truly lost: every turn leaves 7 to 9) a win, by taking 2 + 2.
    assert!(matches!(
        solver
            .solve(&at("11 2 0"), &SolveBudget::default(), &StopFlag::default())
            .proved(),
        Some(Proved::Loss(_))
    ));
    let false_book = "# ludus solved book: nim\n7 1 0\tloss 5\t5 2 0\n";
    let false_book = Arc::new(Book::parse::<Nim>(false_book).unwrap());
    let mut misled = Solver::<Nim>::new(1).with_book(Some(false_book));
    let eleven = misled.solve(&at("11 2 0"), &SolveBudget::default(), &StopFlag::default());
    assert_eq!(eleven.proved(), Some(Proved::Win(6)));
}

#[test]
fn a_player_plays_every_decision_of_the_books_turn() {
    let book = Arc::new(Book::parse::<Nim>(&book_of(&["7 1 0"])).unwrap());
    let random = Box::new(RandomAgent::new(3));
    let mut player = SolvingAgent::new(random, 8, SolveBudget::default()).with_book(Some(book));
    let mut state = at("7 1 0");
    for _ in 0..2 {
        let analysis = player.analyse(&state, &StopFlag::default());
        assert_eq!(
            analysis.evaluation,
            Some(Evaluation::Proved(Proved::Win(3)))
        );
        assert_eq!((analysis.action, analysis.nodes), (1, 0));
        state.apply(analysis.action);
    }
    assert_eq!(state.position(), "5 2 0");
}

#[test]
fn a_bad_book_says_which_line_and_what_was_expected() {
    let error = |text: &str| Book::parse::<Nim>(text).unwrap_err().to_string();
    assert_eq!(
        error("# ludus solved book: qilin\n"),
        "book line 1: expected '# ludus solved book: nim', found '# ludus solved book: qilin'"
    );
    let header = "# ludus solved book: nim\n";
    assert_eq!(
        error(&format!("{header}7 1 0\twins 3\t5 2 0\n")),
        "book line 2: bad value 'wins 3': expected 'win N', 'draw' or 'loss N'"
    );
    assert_eq!(
        error(&format!("{header}7 1 0\twin 3\n")),
        "book line 2: expected 'position<TAB>value<TAB>next position or end'"
    );
    assert!(error(&format!("{header}\n# note\n7 1 x\twin 3\tend\n")).starts_with("book line 4: "));
    assert!(Book::parse::<Nim>(header).unwrap().is_empty());
}
