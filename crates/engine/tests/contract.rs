//! The contract's generic machinery, exercised on the demo game (two-step Nim).

use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::testkit::random_simulation;
use ludus_engine::{
    perft, AnyGame, GameRecord, MoveError, Notation, RecordError, Rules, Seat, Session, Verdict,
};

fn nim(pile: u8) -> Session<Nim> {
    Session::new(&NimOptions { pile }, 0)
}

#[test]
fn the_kit_passes_on_the_demo_game() {
    random_simulation::<Nim>(&NimOptions::default(), 500, 1);
}

#[test]
fn the_demo_game_keeps_the_encoding_promises() {
    for pile in [1, 11, 60] {
        ludus_engine::testkit::check_encoding::<Nim>(&NimOptions { pile }, 50, 1);
    }
}

#[test]
fn perft_counts_sequences_of_whole_turns() {
    let start = Nim::new(&NimOptions { pile: 4 }, 0);
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 4);
    // After 1+1 (pile 2): 1+1, 2 (wins at once) = 2; after 1+2 and 2+1 (pile 1): 1; after 2+2: over.
    assert_eq!(perft(&start, 2), 2 + 1 + 1 + 1);
}

#[test]
fn turns_group_decisions_and_undo_redo_replay() {
    let mut session = nim(11);
    assert_eq!(session.play_text("1+2"), Ok(2));
    assert_eq!(session.play_text("2"), Ok(1));
    let texts: Vec<_> = session
        .turns()
        .iter()
        .map(|t| (t.text.clone(), t.complete))
        .collect();
    assert_eq!(texts, [("1+2".to_string(), true), ("2".to_string(), false)]);
    assert!(session.undo());
    assert_eq!(session.state().position(), "8 2 0");
    assert!(session.redo());
    assert_eq!(session.state().position(), "6 2 1");
    assert!(!session.redo());
    session.play_text("1").unwrap();
    assert!(session.undo() && session.undo() && session.undo() && session.undo());
    assert!(!session.undo());
    assert_eq!(session.state().position(), "11 1 0");
}

#[test]
fn a_bad_turn_changes_nothing() {
    let mut session = nim(3);
    let err = session.play_text("2+2").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    assert_eq!(session.state().position(), "3 1 0");
    assert!(session.entries().is_empty());
}

#[test]
fn records_replay_and_name_the_bad_entry() {
    let mut session = nim(11);
    session.play_text("1+2").unwrap();
    session.play_text("2+2").unwrap();
    session.resign(Seat::FIRST);
    let record = session.record();
    assert_eq!(record.moves, ["1+2", "2+2", "resign 1"]);
    assert_eq!(record.result.as_ref().unwrap().winner, Some(2));
    let replayed = Session::<Nim>::from_record(&record).unwrap();
    assert_eq!(
        replayed.state().outcome().unwrap().verdict,
        Verdict::Win(Seat::SECOND)
    );

    let mut damaged = record.clone();
    damaged.moves[1] = "2+3".into();
    let err = Session::<Nim>::from_record(&damaged).unwrap_err();
    assert!(matches!(err, RecordError::Move { index: 2, .. }), "{err}");
    assert!(err.to_string().contains("record move 2 '2+3'"), "{err}");

    let mut lying = record.clone();
    lying.result.as_mut().unwrap().winner = Some(1);
    assert!(matches!(
        Session::<Nim>::from_record(&lying),
        Err(RecordError::ResultMismatch { .. })
    ));

    let mut other = record;
    other.game = "chess".into();
    assert!(matches!(
        Session::<Nim>::from_record(&other),
        Err(RecordError::UnknownGame(_))
    ));
}

#[test]
fn records_survive_json() {
    let mut session = nim(7);
    session.play_text("2+2").unwrap();
    let json = session.record().to_json();
    let back = Session::<Nim>::from_record(&GameRecord::from_json(&json).unwrap()).unwrap();
    assert_eq!(back.state().position(), "3 2 0");
}

#[test]
fn any_game_plays_by_text_and_finds_its_session() {
    let mut game: AnyGame = nim(5).into();
    assert_eq!(game.info().id, "nim");
    let moves: Vec<_> = game.legal_moves().into_iter().map(|m| m.notation).collect();
    assert_eq!(moves, ["1", "2"]);
    game.play("2+2").unwrap();
    assert_eq!(game.history()[0].text, "2+2");
    assert!(game.play("2").is_err());
    game.play("1").unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.verdict, Verdict::Win(Seat::SECOND));
    assert!(game.legal_moves().is_empty());
    assert!(game.session::<Nim>().is_some());
    assert_eq!(game.view().last_move.len(), 1);
}
