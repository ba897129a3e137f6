//! What every request shares: the limits (per server and per client), the store of games, the permits that allow one
//! search per core, and the shutdown signal.

use std::sync::Arc;

use tokio::sync::{watch, Semaphore};

use crate::error::ApiError;
use crate::limits::Limits;
use crate::live::LiveGame;
use crate::net::caps::Caps;
use crate::store::{MemoryStore, Store};
use crate::Config;

/// The server's shared state.
#[derive(Debug)]
pub struct Hub {
    /// Limits and budgets.
    pub config: Config,
    /// Where the games are held.
    pub store: Arc<dyn Store>,
    /// One permit per search that may run at once.
    pub searches: Arc<Semaphore>,
    /// Per-client limits on actions and games.
    pub limits: Limits,
    /// The WebSockets open, per client and in all.
    pub sockets: Arc<Caps>,
    closing: watch::Sender<bool>,
}

impl Hub {
    /// A hub holding its games in memory.
    pub fn new(config: Config) -> Arc<Hub> {
        let store = Arc::new(MemoryStore::new(config.max_games));
        Hub::with_store(config, store)
    }

    /// A hub holding its games in `store`.
    pub fn with_store(config: Config, store: Arc<dyn Store>) -> Arc<Hub> {
        let searches = Arc::new(Semaphore::new(config.search_threads.max(1)));
        let limits = Limits::new(
            config.actions_per_second,
            config.action_burst,
            config.games_per_client,
        );
        let sockets = Caps::new(config.websockets_per_client, config.max_websockets);
        Arc::new(Hub {
            limits,
            sockets,
            config,
            store,
            searches,
            closing: watch::Sender::new(false),
        })
    }

    /// The game `id`, or a 404.
    pub fn game(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        self.store.get(id).ok_or_else(|| {
            ApiError::not_found(format!(
                "no game '{id}': expected an id from POST /api/games or GET /api/games"
            ))
        })
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
