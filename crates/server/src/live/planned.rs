//! Changes other than moves stored before they are applied, as moves are: checked under the
//! table's lock into a [`Planned`] change (the row to store, and what applying it does), then
//! stored with the table unlocked and no thread held while the commit is awaited, then
//! applied. The caller holds the game's turn throughout, so nothing else changes the game
//! between the check and the apply.

use std::sync::MutexGuard;

use super::table::Table;
use super::LiveGame;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::Change;

/// What applying a stored change does to the game, given the game and its table.
type Apply<R> = Box<dyn FnOnce(&LiveGame, &Hub, &mut Table) -> R + Send>;

/// A change checked against the table: its row, and what applying it does.
pub(super) struct Planned<R> {
    change: Change,
    apply: Apply<R>,
}

impl<R> Planned<R> {
    /// The change `change`, which `apply` applies once it is stored.
    pub(super) fn new(
        change: Change,
        apply: impl FnOnce(&LiveGame, &Hub, &mut Table) -> R + Send + 'static,
    ) -> Planned<R> {
        Planned {
            change,
            apply: Box::new(apply),
        }
    }
}

impl LiveGame {
    /// Stores `planned`'s change, awaiting its commit with the table unlocked, then applies
    /// it: answers the table, locked, and what the apply answered. A change the store refuses
    /// changes nothing (its error carries the snapshot). The caller holds the game's turn.
    pub(super) async fn store_then_apply<R>(
        &self,
        hub: &Hub,
        planned: Planned<R>,
    ) -> Result<(MutexGuard<'_, Table>, R), ApiError> {
        let stored = hub.store.send(&self.id, planned.change).committed().await;
        let mut table = self.lock();
        if let Err(error) = stored {
            let error = ApiError::unavailable(format!("the game could not be stored: {error}"));
            return Err(error.with_snapshot(table.snapshot()));
        }
        let answer = (planned.apply)(self, hub, &mut table);
        Ok((table, answer))
    }
}
