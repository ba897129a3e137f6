//! A move waits for its commit with no thread held: it is applied, broadcast and answered
//! only once stored; a change asked for meanwhile waits its turn and is stored after it; a
//! write the store refuses changes nothing. A new game, too, is started and answered only
//! once stored (started even if its request is dropped meanwhile), and removed again when
//! the store refuses it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;

use super::{
    create_later, create_seated, created, CatchUp, Command, LiveGame, Offered, Outlet, TableCommand,
};
use crate::hub::Hub;
use crate::protocol::CreateGame;
use crate::store::{Change, MemoryStore, Pending, Store, StoreError};

/// A store whose commits wait for the test's word, and fail while `refuse` is set.
#[derive(Debug)]
pub(super) struct HeldStore {
    memory: MemoryStore,
    pub(super) commits: Arc<Semaphore>,
    refuse: Arc<AtomicBool>,
    /// The kinds of the changes sent, in order.
    sent: Mutex<Vec<&'static str>>,
}

impl HeldStore {
    fn note_sent(&self, change: &Change) {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(change.kind());
    }

    pub(super) fn sent(&self) -> Vec<&'static str> {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn outcome(refuse: &AtomicBool) -> Result<(), StoreError> {
        if refuse.load(Ordering::SeqCst) {
            Err(StoreError("the disk is full".into()))
        } else {
            Ok(())
        }
    }
}

impl Store for HeldStore {
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError> {
        self.memory.insert(game)
    }
    /// Held like a change sent: its commit waits for the test's word.
    fn insert_later(&self, game: Arc<LiveGame>) -> Result<Pending, StoreError> {
        self.memory.insert(game)?;
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push("game");
        Ok(self.held(HeldStore::outcome))
    }
    fn get(&self, id: &str) -> Option<Arc<LiveGame>> {
        self.memory.get(id)
    }
    fn remove(&self, id: &str) -> Option<Arc<LiveGame>> {
        self.memory.remove(id)
    }
    fn games(&self) -> Vec<Arc<LiveGame>> {
        self.memory.games()
    }
    fn send(&self, _id: &str, change: Change) -> Pending {
        self.note_sent(&change);
        self.held(HeldStore::outcome)
    }
    fn chat(&self, _id: &str, _line: &crate::live::ChatLine) -> Pending {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push("chat");
        self.held(HeldStore::outcome)
    }
}

impl HeldStore {
    /// A commit that waits for one permit, given by the test, then answers `outcome`.
    fn held(&self, outcome: fn(&AtomicBool) -> Result<(), StoreError>) -> Pending {
        let (commits, refuse) = (Arc::clone(&self.commits), Arc::clone(&self.refuse));
        Pending::waiting(async move {
            if let Ok(permit) = commits.acquire().await {
                permit.forget();
            }
            outcome(&refuse)
        })
    }
}

/// A game between two people on a [`HeldStore`].
pub(super) struct TwoPeople {
    pub(super) hub: Arc<Hub>,
    pub(super) store: Arc<HeldStore>,
    pub(super) game: Arc<LiveGame>,
    pub(super) tokens: Vec<String>,
}

/// A hub on a [`HeldStore`] of its own.
pub(super) fn held_hub() -> (Arc<Hub>, Arc<HeldStore>) {
    let store = Arc::new(HeldStore {
        memory: MemoryStore::new(10, 10),
        commits: Arc::new(Semaphore::new(0)),
        refuse: Arc::new(AtomicBool::new(false)),
        sent: Mutex::new(Vec::new()),
    });
    let people = crate::people::People::open(None, false, crate::people::Throttle::new(5, 5, 5));
    let hub = Hub::with_store(
        crate::config::Config::default(),
        Arc::clone(&store) as Arc<dyn Store>,
        Arc::new(people.expect("accounts in memory")),
    );
    (hub, store)
}

/// A game of two people (any game does: the registry's first), or of a person against a
/// computer that moves first.
fn request(players: [&str; 2]) -> CreateGame {
    let game = ludus_games::GAMES[0].id;
    serde_json::from_value(serde_json::json!({
        "game": game, "players": players, "seed": 1
    }))
    .expect("a request")
}

pub(super) async fn two_people() -> TwoPeople {
    let (hub, store) = held_hub();
    let (game, body) = create_seated(&hub, &request(["human", "human"]), None, None)
        .await
        .expect("a game");
    let tokens = body["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|seat| seat["token"].as_str().expect("a token").to_string())
        .collect();
    TwoPeople {
        hub,
        store,
        game,
        tokens,
    }
}

impl TwoPeople {
    pub(super) fn seq(&self) -> u64 {
        self.game.lock().seq
    }

    pub(super) fn a_legal_move(&self) -> Command {
        let table = self.game.lock();
        Command::Move {
            notation: table.game.legal_moves()[0].notation.clone(),
            seq: table.seq,
        }
    }

    /// The first seat's move, acted on in a task of its own.
    pub(super) fn spawn_move(
        &self,
    ) -> tokio::task::JoinHandle<Result<Arc<str>, crate::error::ApiError>> {
        self.spawn_act(0, self.a_legal_move())
    }

    /// `command` of seat `seat` (0-based), acted on in a task of its own.
    pub(super) fn spawn_act(
        &self,
        seat: usize,
        command: Command,
    ) -> tokio::task::JoinHandle<Result<Arc<str>, crate::error::ApiError>> {
        let (game, hub, token) = (
            Arc::clone(&self.game),
            Arc::clone(&self.hub),
            self.tokens[seat].clone(),
        );
        tokio::spawn(async move { game.act(&hub, &token, command).await })
    }
}

/// Lets the other tasks run until they wait (a negative check: a task that should wait and
/// ran on would show within it).
pub(super) async fn settle() {
    tokio::time::sleep(Duration::from_millis(50)).await;
}

/// Waits until the store was sent `count` changes (a spawned task may not have run yet on a
/// busy machine); answers them.
pub(super) async fn until_sent(store: &HeldStore, count: usize) -> Vec<&'static str> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let sent = store.sent();
        if sent.len() >= count || tokio::time::Instant::now() > deadline {
            return sent;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Watches a game's frames: takes none of them, so that its log keeps them for [`logged`].
pub(super) struct Watcher(u64);

impl Outlet for Watcher {
    fn offer(&self, _: u64, _: &Arc<str>, _: bool) -> Offered {
        Offered::HandedOver
    }

    fn place(&self) -> u64 {
        self.0
    }
}

/// A watcher of `game` and its place in the log (to be kept while the frames are read).
pub(super) fn watch(game: &LiveGame) -> (Arc<Watcher>, u64) {
    let place = game.frames().end();
    let watcher = Arc::new(Watcher(place));
    game.frames()
        .join(Arc::downgrade(&watcher) as Weak<dyn Outlet>);
    (watcher, place)
}

/// The frames `game` logged for its sockets from `place` on.
pub(super) fn logged(game: &LiveGame, place: u64) -> Vec<Arc<str>> {
    match game.frames().since(place) {
        CatchUp::Items(items, _) => items,
        CatchUp::Lagged => panic!("fell behind the log"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_applied_and_shown_only_once_stored_and_the_next_change_waits_for_it() {
    let people = two_people().await;
    let (_watcher, place) = watch(&people.game);
    let before = people.seq();
    assert!(!people.game.is_finished());
    let moving = people.spawn_move();
    assert_eq!(
        until_sent(&people.store, 1).await,
        ["move"],
        "sent to the store"
    );
    settle().await;
    assert!(!moving.is_finished(), "answered before it was stored");
    assert_eq!(people.seq(), before, "applied before it was stored");
    assert!(
        logged(&people.game, place).is_empty(),
        "shown before it was stored"
    );

    // The other seat resigns meanwhile: it waits for the move's turn to end.
    let resigning = people.spawn_act(1, Command::Table(TableCommand::Resign));
    settle().await;
    assert!(
        !resigning.is_finished(),
        "a change went past a move being stored"
    );
    assert_eq!(people.store.sent(), ["move"]);

    people.store.commits.add_permits(1);
    let answered: Value = serde_json::from_str(&moving.await.unwrap().unwrap()).unwrap();
    assert_eq!(answered["seq"], before + 1, "{answered}");
    assert_eq!(
        until_sent(&people.store, 2).await,
        ["move", "resign"],
        "stored in order"
    );
    people.store.commits.add_permits(1);
    resigning.await.unwrap().unwrap();
    assert_eq!(people.seq(), before + 2);
    assert!(
        people.game.is_finished(),
        "counted as over without the lock"
    );
    let first = logged(&people.game, place)
        .into_iter()
        .next()
        .expect("the move's frame");
    assert!(first.contains("\"type\":\"event\""), "{first}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_store_refuses_changes_nothing_and_may_be_played_again() {
    let people = two_people().await;
    let (_watcher, place) = watch(&people.game);
    let before = people.seq();
    let position = people.game.lock().game.position();
    people.store.refuse.store(true, Ordering::SeqCst);
    people.store.commits.add_permits(1);
    let error = people.spawn_move().await.unwrap().unwrap_err();
    assert_eq!(error.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        error.message.contains("the disk is full"),
        "{}",
        error.message
    );
    assert_eq!(people.seq(), before);
    assert_eq!(people.game.lock().game.position(), position);
    assert!(
        logged(&people.game, place).is_empty(),
        "a refused move was shown"
    );

    people.store.refuse.store(false, Ordering::SeqCst);
    people.store.commits.add_permits(1);
    people.spawn_move().await.unwrap().unwrap();
    assert_eq!(people.seq(), before + 1);
}

/// Creates a game as `POST /api/games` does, in a task of its own: its commit awaited, then
/// started or removed.
fn spawn_create(
    hub: &Arc<Hub>,
    players: [&'static str; 2],
) -> (
    Arc<LiveGame>,
    tokio::task::JoinHandle<Result<Value, crate::error::ApiError>>,
) {
    let (game, (body, commit)) = create_later(hub, &request(players), None, None).expect("a game");
    let hub = Arc::clone(hub);
    let held = Arc::clone(&game);
    let answer = tokio::spawn(async move { created(&hub, &held, body, commit).await });
    (game, answer)
}

// One thread: a creation that held its thread while the commit waited would never let the
// test give the permit.
/// A game whose computer moves first (a game started before it is stored would store its
/// move), being created: its row sent to the store, and the creation left to run until it
/// waits for the commit.
async fn computer_first_being_stored() -> (
    Arc<Hub>,
    Arc<HeldStore>,
    Arc<LiveGame>,
    tokio::task::JoinHandle<Result<Value, crate::error::ApiError>>,
) {
    let (hub, store) = held_hub();
    let (game, answer) = spawn_create(&hub, ["ai:random", "human"]);
    assert_eq!(until_sent(&store, 1).await, ["game"]);
    settle().await;
    (hub, store, game, answer)
}

#[tokio::test(flavor = "current_thread")]
async fn a_new_game_is_started_and_answered_only_once_stored() {
    let (hub, store, game, answer) = computer_first_being_stored().await;
    assert!(!answer.is_finished(), "answered before it was stored");
    assert_eq!(store.sent(), ["game"], "started before it was stored");
    assert!(hub.store.get(game.id()).is_some(), "held while stored");

    store.commits.add_permits(1);
    let body = answer.await.unwrap().unwrap();
    assert_eq!(body["id"], game.id(), "{body}");
    assert_eq!(
        until_sent(&store, 2).await,
        ["game", "move"],
        "then started"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_new_game_the_store_refuses_is_removed_and_refused() {
    let (hub, store) = held_hub();
    store.refuse.store(true, Ordering::SeqCst);
    store.commits.add_permits(1);
    let (game, answer) = spawn_create(&hub, ["human", "human"]);
    let error = answer.await.unwrap().unwrap_err();
    assert_eq!(error.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        error.message.contains("the disk is full"),
        "{}",
        error.message
    );
    assert!(hub.store.get(game.id()).is_none(), "a refused game is held");
}

#[tokio::test(flavor = "current_thread")]
async fn a_new_game_whose_request_is_dropped_while_it_is_stored_is_still_started() {
    let (hub, store, game, answer) = computer_first_being_stored().await;
    // The client goes away: its request's future is dropped while the commit is awaited.
    answer.abort();
    assert!(answer.await.unwrap_err().is_cancelled());
    store.commits.add_permits(1);
    assert_eq!(
        until_sent(&store, 2).await,
        ["game", "move"],
        "a stored game left held and never started"
    );
    assert!(hub.store.get(game.id()).is_some());
}

/// A game two accounts are paired into is answered (and its players told) only once it is
/// stored, its commit awaited with no thread held: on one thread, a start that waited for the
/// commit there would never let the test give it.
#[tokio::test(flavor = "current_thread")]
async fn a_paired_game_is_answered_only_once_stored() {
    let (hub, store) = held_hub();
    let mut seated = Vec::new();
    for name in ["ana", "bob"] {
        let account = hub.people.sign_up(name, "a password long enough", false);
        seated.push(account.await.expect("an account"));
    }
    let terms = crate::pairing::terms::Terms {
        game: ludus_games::GAMES[0].id.to_string(),
        options: serde_json::Map::new(),
        clock: None,
        rated: false,
    };
    let ana = seated[0].id;
    let starting = {
        let hub = Arc::clone(&hub);
        tokio::spawn(async move { crate::pairing::start::start(&hub, &terms, &seated).await })
    };
    assert_eq!(until_sent(&store, 1).await, ["game"], "sent to the store");
    settle().await;
    assert!(!starting.is_finished(), "answered before it was stored");
    store.commits.add_permits(1);
    let (id, tokens) = starting.await.unwrap().expect("the game started");
    assert_eq!(tokens.len(), 2);
    assert!(hub.store.get(&id).is_some());
    let held = hub.people.held_seats(ana, 10).expect("ana's seats");
    assert_eq!(held.first().map(|s| s.game_id.as_str()), Some(id.as_str()));
}
