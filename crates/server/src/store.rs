//! Where games are held: the [`Store`] trait and its in-memory implementation.
//!
//! Every change passes through [`Store::send`] after the rules accepted it and before it is
//! applied and broadcast, so a persistent store (SQLite, for games that survive a restart)
//! slots in behind the same trait: it writes the change, and a restart replays the stored
//! changes through the rules. The memory store keeps nothing beyond the live games.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use crate::live::{ChatLine, ClockRow, LiveGame};
use crate::protocol::Control;

/// A change to a game, as a store records it and reads it back. The SQLite layer gives each
/// its text form (`sqlite/rows.rs`); a restart replays them through the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A decision or a whole turn in notation.
    Move(String),
    /// Decisions taken back.
    Undo(usize),
    /// Decisions played again.
    Redo(usize),
    /// A seat (1-based) resigned.
    Resign(usize),
    /// A seat (1-based) kept for an invited player was claimed.
    Claim(usize),
    /// An absent person's seat (1-based) handed to a computer player (its spec).
    Hand(usize, String),
    /// The clocks after a change.
    Clock(ClockRow),
    /// The seats agreed on a draw.
    Draw,
    /// A seat (1-based) ran out of time.
    Flag(usize),
    /// The offer waiting for an answer, in its stored form (`draw 1 2`), or `""` for none;
    /// does not change `seq`.
    Offer(String),
    /// The owner's pause, step and speed.
    Control(Control),
}

impl Change {
    /// The change's kind in one word, as the `changes` table names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::Move(_) => "move",
            Change::Undo(_) => "undo",
            Change::Redo(_) => "redo",
            Change::Resign(_) => "resign",
            Change::Claim(_) => "claim",
            Change::Hand(..) => "hand",
            Change::Clock(_) => "clock",
            Change::Draw => "draw",
            Change::Flag(_) => "flag",
            Change::Offer(_) => "offer",
            Change::Control(_) => "control",
        }
    }

    /// Whether the change bumped the game's `seq` (clock and offer rows do not).
    pub fn bumps_seq(&self) -> bool {
        !matches!(self, Change::Clock(_) | Change::Offer(_))
    }
}

/// A store that could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A change sent to the store, whose commit is awaited with [`Pending::committed`]: the
/// awaiting task holds no thread meanwhile, so the runtime's threads serve other games.
pub struct Pending(Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send>>);

impl Pending {
    /// A change already stored (or refused).
    pub fn done(result: Result<(), StoreError>) -> Pending {
        Pending(Box::pin(std::future::ready(result)))
    }

    /// A change whose commit `commit` answers.
    pub fn waiting(
        commit: impl Future<Output = Result<(), StoreError>> + Send + 'static,
    ) -> Pending {
        Pending(Box::pin(commit))
    }

    /// Waits until the change is stored; the store's error if it could not be.
    pub async fn committed(self) -> Result<(), StoreError> {
        self.0.await
    }
}

impl fmt::Debug for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Pending")
    }
}

/// Holds the games of a server.
pub trait Store: Send + Sync + fmt::Debug {
    /// Adds a new game.
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError>;
    /// Adds a new game as [`Store::insert`] does and answers at once: the game is held (and
    /// counted) from now on, and stored once the answer resolves; the awaiting task holds no
    /// thread meanwhile. When the answer is an error, the caller removes the game again.
    fn insert_later(&self, game: Arc<LiveGame>) -> Result<Pending, StoreError> {
        self.insert(game).map(|()| Pending::done(Ok(())))
    }
    /// The game `id`.
    fn get(&self, id: &str) -> Option<Arc<LiveGame>>;
    /// Removes the game `id`.
    fn remove(&self, id: &str) -> Option<Arc<LiveGame>>;
    /// Every game held.
    fn games(&self) -> Vec<Arc<LiveGame>>;
    /// Sends a change the rules accepted to be recorded, before it is applied, and answers
    /// at once; the change is stored once the answer resolves, after every change sent
    /// before it. Dropping the answer does not stop the write (a clock row nobody waits for
    /// is still written).
    fn send(&self, id: &str, change: Change) -> Pending;
    /// Sends a line of game `id`'s chat to be recorded (it changes no `seq`), stored once the
    /// answer resolves; a persistent store keeps a game's last [`crate::live::CHAT_KEPT`]
    /// lines, as the live game does. The memory store keeps nothing beyond the live game's
    /// own lines.
    fn chat(&self, _id: &str, _line: &ChatLine) -> Pending {
        Pending::done(Ok(()))
    }
    /// Notes that game `id` ended (`true`) or came back into play by a takeback (`false`),
    /// so that a restart reads only the games in progress.
    fn finished(&self, _id: &str, _finished: bool) -> Result<(), StoreError> {
        Ok(())
    }
    /// Notes what [`Store::finished`] notes, without waiting for it: a lost mark only makes
    /// the next start read the game once more (and mark it then).
    fn finished_later(&self, id: &str, finished: bool) {
        let _ = self.finished(id, finished);
    }
    /// A finished game no longer held in memory, read back from disk for reading only (it
    /// takes no actions); `None` when no such game is stored.
    fn archived(&self, _id: &str) -> Option<Arc<LiveGame>> {
        None
    }
    /// Whether the store answers: a persistent store reads its database (for `/healthz`).
    fn healthy(&self) -> Result<(), StoreError> {
        Ok(())
    }
    /// Called once the server stopped serving: a persistent store finishes its writes and
    /// leaves its files complete on their own (nothing left in a log beside them). The
    /// store still works after it; a store that keeps nothing does nothing.
    fn close(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Games in memory, at most `max_games` of them and `max_in_progress` in progress; when full,
/// the game finished longest ago goes.
#[derive(Debug)]
pub struct MemoryStore {
    games: RwLock<HashMap<String, Arc<LiveGame>>>,
    max_games: usize,
    max_in_progress: usize,
    /// Held by one insert at a time: the games in progress are counted under the read lock
    /// (so reads go on meanwhile), and no other insert can pass the last free place.
    inserting: Mutex<()>,
}

impl MemoryStore {
    /// An empty store for at most `max_games` games, `max_in_progress` of them in progress.
    pub fn new(max_games: usize, max_in_progress: usize) -> MemoryStore {
        MemoryStore {
            games: RwLock::new(HashMap::new()),
            max_games: max_games.max(1),
            max_in_progress: max_in_progress.max(1),
            inserting: Mutex::new(()),
        }
    }

    /// Holds `game` whatever the limits: a game restored at start is served even when the
    /// limits were lowered since it was created.
    pub fn hold(&self, game: Arc<LiveGame>) {
        let mut games = self.games.write().unwrap_or_else(PoisonError::into_inner);
        games.insert(game.id().to_string(), game);
    }

    /// How many games held are in progress.
    fn in_progress(&self) -> usize {
        let games = self.games.read().unwrap_or_else(PoisonError::into_inner);
        games.values().filter(|g| !g.is_finished()).count()
    }

    /// Adds `game` as [`Store::insert`] does; answers the finished game it pushed out of
    /// memory to make room, if any.
    pub fn insert_evicting(
        &self,
        game: Arc<LiveGame>,
    ) -> Result<Option<Arc<LiveGame>>, StoreError> {
        let _one_at_a_time = self
            .inserting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let playing = self.in_progress();
        if playing >= self.max_in_progress {
            return Err(StoreError(format!(
                "the server holds {playing} games in progress, its limit: expected one to finish or be abandoned first"
            )));
        }
        let mut games = self.games.write().unwrap_or_else(PoisonError::into_inner);
        let mut evicted = None;
        if games.len() >= self.max_games {
            let oldest = games
                .values()
                .filter_map(|g| g.finished_at().map(|at| (at, g.id().to_string())))
                .min()
                .map(|(_, id)| id);
            let Some(id) = oldest else {
                return Err(StoreError(format!(
                    "the server holds {} games in progress, its limit; finish or delete one first",
                    games.len()
                )));
            };
            evicted = games.remove(&id);
            if let Some(evicted) = &evicted {
                evicted.stop_searches();
            }
        }
        games.insert(game.id().to_string(), game);
        Ok(evicted)
    }
}

impl Store for MemoryStore {
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError> {
        self.insert_evicting(game).map(drop)
    }

    fn get(&self, id: &str) -> Option<Arc<LiveGame>> {
        let games = self.games.read().unwrap_or_else(PoisonError::into_inner);
        games.get(id).cloned()
    }

    fn remove(&self, id: &str) -> Option<Arc<LiveGame>> {
        let mut games = self.games.write().unwrap_or_else(PoisonError::into_inner);
        games.remove(id)
    }

    fn games(&self) -> Vec<Arc<LiveGame>> {
        let games = self.games.read().unwrap_or_else(PoisonError::into_inner);
        games.values().cloned().collect()
    }

    fn send(&self, _id: &str, _change: Change) -> Pending {
        Pending::done(Ok(()))
    }
}
