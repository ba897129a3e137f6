//! The accounts' writes awaited, holding no thread: each write (a session, a token, a
//! profile's text, a password, a game's ratings, a ban) is answered once the games' writer
//! commits it, while the thread that awaits it goes on serving other tasks.

use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::Connection;

use super::ratings::ClockClass;
use super::{People, Sink, Throttle};
use crate::sqlite::writer::{Job, WriteError};

/// A writer whose commits wait for a gate that another task opens: on a runtime of one
/// thread, a write answers only if it waits without holding that thread.
#[derive(Clone)]
struct Gated(Arc<Gate>);

struct Gate {
    db: Mutex<Connection>,
    open: Mutex<bool>,
    notify: tokio::sync::Notify,
}

impl Gated {
    fn new(path: &Path) -> Gated {
        Gated(Arc::new(Gate {
            db: Mutex::new(Connection::open(path).unwrap()),
            open: Mutex::new(true),
            notify: tokio::sync::Notify::new(),
        }))
    }

    fn set(&self, open: bool) {
        *self.0.open.lock().unwrap_or_else(PoisonError::into_inner) = open;
        if open {
            self.0.notify.notify_waiters();
        }
    }

    fn is_open(&self) -> bool {
        *self.0.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn commit(&self, job: Job) -> Result<(), WriteError> {
        let mut db = self.0.db.lock().unwrap_or_else(PoisonError::into_inner);
        let transaction = db.transaction()?;
        job(&transaction)?;
        transaction.commit()?;
        Ok(())
    }
}

impl Sink for Gated {
    fn run_later(
        &self,
        job: Job,
    ) -> Pin<Box<dyn std::future::Future<Output = Result<(), WriteError>> + Send>> {
        let gated = self.clone();
        Box::pin(async move {
            loop {
                let notified = gated.0.notify.notified();
                if gated.is_open() {
                    break;
                }
                notified.await;
            }
            gated.commit(job)
        })
    }
}

/// Runs `write` beside a task that opens the gate: on a runtime of one thread, only a write
/// that holds no thread while it waits lets that task run, and a write answered before the
/// gate opens did not wait for its commit.
async fn with_gate_opened_meanwhile<T>(
    gated: &Gated,
    write: impl std::future::Future<Output = T>,
) -> T {
    gated.set(false);
    let answered = std::cell::Cell::new(false);
    let (written, early) = tokio::join!(
        async {
            let written = write.await;
            answered.set(true);
            written
        },
        async {
            tokio::task::yield_now().await;
            let early = answered.get();
            gated.set(true);
            early
        }
    );
    assert!(!early, "answered before its commit");
    written
}

#[tokio::test(flavor = "current_thread")]
async fn every_write_of_a_request_is_awaited_without_holding_its_thread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("people.db");
    let gated = Gated::new(&path);
    let people = People::open(Some(&path), false, Throttle::default())
        .unwrap()
        .with_sink(Arc::new(gated.clone()));
    let ana = people
        .sign_up("Ana", "a long password", false)
        .await
        .unwrap();
    let bot = people
        .sign_up("Robo", "a long password", true)
        .await
        .unwrap();

    let secret = with_gate_opened_meanwhile(&gated, people.new_session(&ana)).await;
    let secret = secret.expect("the session is made");
    assert_eq!(people.session(&secret).await.unwrap().unwrap().name, "Ana");
    with_gate_opened_meanwhile(&gated, people.set_about(ana.id, "hello"))
        .await
        .expect("the text is written");
    assert_eq!(people.about(ana.id).unwrap(), "hello");
    let token = with_gate_opened_meanwhile(&gated, people.new_token(&bot, "engine")).await;
    assert!(people.token_account(&token.unwrap()).unwrap().is_some());
    with_gate_opened_meanwhile(&gated, people.end_session(&secret))
        .await
        .expect("the session ends");
    assert!(people.session(&secret).await.unwrap().is_none());
    with_gate_opened_meanwhile(&gated, people.set_password(ana.id, "another password"))
        .await
        .expect("the password is set");
    people.sign_in("Ana", "another password").await.unwrap();
    with_gate_opened_meanwhile(&gated, people.end_sessions(ana.id, None))
        .await
        .expect("the sessions end");
    let (holders, scores) = ([ana.id, bot.id], [1.0, 0.0]);
    let game = ludus_games::GAMES[0].id;
    let rating = people.rate("g1", game, ClockClass::Fast, &holders, &scores);
    let changes = with_gate_opened_meanwhile(&gated, rating).await;
    let changes = changes.expect("the game is rated");
    assert!(
        changes[0].after.rating > changes[0].before.rating,
        "the winner gains"
    );
    let banned = with_gate_opened_meanwhile(&gated, people.ban("Ana", true)).await;
    assert!(banned.expect("the ban is written"));
    assert!(people.find("Ana").unwrap().is_none());
}
