//! Abandoned games end by themselves, so games in progress cannot fill the server for good.
//!
//! A game in progress is abandoned when nobody touched it for `Config::abandon_after_seconds`:
//! no change, no socket of a person open, none closed since. The sweep then judges the seat to
//! move as on time out: it is flagged (`Change::Flag`, stored like a clock's flag, so the end
//! survives a restart) and loses; in Splut! with 3-4 seats it leaves the game as on
//! resignation and the game goes on, the next absent seat waiting its own full period. Against
//! the computer the person to move is flagged the same way: the game ends with a result that
//! records and exports read as usual, rather than vanishing with its moves. A game whose
//! correspondence clock runs is left to its deadline (up to 14 days per move).

use std::sync::Arc;
use std::time::Duration;

use ludus_engine::Seat;

use super::{LiveGame, Table};
use crate::hub::Hub;

/// The longest pause between two sweeps.
const MAX_SWEEP: Duration = Duration::from_secs(60);

/// The shortest pause between two sweeps.
const MIN_SWEEP: Duration = Duration::from_millis(100);

/// Ends abandoned games until the server closes; does nothing when `abandon_after_seconds`
/// is not a positive number of seconds.
pub async fn sweeper(hub: Arc<Hub>) {
    let Some(after) = Duration::try_from_secs_f64(hub.config.abandon_after_seconds)
        .ok()
        .filter(|after| !after.is_zero())
    else {
        return;
    };
    // A tenth of the period: a game ends at most 10% later than due.
    let every = (after / 10).clamp(MIN_SWEEP, MAX_SWEEP);
    let mut closing = hub.closing();
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            _ = closing.changed() => return,
        }
        for game in hub.store.games() {
            game.end_if_abandoned(&hub, after).await;
        }
    }
}

impl LiveGame {
    /// Flags the seat to move if the game was left untouched for `after`.
    async fn end_if_abandoned(self: &Arc<Self>, hub: &Arc<Hub>, after: Duration) {
        // A change under way touches the game: it is not abandoned.
        let Some(_turn) = self.try_turn() else {
            return;
        };
        if let Some(seat) = self.abandoned_seat(after) {
            self.flag(hub, seat).await;
        }
    }

    /// The seat to move of a game left untouched for `after`, if it is to be flagged.
    fn abandoned_seat(&self, after: Duration) -> Option<Seat> {
        let table = self.lock();
        if table.game.outcome().is_some() || table.thinking.is_some() {
            return None; // over, or a computer is about to move
        }
        if table
            .clocks
            .as_ref()
            .is_some_and(|c| c.is_correspondence() && c.running.is_some())
        {
            return None; // its deadline judges it, up to two weeks on
        }
        let seat = table.game.to_move()?;
        is_abandoned(&table, after).then_some(seat)
    }
}

/// No person's socket is open and nothing happened for `after`: no change, no socket closed.
fn is_abandoned(table: &Table, after: Duration) -> bool {
    let watched = table
        .seats
        .iter()
        .zip(&table.presence)
        .any(|(seat, presence)| seat.computer.is_none() && presence.sockets > 0);
    if watched {
        return false;
    }
    let touched = table
        .presence
        .iter()
        .filter_map(|presence| presence.left_at)
        .fold(table.last_change, std::cmp::Ord::max);
    touched.elapsed() >= after
}
