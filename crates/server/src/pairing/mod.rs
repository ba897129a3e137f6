//! Pairing: how people who do not know each other get a game. Seeks in a live lobby, quick
//! pairing pools by rating, challenges to a named player and rematches, all ending in
//! [`start::start`], which makes the game with each account in its seat and tells every
//! player's lobby socket. Everything here lives in memory and is bounded (an offer is worth
//! nothing after a restart; the games it made are stored like any other).

pub mod challenges;
pub mod events;
pub mod pools;
pub mod seeks;
pub mod start;
pub mod terms;

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use serde_json::json;

use self::challenges::Challenges;
use self::events::Events;
use self::pools::Pools;
use self::seeks::Seeks;

/// The offers of the server and the lobby's channels.
#[derive(Debug, Default)]
pub struct Pairing {
    seeks: Mutex<Seeks>,
    challenges: Mutex<Challenges>,
    pools: Mutex<Pools>,
    /// The lobby's sockets and each account's.
    pub events: Events,
}

impl Pairing {
    /// The open seeks (locked).
    pub fn seeks(&self) -> MutexGuard<'_, Seeks> {
        self.seeks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The open challenges (locked).
    pub fn challenges(&self) -> MutexGuard<'_, Challenges> {
        self.challenges
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The pools (locked).
    pub fn pools(&self) -> MutexGuard<'_, Pools> {
        self.pools.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Withdraws what has waited too long, telling those concerned.
    pub fn expire(&self) {
        let now = Instant::now();
        for id in self.seeks().expire(now) {
            self.events.to_lobby(&json!({"type": "unseek", "id": id}));
        }
        for challenge in self.challenges().expire(now) {
            let frame = json!({"type": "challenge_canceled", "id": challenge.id});
            self.events.to_account(challenge.from.id, &frame);
            self.events.to_account(challenge.to.id, &frame);
        }
        self.pools().expire(now);
    }
}

/// Withdraws stale seeks, challenges and pool places every half minute until the server
/// stops.
pub async fn sweeper(hub: std::sync::Arc<crate::hub::Hub>) {
    let mut closing = hub.closing();
    loop {
        tokio::select! {
            () = tokio::time::sleep(std::time::Duration::from_secs(30)) => {}
            _ = closing.changed() => return,
        }
        hub.pairing.expire();
    }
}
