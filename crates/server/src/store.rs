//! Where games are held: the [`Store`] trait and its in-memory implementation.
//!
//! Every change passes through [`Store::log`] after the rules accepted it and before it is
//! applied and broadcast, so a persistent store (SQLite, for games that survive a restart)
//! slots in behind the same trait: it writes the change, and a restart replays the stored
//! changes through the rules. The memory store keeps nothing beyond the live games.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use crate::live::LiveGame;

/// A change to a game, as a store records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    /// A decision or a whole turn in notation.
    Move(&'a str),
    /// Decisions taken back.
    Undo(usize),
    /// Decisions played again.
    Redo(usize),
    /// A seat (1-based) resigned.
    Resign(usize),
    /// A seat (1-based) kept for an invited player was claimed.
    Claim(usize),
    /// An absent person's seat (1-based) handed to a computer player (its spec).
    Hand(usize, &'a str),
    /// The seats' remaining times after a change, comma-separated milliseconds.
    Clock(&'a str),
    /// The seats agreed on a draw.
    Draw,
    /// A seat (1-based) ran out of time.
    Flag(usize),
    /// The offer waiting for an answer, in its stored form (`draw 1 2`), or `""` for none;
    /// does not change `seq`.
    Offer(&'a str),
    /// The owner's pause and speed (`paused=true speed_ms=400 step=true`).
    Control(&'a str),
}

impl Change<'_> {
    /// Whether the change bumped the game's `seq` (clock and offer rows do not).
    pub fn bumps_seq(kind: &str) -> bool {
        !matches!(kind, "clock" | "offer")
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

/// Holds the games of a server.
pub trait Store: Send + Sync + fmt::Debug {
    /// Adds a new game.
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError>;
    /// The game `id`.
    fn get(&self, id: &str) -> Option<Arc<LiveGame>>;
    /// Removes the game `id`.
    fn remove(&self, id: &str) -> Option<Arc<LiveGame>>;
    /// Every game held.
    fn games(&self) -> Vec<Arc<LiveGame>>;
    /// Records a change the rules accepted, before it is applied.
    fn log(&self, id: &str, change: Change<'_>) -> Result<(), StoreError>;
    /// Called once the server stopped serving: a persistent store finishes its writes and
    /// leaves its files complete on their own (nothing left in a log beside them). The
    /// store still works after it; a store that keeps nothing does nothing.
    fn close(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Games in memory, at most `max_games`; when full, the game finished longest ago goes.
#[derive(Debug)]
pub struct MemoryStore {
    games: RwLock<HashMap<String, Arc<LiveGame>>>,
    max_games: usize,
}

impl MemoryStore {
    /// An empty store for at most `max_games` games.
    pub fn new(max_games: usize) -> MemoryStore {
        MemoryStore {
            games: RwLock::new(HashMap::new()),
            max_games: max_games.max(1),
        }
    }
}

impl Store for MemoryStore {
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError> {
        let mut games = self.games.write().unwrap_or_else(PoisonError::into_inner);
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
            if let Some(evicted) = games.remove(&id) {
                evicted.stop_searches();
            }
        }
        games.insert(game.id().to_string(), game);
        Ok(())
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

    fn log(&self, _id: &str, _change: Change<'_>) -> Result<(), StoreError> {
        Ok(())
    }
}
