//! What the lobby's sockets hear: the open seeks, to everybody, and each signed-in
//! account's own news (a game of theirs began, a challenge came or was declined), to that
//! account's sockets only. Broadcast channels: a slow socket loses old frames, never holds
//! the sender; a lobby socket that lagged is sent the whole list again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use tokio::sync::broadcast;

/// Frames a socket may fall behind by before it is told the whole list again: a busy lobby
/// sends a socket some 135 frames a second, so this absorbs a stall of several seconds.
const BACKLOG: usize = 1024;

/// An account's own frames kept for a socket that fell behind (a channel per account
/// listening: kept small, its news comes seldom).
const PERSONAL_BACKLOG: usize = 64;

/// Accounts' channels kept before those nobody listens to are dropped.
const FORGET_AFTER: usize = 10_000;

/// The lobby's channels.
#[derive(Debug)]
pub struct Events {
    lobby: broadcast::Sender<Arc<str>>,
    personal: Mutex<HashMap<i64, broadcast::Sender<Arc<str>>>>,
}

impl Default for Events {
    fn default() -> Events {
        Events {
            lobby: broadcast::Sender::new(BACKLOG),
            personal: Mutex::new(HashMap::new()),
        }
    }
}

impl Events {
    /// Tells every lobby socket.
    pub fn to_lobby(&self, frame: &Value) {
        let _ = self.lobby.send(Arc::from(frame.to_string()));
    }

    /// Tells the sockets of account `user_id` (nothing if none is open).
    pub fn to_account(&self, user_id: i64, frame: &Value) {
        let mut personal = self.personal.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(sender) = personal.get(&user_id) {
            if sender.send(Arc::from(frame.to_string())).is_err() {
                // Nobody listens any more: the channel goes.
                personal.remove(&user_id);
            }
        }
    }

    /// A receiver of the lobby's frames.
    pub fn lobby(&self) -> broadcast::Receiver<Arc<str>> {
        self.lobby.subscribe()
    }

    /// A receiver of account `user_id`'s frames.
    pub fn account(&self, user_id: i64) -> broadcast::Receiver<Arc<str>> {
        let mut personal = self.personal.lock().unwrap_or_else(PoisonError::into_inner);
        if personal.len() >= FORGET_AFTER {
            personal.retain(|_, sender| sender.receiver_count() > 0);
        }
        personal
            .entry(user_id)
            .or_insert_with(|| broadcast::Sender::new(PERSONAL_BACKLOG))
            .subscribe()
    }

    /// Whether account `user_id` has a lobby socket open.
    pub fn is_listening(&self, user_id: i64) -> bool {
        let personal = self.personal.lock().unwrap_or_else(PoisonError::into_inner);
        personal
            .get(&user_id)
            .is_some_and(|s| s.receiver_count() > 0)
    }
}
