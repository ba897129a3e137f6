//! A game being played on the server: its table (the erased game, the seats and their
//! tokens, the sequence number, the computer players' state) behind one lock, and a log of
//! frames that carries every change to the game's sockets (live/fan_out.rs).
//!
//! Every change follows one path ([`LiveGame::act`], or a computer's move arriving), holding
//! the game's turn ([`LiveGame::turn`]): check the token and `seq`, check the action with the
//! rules, log it in the store, apply it, bump `seq`, start the next computer search if one is
//! due, then broadcast the decision events and one frame of what changed (live/delta.rs), so
//! every socket sees changes in order. A move awaits its commit with the table unlocked and
//! no thread held (a blocked thread per move waiting on the disk was a thread switch per move
//! and, under load, hundreds of threads); the rarer changes wait for theirs under the lock.
//! The whole snapshot is built only when asked for (live/snapshot.rs).

mod agents;
mod analysis;
mod chat;
mod clock;
mod clock_row;
mod commands;
#[cfg(test)]
mod commit_tests;
mod computer;
mod create;
mod delta;
mod expiry;
mod fan_out;
mod hint;
mod invitations;
mod knock_outs;
mod lobby;
mod offers;
mod planned;
mod presence;
mod rated;
mod snapshot;
mod steady;
#[cfg(test)]
mod store_first_tests;
mod stored;
mod table;
mod turns;
mod view_json;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use crate::error::ApiError;

#[cfg(test)]
pub(crate) use chat::SPECTATORS_FRAME;
pub use chat::{
    kept as kept_chat, player_may_read, Channel, ChatLine, ChatPace, Speaker, KEPT as CHAT_KEPT,
};
pub use clock::{ticker, ClockSetup};
pub use clock_row::{ClockRow, Deadline};
pub use commands::{Command, TableCommand};
pub use computer::unix_ms;
#[cfg(test)]
pub(crate) use create::create_seated;
pub use create::{check_clock, create_later, created, option_pair, Seating};
pub use expiry::sweeper;
pub use fan_out::{CatchUp, FrameLog, Offered, Outlet};
pub use hint::hint;
pub use lobby::{listed, Group};
pub use stored::{replay, restore, Setup};
pub use table::{SeatAccount, Table};
pub use view_json::ViewJson;

/// What separates the frames of one broadcast item (a move's events and its delta). A JSON
/// frame never holds a raw line break, and one item is taken by a socket as a whole: sent as
/// separate items, a socket woken by the first often wrote it before the second arrived: two
/// system calls where one does (in the long Splut! game, 6 `sendto` a move where the four
/// sockets and the mover's client need 5).
pub const FRAMES_APART: u8 = b'\n';

/// One game on the server.
#[derive(Debug)]
pub struct LiveGame {
    id: String,
    table: Mutex<Table>,
    /// Every change's frames, on their way to the game's sockets (live/fan_out.rs).
    frames: FrameLog,
    /// Held by the change under way, from its check to its broadcast (see [`LiveGame::turn`]).
    turn: tokio::sync::Mutex<()>,
    /// Played with clocks (set once: the ticker skips the others without locking them).
    clocked: bool,
    /// Whether the game is over, as `Table::finished_at` says, kept beside the lock so that
    /// counting a store's games in progress (at every game created) locks none of them.
    finished: AtomicBool,
}

/// Runs `change` (a change that stores itself, then applies what it stored) to its end in a
/// task of its own, and answers its answer. A request's future is dropped when its client
/// goes away (an HTTP connection closed mid-request); dropped between its store and its
/// apply, a change would be on disk and not in the game, and every change after it checked
/// against a position the disk does not hold.
pub(crate) async fn to_the_end<T: Send + 'static>(
    change: impl std::future::Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(change).await.unwrap_or_else(|_| {
        Err(ApiError::unavailable(
            "the change stopped before its end (the server is stopping): expected a retry",
        ))
    })
}

impl LiveGame {
    /// A game with id `id` around `table`.
    pub fn new(id: String, mut table: Table) -> Arc<LiveGame> {
        table.id.clone_from(&id);
        table.show_from_start();
        Arc::new(LiveGame {
            clocked: table.clocks.is_some(),
            finished: AtomicBool::new(table.finished_at.is_some()),
            id,
            table: Mutex::new(table),
            turn: tokio::sync::Mutex::new(()),
            frames: FrameLog::default(),
        })
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The table, locked. A panic while it was held (none is expected) does not make the
    /// game unusable: the table is always left consistent between statements that matter.
    pub fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The game's turn to change, awaited: held from a change's check to its broadcast, so
    /// that a move awaiting its commit (with the table unlocked, and no thread held) is
    /// applied to the position it was checked on. Every path that stores a change or a chat
    /// line takes it first; reads and presence only lock the table.
    pub async fn turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// The game's turn if no change is under way: for the rounds of the clocks and of
    /// abandoned games, which look again a moment later.
    pub fn try_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        self.turn.try_lock().ok()
    }

    /// The current snapshot (JSON).
    pub fn snapshot(&self) -> Arc<str> {
        self.lock().snapshot()
    }

    /// The work this game cost the server, counted (see `Table::work`), and how its items
    /// reached the sockets: written by the change's own task, or handed to a socket's.
    pub fn work(&self) -> serde_json::Value {
        let mut work = self.lock().work();
        let (written, handed_over) = self.frames.counts();
        work["items_written_by_the_change"] = written.into();
        work["items_handed_over"] = handed_over.into();
        work
    }

    /// The current snapshot and the place in the frames' log that follows it, taken
    /// together so that no change falls between them.
    pub fn snapshot_and_place(&self) -> (Arc<str>, u64) {
        let mut table = self.lock();
        (table.snapshot(), self.frames.end())
    }

    /// The log of the game's frames.
    pub fn frames(&self) -> &FrameLog {
        &self.frames
    }

    /// Sends a frame to every socket of the game; or several frames, each followed by
    /// [`FRAMES_APART`] but the last, which the sockets send as one write.
    pub fn broadcast(&self, frame: impl Into<Arc<str>>) {
        self.frames.push(frame.into());
    }

    /// Whether the game is over, read without its lock.
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    /// When the game ended, if it has.
    pub fn finished_at(&self) -> Option<Instant> {
        self.lock().finished_at
    }

    /// The entry of `GET /api/games`.
    pub fn summary(&self) -> (Instant, serde_json::Value) {
        let table = self.lock();
        (table.last_change, table.summary(&self.id))
    }

    /// Stops every search of this game (its computer's move and hints).
    pub fn stop_searches(&self) {
        self.lock().stop_searches();
    }
}
