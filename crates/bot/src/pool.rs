//! The engine pool: which games the bot plays now (at most `--max-games`, each once however
//! many times the server announces it), and one engine process per game, started and ended
//! as the arena does (`ludus_ai::arena::UgiClient`: the handshake, the rules options, a
//! process group ended whole). The engine's blocking calls run on tokio's blocking threads.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use ludus_ai::arena::{EngineSpec, Forfeit, UgiClient};
use tokio::sync::watch;
use tokio::task::JoinError;

/// The games in play and the places promised to challenges being accepted.
#[derive(Debug, Default)]
struct Seats {
    games: BTreeSet<String>,
    promised: usize,
}

/// The games the bot plays at once.
#[derive(Debug)]
pub struct Pool {
    max: usize,
    seats: Mutex<Seats>,
    /// The number of games in play, for whoever keeps the seeks posted.
    playing: watch::Sender<usize>,
}

/// A place kept for a challenge being accepted; given back when dropped unless the game
/// took it.
#[derive(Debug)]
pub struct Promise {
    pool: Arc<Pool>,
    /// The game took the place: nothing to give back.
    kept: bool,
}

/// A game in play; it leaves the pool when dropped.
#[derive(Debug)]
pub struct Slot {
    pool: Arc<Pool>,
    game: String,
}

impl Pool {
    /// A pool of at most `max` games at once.
    pub fn new(max: usize) -> Arc<Pool> {
        Arc::new(Pool {
            max,
            seats: Mutex::new(Seats::default()),
            playing: watch::channel(0).0,
        })
    }

    fn seats(&self) -> MutexGuard<'_, Seats> {
        self.seats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether another game may start.
    pub fn has_room(&self) -> bool {
        let seats = self.seats();
        seats.games.len() + seats.promised < self.max
    }

    /// Follows the number of games in play.
    pub fn watch(&self) -> watch::Receiver<usize> {
        self.playing.subscribe()
    }

    /// Keeps a place for a challenge being accepted, if there is room.
    pub fn promise(self: &Arc<Self>) -> Option<Promise> {
        let mut seats = self.seats();
        if seats.games.len() + seats.promised >= self.max {
            return None;
        }
        seats.promised += 1;
        Some(Promise {
            pool: Arc::clone(self),
            kept: false,
        })
    }

    /// Enters `game`, in the place `promise` kept if any (a game started by a seek, a
    /// resumed game, or one the server started may go over `--max-games`: it is played
    /// anyway). `None` if it is already in play.
    pub fn enter(self: &Arc<Self>, game: &str, promise: Option<Promise>) -> Option<Slot> {
        let promised = promise.map(|mut promise| promise.kept = true).is_some();
        let mut seats = self.seats();
        if promised {
            seats.promised -= 1;
        }
        if !seats.games.insert(game.to_string()) {
            return None;
        }
        self.playing.send_replace(seats.games.len());
        Some(Slot {
            pool: Arc::clone(self),
            game: game.to_string(),
        })
    }
}

impl Drop for Promise {
    fn drop(&mut self) {
        if !self.kept {
            self.pool.seats().promised -= 1;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut seats = self.pool.seats();
        seats.games.remove(&self.game);
        self.pool.playing.send_replace(seats.games.len());
    }
}

/// Why an engine gave no answer; the game is resigned with this line.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The engine broke the protocol, crashed or ran out of time (the reason in words).
    #[error("{}", .0.0)]
    Forfeit(Forfeit),
    /// The blocking thread that talked to it failed.
    #[error("the engine's thread failed: {0}")]
    Thread(JoinError),
    /// The task that waited for its answer failed.
    #[error("the engine's task failed: {0}")]
    Task(JoinError),
}

/// Starts `spec` for a game with these rules options (the handshake included).
pub async fn start(
    spec: EngineSpec,
    options: Vec<(String, String)>,
) -> Result<UgiClient, EngineError> {
    tokio::task::spawn_blocking(move || UgiClient::start(&spec, &options))
        .await
        .map_err(EngineError::Thread)?
        .map_err(EngineError::Forfeit)
}

/// Asks `engine` for a decision: its `bestmove`, or why it failed; the engine comes back
/// unless its thread failed.
pub async fn search(
    mut engine: UgiClient,
    position: String,
    go: String,
    limit: Duration,
) -> (Option<UgiClient>, Result<String, EngineError>) {
    let asked = tokio::task::spawn_blocking(move || {
        let best = engine
            .search(&position, &go, limit)
            .map_err(EngineError::Forfeit);
        (engine, best)
    });
    match asked.await {
        Ok((engine, best)) => (Some(engine), best),
        Err(e) => (None, Err(EngineError::Thread(e))),
    }
}

/// Ends `engine` (`quit`, then its process group), off the async threads.
pub fn end(engine: UgiClient) {
    drop(tokio::task::spawn_blocking(move || drop(engine)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_promised_taken_and_given_back() {
        let pool = Pool::new(2);
        let watch = pool.watch();
        let first = pool.promise().expect("room for one");
        let second = pool.promise().expect("room for two");
        assert!(pool.promise().is_none(), "two places promised of two");
        drop(second);
        assert!(pool.has_room(), "a promise given back frees its place");
        let slot = pool.enter("a", Some(first)).expect("a new game");
        assert_eq!(*watch.borrow(), 1);
        assert!(pool.enter("a", None).is_none(), "a game is played once");
        let other = pool.enter("b", None).expect("another game");
        assert!(!pool.has_room());
        // A game the server started goes over the limit: it is played anyway.
        let third = pool.enter("c", None).expect("played over the limit");
        drop((slot, other, third));
        assert_eq!(*watch.borrow(), 0);
        assert!(pool.has_room());
    }
}
