//! Rated games: their clock class, and their rating when they end. The rules' reward of
//! each seat (1 for the winner, 0 for the others; a draw shared by the seats still in play,
//! 0 for a seat knocked out before it) is the score that `people::ratings` turns into pairwise
//! results, so a game of three or four seats is rated the same way as a two-seat one.

use std::sync::Arc;

use super::{LiveGame, Table};
use crate::hub::Hub;
use crate::people::ratings::ClockClass;

impl Table {
    /// The clock class the game is rated in.
    pub fn clock_class(&self) -> ClockClass {
        super::ClockSetup::class_of(self.clocks.as_ref().map(|c| &c.setup))
    }

    /// The holders and scores of a rated game that just ended, once (the mark is cleared);
    /// `None` when no rating is due.
    fn rating_due_now(&mut self) -> Option<(Vec<i64>, Vec<f64>)> {
        // Marked only in a rated game (`LiveGame::commit`); a game is rated once.
        if !std::mem::take(&mut self.rating_due) || !self.rating_changes.is_empty() {
            return None;
        }
        let verdict = self.game.outcome()?.verdict;
        let holders: Vec<i64> = self
            .seats
            .iter()
            .map(|s| s.account.as_ref().map(|a| a.id))
            .collect::<Option<_>>()?;
        // A draw is shared by the seats still in play: a seat knocked out before it lost.
        let view = self.game.view();
        let in_play: Vec<bool> = (0..self.seats.len())
            .map(|i| view.seats.get(i).is_none_or(|s| s.alive))
            .collect();
        Some((holders, verdict.shares(&in_play)))
    }
}

impl LiveGame {
    /// Rates a rated game that just ended, once: the ratings are read and written by one job
    /// of the games' writer, its commit awaited with the table unlocked and no thread held;
    /// the changes are kept for the snapshot and shown to every socket. Called by every
    /// change's task after its commit, holding the game's turn, so nothing changes the game
    /// meanwhile (an answer to the change is built after it, and carries the ratings). A
    /// failure is logged and leaves the ratings as they were (the game itself is stored).
    pub(super) async fn rate_if_due(&self, hub: &Hub) {
        let (due, game, class) = {
            let mut table = self.lock();
            (
                table.rating_due_now(),
                table.game.info().id,
                table.clock_class(),
            )
        };
        let Some((holders, scores)) = due else {
            return;
        };
        match hub
            .people
            .rate(&self.id, game, class, &holders, &scores)
            .await
        {
            Ok(changes) => {
                let mut table = self.lock();
                table.rating_changes = changes;
                self.refresh(&mut table);
            }
            Err(error) => {
                tracing::error!(
                    game = self.id,
                    "the game could not be rated: {}",
                    error.message
                );
            }
        }
    }

    /// What follows every change that may end the game, once its table is unlocked: the
    /// ratings if it ended a rated game, then the computer's search `job` if one is due.
    pub(super) async fn after_change(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        job: Option<super::computer::Job>,
    ) {
        self.rate_if_due(hub).await;
        if let Some(job) = job {
            super::computer::spawn(Arc::clone(self), Arc::clone(hub), job);
        }
    }
}
