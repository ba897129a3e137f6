//! Every change other than a move (claims, resignations, undo and redo, offers, their
//! answers, a flag on time) and every chat line is stored first and awaited with no thread
//! held, as moves are; a change whose request is dropped while it is stored (its client
//! gone) still ends: what is on disk is what the game plays on.

use std::sync::Arc;
use std::time::Duration;

use super::commit_tests::{held_hub, logged, settle, two_people, until_sent, watch, HeldStore};
use super::{create_seated, Command, LiveGame, TableCommand};
use crate::hub::Hub;
use crate::protocol::CreateGame;

/// Waits until `done` holds (a task finishing on its own may not have run yet on a busy
/// machine); answers whether it did.
async fn until(done: impl Fn() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_request_is_dropped_while_it_is_stored_is_still_applied() {
    let people = two_people().await;
    let before = people.seq();
    let moving = people.spawn_move();
    assert_eq!(until_sent(&people.store, 1).await, ["move"]);
    // The client goes away (an HTTP request's future is dropped with its connection) while
    // the move it sent is being stored: what is stored must be played.
    moving.abort();
    assert!(moving.await.unwrap_err().is_cancelled());
    people.store.commits.add_permits(1);
    assert!(
        until(|| people.seq() == before + 1).await,
        "a move stored but never applied"
    );
    // The next move is checked against the position the store holds.
    let next = people.spawn_act(1, people.a_legal_move());
    people.store.commits.add_permits(1);
    next.await.unwrap().expect("the other seat's move");
    assert_eq!(people.store.sent(), ["move", "move"]);
    assert_eq!(people.seq(), before + 2);
}

/// A game of two people whose second seat is open to an invitation; answers the invite.
async fn with_an_invitation() -> (Arc<Hub>, Arc<HeldStore>, Arc<LiveGame>, String) {
    let (hub, store) = held_hub();
    let request: CreateGame = serde_json::from_value(serde_json::json!({
        "game": ludus_games::GAMES[0].id, "players": ["human", "human"], "invite": [2]
    }))
    .expect("a request");
    let (game, body) = create_seated(&hub, &request, None, None)
        .await
        .expect("a game");
    let invite = body["invites"][0]["invite"].as_str().expect("an invite");
    (hub, store, game, invite.to_string())
}

#[tokio::test(flavor = "current_thread")]
async fn a_claim_is_answered_only_once_stored_and_holds_no_thread() {
    let (hub, store, game, invite) = with_an_invitation().await;
    let claiming = {
        let (game, hub) = (Arc::clone(&game), Arc::clone(&hub));
        tokio::spawn(async move { game.claim(&hub, 2, &invite).await })
    };
    assert_eq!(until_sent(&store, 1).await, ["claim"]);
    settle().await;
    assert!(!claiming.is_finished(), "answered before it was stored");
    assert!(game.lock().seats[1].invite.is_some(), "spent before stored");
    store.commits.add_permits(1);
    let answer = claiming.await.unwrap().expect("the seat");
    assert_eq!(answer["seat"], 2, "{answer}");
    assert!(game.lock().seats[1].invite.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_whose_request_is_dropped_while_it_is_stored_is_still_applied() {
    let (hub, store, game, invite) = with_an_invitation().await;
    let claiming = {
        let (game, hub, invite) = (Arc::clone(&game), Arc::clone(&hub), invite.clone());
        tokio::spawn(async move { game.claim(&hub, 2, &invite).await })
    };
    assert_eq!(until_sent(&store, 1).await, ["claim"]);
    claiming.abort();
    assert!(claiming.await.unwrap_err().is_cancelled());
    store.commits.add_permits(1);
    assert!(
        until(|| game.lock().seats[1].invite.is_none()).await,
        "a claim stored but never applied"
    );
    // Spent once: the same link claims nothing more, and nothing more is stored.
    let again = game.claim(&hub, 2, &invite).await.unwrap_err();
    assert_eq!(again.status, axum::http::StatusCode::FORBIDDEN);
    assert_eq!(store.sent(), ["claim"]);
}

#[tokio::test(flavor = "current_thread")]
async fn a_chat_line_is_kept_and_sent_only_once_stored_and_holds_no_thread() {
    let people = two_people().await;
    let (_watcher, place) = watch(&people.game);
    let saying = {
        let (game, hub, token) = (
            Arc::clone(&people.game),
            Arc::clone(&people.hub),
            people.tokens[0].clone(),
        );
        tokio::spawn(async move {
            let speaker = crate::live::Speaker {
                token: Some(&token),
                account: None,
                archived: false,
            };
            game.chat(&hub, speaker, None, "good luck").await
        })
    };
    assert_eq!(until_sent(&people.store, 1).await, ["chat"]);
    settle().await;
    assert!(!saying.is_finished(), "answered before it was stored");
    assert!(
        people.game.lock().chat.is_empty(),
        "kept before it was stored"
    );
    assert!(
        logged(&people.game, place).is_empty(),
        "shown before it was stored"
    );
    people.store.commits.add_permits(1);
    saying.await.unwrap().expect("the line is said");
    assert_eq!(people.game.lock().chat.len(), 1);
    let frames = logged(&people.game, place);
    assert!(
        frames.iter().any(|frame| frame.contains("good luck")),
        "{frames:?}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_resignation_is_applied_only_once_stored_and_holds_no_thread() {
    let people = two_people().await;
    let before = people.seq();
    let resigning = people.spawn_act(1, Command::Table(TableCommand::Resign));
    assert_eq!(until_sent(&people.store, 1).await, ["resign"]);
    settle().await;
    assert!(!resigning.is_finished(), "answered before it was stored");
    assert!(!people.game.is_finished(), "applied before it was stored");
    people.store.commits.add_permits(1);
    resigning.await.unwrap().expect("the resignation");
    assert!(people.game.is_finished());
    assert_eq!(people.seq(), before + 1);
}

#[tokio::test(flavor = "current_thread")]
async fn a_draw_offer_and_its_acceptance_are_each_shown_only_once_stored() {
    let people = two_people().await;
    let (_watcher, place) = watch(&people.game);
    let (game, hub) = (Arc::clone(&people.game), Arc::clone(&people.hub));
    let offering = {
        let (game, hub, token) = (
            Arc::clone(&game),
            Arc::clone(&hub),
            people.tokens[0].clone(),
        );
        tokio::spawn(async move { game.offer(&hub, &token, "draw").await })
    };
    assert_eq!(until_sent(&people.store, 1).await, ["offer"]);
    settle().await;
    assert!(!offering.is_finished(), "answered before it was stored");
    assert!(
        people.game.lock().offer.is_none(),
        "held before it was stored"
    );
    assert!(
        logged(&game, place).is_empty(),
        "shown before it was stored"
    );
    people.store.commits.add_permits(1);
    offering.await.unwrap().expect("the offer");
    assert!(people.game.lock().offer.is_some());
    assert_eq!(logged(&game, place).len(), 1, "the offer shown");

    let accepting = {
        let token = people.tokens[1].clone();
        tokio::spawn(async move { game.answer(&hub, &token, true).await })
    };
    assert_eq!(until_sent(&people.store, 2).await, ["offer", "draw"]);
    settle().await;
    assert!(!accepting.is_finished(), "answered before it was stored");
    assert!(!people.game.is_finished(), "drawn before it was stored");
    people.store.commits.add_permits(1);
    let answer = accepting.await.unwrap().expect("the answer");
    assert_eq!(answer["accepted"], true, "{answer}");
    assert!(people.game.is_finished());
}

#[tokio::test(flavor = "current_thread")]
async fn a_flag_on_time_is_applied_only_once_stored_and_holds_no_thread() {
    let (hub, store) = held_hub();
    let request: CreateGame = serde_json::from_value(serde_json::json!({
        "game": ludus_games::GAMES[0].id, "players": ["human", "human"],
        "clock": {"initial_ms": 60000, "increment_ms": 0}
    }))
    .expect("a request");
    let (game, _) = create_seated(&hub, &request, None, None)
        .await
        .expect("a game");
    // The running clock's time spent (a minute to start with, so that the game's own start
    // finds nothing to flag).
    for left in &mut game.lock().clocks.as_mut().expect("clocks").remaining_ms {
        *left = 0;
    }
    let flagging = {
        let (game, hub) = (Arc::clone(&game), Arc::clone(&hub));
        tokio::spawn(async move { game.check_flag(&hub).await })
    };
    assert_eq!(until_sent(&store, 1).await, ["flag"]);
    settle().await;
    assert!(!flagging.is_finished(), "done before it was stored");
    assert!(!game.is_finished(), "applied before it was stored");
    store.commits.add_permits(1);
    flagging.await.unwrap();
    assert!(game.is_finished(), "the seat to move lost on time");
}
