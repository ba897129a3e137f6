//! Rated games: their clock class, and their rating when they end. The rules' reward of
//! each seat (1 for the winner, 0 for the others; a draw shared by the seats still in play,
//! 0 for a seat knocked out before it) is the score that `people::ratings` turns into pairwise
//! results, so a game of three or four seats is rated the same way as a two-seat one.

use super::Table;
use crate::hub::Hub;
use crate::people::ratings::ClockClass;

impl Table {
    /// The clock class the game is rated in.
    pub fn clock_class(&self) -> ClockClass {
        super::ClockSetup::class_of(self.clocks.as_ref().map(|c| &c.setup))
    }

    /// Rates a rated game that just ended, once; the changes are kept for the snapshot. A
    /// failure is logged and leaves the ratings as they were (the game itself is stored).
    pub(super) fn rate_if_due(&mut self, hub: &Hub, id: &str) {
        if !self.rated || !self.rating_changes.is_empty() {
            return;
        }
        let Some(verdict) = self.game.outcome().map(|o| o.verdict) else {
            return;
        };
        let holders: Option<Vec<i64>> = self
            .seats
            .iter()
            .map(|s| s.account.as_ref().map(|a| a.id))
            .collect();
        let Some(holders) = holders else {
            return;
        };
        // A draw is shared by the seats still in play: a seat knocked out before it lost.
        let view = self.game.view();
        let in_play: Vec<bool> = (0..self.seats.len())
            .map(|i| view.seats.get(i).is_none_or(|s| s.alive))
            .collect();
        let scores = verdict.shares(&in_play);
        match hub.people.rate(
            id,
            self.game.info().id,
            self.clock_class(),
            &holders,
            &scores,
        ) {
            Ok(changes) => self.rating_changes = changes,
            Err(error) => {
                tracing::error!(game = id, "the game could not be rated: {}", error.message);
            }
        }
    }
}
