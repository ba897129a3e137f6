//! What every request shares: the limits (per server and per client), the store of games, the
//! search slots (one search per core, shared fairly between clients), and the shutdown signal.

use std::sync::Arc;

use tokio::sync::watch;

use crate::error::ApiError;
use crate::limits::Limits;
use crate::live::LiveGame;
use crate::net::caps::Caps;
use crate::pairing::Pairing;
use crate::people::People;
use crate::scheduler::Scheduler;
use crate::store::{MemoryStore, Store};
use crate::Config;

/// The server's shared state.
#[derive(Debug)]
pub struct Hub {
    /// Limits and budgets.
    pub config: Config,
    /// Where the games are held.
    pub store: Arc<dyn Store>,
    /// One slot per search that may run at once, given to clients in turn.
    pub searches: Arc<Scheduler>,
    /// Per-client limits on actions and games.
    pub limits: Limits,
    /// The WebSockets open, per client and in all.
    pub sockets: Arc<Caps>,
    /// Accounts, sessions and ratings.
    pub people: Arc<People>,
    /// Seeks, challenges, pools and the lobby's sockets.
    pub pairing: Pairing,
    closing: watch::Sender<bool>,
}

impl Hub {
    /// A hub holding its games in memory, and its accounts in `people`.
    pub fn new(config: Config, people: Arc<People>) -> Arc<Hub> {
        let store = Arc::new(MemoryStore::new(
            config.max_games,
            config.max_games_in_progress,
        ));
        Hub::with_store(config, store, people)
    }

    /// A hub holding its games in `store`, and its accounts in `people`.
    pub fn with_store(config: Config, store: Arc<dyn Store>, people: Arc<People>) -> Arc<Hub> {
        let searches = Scheduler::new(config.search_threads, config.max_queued_hints);
        let limits = Limits::new(
            config.actions_per_second,
            config.action_burst,
            config.games_per_client,
            config.games_per_client_per_day,
        );
        let sockets = Caps::new(config.websockets_per_client, config.max_websockets);
        Arc::new(Hub {
            people,
            pairing: Pairing::default(),
            limits,
            sockets,
            config,
            store,
            searches,
            closing: watch::Sender::new(false),
        })
    }

    /// The game `id`, or a 404 (a 409 for a finished game read back from disk only).
    pub fn game(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        if let Some(game) = self.store.get(id) {
            return Ok(game);
        }
        if self.store.archived(id).is_some() {
            return Err(ApiError::conflict(format!(
                "game '{id}' is over and kept on disk only: expected to read it (GET /api/games/{id}, /record, /view), not to change it"
            )));
        }
        Err(no_game(id))
    }

    /// The game `id` for reading: held in memory, or a finished one read back from disk; or
    /// a 404.
    pub fn read_game(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        self.store
            .get(id)
            .or_else(|| self.store.archived(id))
            .ok_or_else(|| no_game(id))
    }

    /// Whether the server is shutting down (no new searches start then).
    pub fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    /// Fires when the server starts shutting down.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Starts shutting down: no new searches, every running one stopped, sockets told.
    pub fn close(&self) {
        self.closing.send_replace(true);
        for game in self.store.games() {
            game.stop_searches();
        }
    }
}

fn no_game(id: &str) -> ApiError {
    ApiError::not_found(format!(
        "no game '{id}': expected an id from POST /api/games or GET /api/games"
    ))
}
