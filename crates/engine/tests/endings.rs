//! Endings from outside the rules: a draw the seats agree on and a seat whose clock ran out.
//! Both live in the session's history, so records, undo/redo and reloading keep them.

use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{AnyGame, MoveError, Rules, Seat, Session, Verdict, AGREED_DRAW_REASON};

fn nim() -> Session<Nim> {
    let mut session = Session::new(&NimOptions { pile: 11 }, 0);
    session.play_text("1+2").unwrap();
    session
}

#[test]
fn an_agreed_draw_ends_the_game_and_survives_a_record_round_trip() {
    let mut session = nim();
    assert!(session.agree_draw());
    let outcome = session.outcome().unwrap().clone();
    assert_eq!(outcome.verdict, Verdict::Draw);
    assert_eq!(outcome.reason, AGREED_DRAW_REASON);
    assert_eq!(session.to_move(), None);
    assert!(matches!(
        session.play_text("1+1"),
        Err(MoveError::GameOver(_))
    ));
    assert!(
        !session.agree_draw(),
        "a finished game cannot be drawn again"
    );

    let record = session.record();
    assert_eq!(record.moves, ["1+2", "draw agreed"]);
    let result = record.result.clone().unwrap();
    assert_eq!(
        (result.winner, result.reason.as_str()),
        (None, AGREED_DRAW_REASON)
    );
    let reloaded = Session::<Nim>::from_record(&record).unwrap();
    assert_eq!(reloaded.outcome(), Some(&outcome));
    assert_eq!(reloaded.turns().last().unwrap().text, "draw agreed");
}

#[test]
fn undo_takes_an_agreed_draw_back_and_redo_restores_it() {
    let mut session = nim();
    session.agree_draw();
    assert!(session.undo());
    assert_eq!(session.outcome(), None);
    assert_eq!(session.to_move(), Some(Seat::SECOND));
    assert!(session.redo());
    assert_eq!(session.outcome().unwrap().reason, AGREED_DRAW_REASON);
}

#[test]
fn a_flag_loses_and_says_the_time_ran_out() {
    let mut session = nim();
    session.flag(Seat::SECOND);
    let outcome = session.outcome().unwrap().clone();
    assert_eq!(outcome.verdict, Verdict::Win(Seat::FIRST));
    let seat_name = session.state().seat_name(Seat::SECOND);
    assert_eq!(outcome.reason, format!("{seat_name} ran out of time"));

    let record = session.record();
    assert_eq!(record.moves, ["1+2", "flag 2"]);
    assert_eq!(record.result.as_ref().unwrap().reason, outcome.reason);
    let reloaded = Session::<Nim>::from_record(&record).unwrap();
    assert_eq!(reloaded.outcome(), Some(&outcome));
}

#[test]
fn the_erased_game_offers_both_endings() {
    let mut game = AnyGame::from(nim());
    assert!(game.agree_draw());
    assert!(
        game.legal_moves().is_empty(),
        "no legal move after an agreed draw"
    );
    assert_eq!(game.to_move(), None);
    assert_eq!(game.outcome().unwrap().reason, AGREED_DRAW_REASON);

    let mut game = AnyGame::from(nim());
    game.flag(Seat::FIRST);
    assert_eq!(game.outcome().unwrap().verdict, Verdict::Win(Seat::SECOND));
    assert!(game.outcome().unwrap().reason.ends_with("ran out of time"));
}

#[test]
fn damaged_ending_entries_are_refused() {
    let mut record = nim().record();
    record.moves.push("flag 9".into());
    assert!(Session::<Nim>::from_record(&record).is_err(), "no seat 9");
    let mut record = nim().record();
    record.moves.extend(["draw agreed".into(), "1+1".into()]);
    assert!(
        Session::<Nim>::from_record(&record).is_err(),
        "no move after the end"
    );
}
