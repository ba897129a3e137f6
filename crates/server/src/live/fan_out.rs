//! How a game's frames reach its sockets: a short log of the latest items, each socket's place
//! in it, and a fan-out that writes a new item to the game's first sockets from the task that
//! made the change.
//!
//! A task per socket woken by a channel cost a move of a four-seat game three wake-ups of
//! tasks on other threads, and the runtime woke a parked worker to share them: a fifth of the
//! server's CPU a move in `longgame` (docs/SCALING.md). Now a change offers its item to each
//! socket ([`Outlet::offer`]); a socket that is up to date, not busy writing and able to take
//! the bytes at once is written to by the changing task itself, and only a socket that cannot
//! (its client reads slowly, its own task is writing, it is past the first
//! [`WRITTEN_BY_THE_CHANGE`] of the game) is woken to catch up from the log in its own task.
//! Order is kept by each socket's place: an item is written only by whoever finds the
//! socket's place at it, so a socket never gets an item before the one before it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

/// How many items a socket may fall behind before it is sent a fresh snapshot instead.
const BACKLOG: usize = 64;

/// The most sockets a change writes to from its own task; the rest of a game's sockets (a
/// popular game's spectators) are woken, so that their writes spread over the runtime's
/// threads and a move's task does not write to a thousand sockets in turn.
pub const WRITTEN_BY_THE_CHANGE: usize = 8;

/// A receiver of a game's items: a socket, or a test's watcher.
pub trait Outlet: Send + Sync {
    /// Item `index` of the log was just added. `write_now`: whether the caller may write it
    /// itself (else the outlet only wakes its own task). Called with the log locked, so it
    /// must not wait: it writes what the client's socket takes at once, or hands over.
    fn offer(&self, index: u64, item: &Arc<str>, write_now: bool) -> Offered;

    /// The index of the next item the outlet is to be sent: the log keeps the items from
    /// the lowest place of its outlets on, and no older ones.
    fn place(&self) -> u64;
}

/// What became of an item offered to an outlet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Written by the caller.
    Written,
    /// Left to the outlet's own task, woken.
    HandedOver,
    /// Not for this outlet (a seat's socket skips the spectators' chat).
    Skipped,
}

/// What a socket missed since its place in the log.
#[derive(Debug, PartialEq, Eq)]
pub enum CatchUp {
    /// The items from its place on, and the place after them.
    Items(Vec<Arc<str>>, u64),
    /// It fell more than the log holds behind: it needs a fresh snapshot.
    Lagged,
}

/// The game's latest items and the outlets that receive them.
#[derive(Default)]
pub struct FrameLog {
    inner: Mutex<Logged>,
    /// Items written by the changing task, and items handed to a socket's own task: what the
    /// fan-out saves is read from these (`GET /api/games/{id}/work`).
    direct: AtomicU64,
    handed_over: AtomicU64,
}

#[derive(Default)]
struct Logged {
    items: VecDeque<Arc<str>>,
    /// The index of `items[0]`.
    first: u64,
    outlets: Vec<Weak<dyn Outlet>>,
}

impl Logged {
    fn end(&self) -> u64 {
        self.first + self.items.len() as u64
    }

    /// Drops the items below every live outlet's place.
    fn trim(&mut self) {
        let lowest = self
            .outlets
            .iter()
            .filter_map(Weak::upgrade)
            .map(|outlet| outlet.place())
            .min()
            .unwrap_or(u64::MAX);
        self.drop_below(lowest);
    }

    /// Drops the items below `lowest` (at most all of them).
    fn drop_below(&mut self, lowest: u64) {
        let lowest = lowest.min(self.end());
        while self.first < lowest {
            self.items.pop_front();
            self.first += 1;
        }
    }
}

impl std::fmt::Debug for FrameLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let logged = self.lock();
        f.debug_struct("FrameLog")
            .field("first", &logged.first)
            .field("items", &logged.items.len())
            .field("outlets", &logged.outlets.len())
            .finish()
    }
}

impl FrameLog {
    fn lock(&self) -> MutexGuard<'_, Logged> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Logs `item` and offers it to every outlet still alive, the first few to be written now.
    pub fn push(&self, item: Arc<str>) {
        let mut logged = self.lock();
        if logged.items.len() == BACKLOG {
            logged.items.pop_front();
            logged.first += 1;
        }
        let index = logged.end();
        logged.outlets.retain(|outlet| outlet.strong_count() > 0);
        let mut lowest = index + 1;
        for (place, outlet) in logged.outlets.iter().enumerate() {
            let Some(outlet) = outlet.upgrade() else {
                continue;
            };
            match outlet.offer(index, &item, place < WRITTEN_BY_THE_CHANGE) {
                Offered::Written => self.direct.fetch_add(1, Ordering::Relaxed),
                Offered::HandedOver => self.handed_over.fetch_add(1, Ordering::Relaxed),
                Offered::Skipped => 0,
            };
            lowest = lowest.min(outlet.place());
        }
        // Logged after the offers (all under the lock, so no outlet reads the log between).
        logged.items.push_back(item);
        // A socket falls behind only as long as its own task takes to catch up: the items
        // every socket was sent are let go (they are a move's delta, a KiB or more each, and
        // a game kept all the last 64 of them would hold them while nobody moves).
        logged.drop_below(lowest);
    }

    /// Lets go of the items every outlet was sent (after an outlet caught up).
    pub fn trim(&self) {
        self.lock().trim();
    }

    /// Adds `outlet`; its place is the end of the log: the index of the next item. The caller
    /// holds the game's table, so that the snapshot it sends first and this place agree.
    pub fn join(&self, outlet: Weak<dyn Outlet>) -> u64 {
        let mut logged = self.lock();
        // Sockets that ended are let go here too: a game nobody moves in would otherwise
        // keep one entry for every socket ever opened on it.
        logged.outlets.retain(|outlet| outlet.strong_count() > 0);
        logged.outlets.push(outlet);
        logged.end()
    }

    /// The index of the next item.
    pub fn end(&self) -> u64 {
        self.lock().end()
    }

    /// The items from `place` on.
    pub fn since(&self, place: u64) -> CatchUp {
        let logged = self.lock();
        if place < logged.first {
            return CatchUp::Lagged;
        }
        let skip = usize::try_from(place - logged.first).unwrap_or(usize::MAX);
        let items = logged.items.iter().skip(skip).cloned().collect();
        CatchUp::Items(items, logged.end().max(place))
    }

    /// Items written by the changing task, and items handed over.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.direct.load(Ordering::Relaxed),
            self.handed_over.load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// Records what it is offered; takes what it may write now, and is sent the rest when
    /// told to catch up.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<(u64, String, bool)>>, AtomicU64, AtomicBool);

    impl Outlet for Recorder {
        fn offer(&self, index: u64, item: &Arc<str>, write_now: bool) -> Offered {
            self.0
                .lock()
                .unwrap()
                .push((index, item.to_string(), write_now));
            let stuck = self.2.load(Ordering::Relaxed);
            if write_now && !stuck && self.1.load(Ordering::Relaxed) == index {
                self.1.store(index + 1, Ordering::Relaxed);
                Offered::Written
            } else {
                Offered::HandedOver
            }
        }

        fn place(&self) -> u64 {
            self.1.load(Ordering::Relaxed)
        }
    }

    fn join(log: &FrameLog, outlet: &Arc<Recorder>) -> u64 {
        let place = log.join(Arc::downgrade(outlet) as Weak<dyn Outlet>);
        outlet.1.store(place, Ordering::Relaxed);
        place
    }

    #[test]
    fn items_are_offered_in_order_and_only_the_first_outlets_may_write_them_now() {
        let log = FrameLog::default();
        let outlets: Vec<Arc<Recorder>> = (0..WRITTEN_BY_THE_CHANGE + 2)
            .map(|_| Arc::new(Recorder::default()))
            .collect();
        for outlet in &outlets {
            assert_eq!(join(&log, outlet), 0);
        }
        log.push(Arc::from("a"));
        log.push(Arc::from("b"));
        for (place, outlet) in outlets.iter().enumerate() {
            let now = place < WRITTEN_BY_THE_CHANGE;
            let expected = vec![(0, "a".to_string(), now), (1, "b".to_string(), now)];
            assert_eq!(*outlet.0.lock().unwrap(), expected, "outlet {place}");
        }
        let written = 2 * WRITTEN_BY_THE_CHANGE as u64;
        assert_eq!(log.counts(), (written, 4), "written now, and handed over");
    }

    #[test]
    fn a_dropped_outlet_is_offered_nothing_and_leaves_the_log() {
        let log = FrameLog::default();
        let outlet = Arc::new(Recorder::default());
        join(&log, &outlet);
        drop(outlet);
        log.push(Arc::from("a"));
        assert!(log.lock().outlets.is_empty());
    }

    #[test]
    fn sockets_opened_and_closed_on_a_game_nobody_moves_in_are_not_kept() {
        let log = FrameLog::default();
        for _ in 0..100 {
            let outlet = Arc::new(Recorder::default());
            join(&log, &outlet);
        }
        let kept = Arc::new(Recorder::default());
        join(&log, &kept);
        assert_eq!(log.lock().outlets.len(), 1, "only the socket still open");
    }

    #[test]
    fn the_log_keeps_only_what_an_outlet_was_not_sent() {
        let log = FrameLog::default();
        let (early, late) = (Arc::new(Recorder::default()), Arc::new(Recorder::default()));
        join(&log, &early);
        log.push(Arc::from("a"));
        assert_eq!(log.lock().items.len(), 0, "everyone was sent it");
        // `late`'s own task is writing: items wait for it.
        join(&log, &late);
        late.2.store(true, Ordering::Relaxed);
        log.push(Arc::from("b"));
        log.push(Arc::from("c"));
        assert_eq!(early.place(), 3);
        assert_eq!(
            log.since(1),
            CatchUp::Items(vec![Arc::from("b"), Arc::from("c")], 3)
        );
        late.1.store(2, Ordering::Relaxed);
        log.trim();
        assert_eq!(log.lock().first, 2);
        assert_eq!(log.since(2), CatchUp::Items(vec![Arc::from("c")], 3));
        assert_eq!(log.since(1), CatchUp::Lagged);
    }

    #[test]
    fn a_place_behind_the_backlog_needs_a_snapshot_and_one_within_gets_what_follows() {
        let log = FrameLog::default();
        let stalled = Arc::new(Recorder::default());
        join(&log, &stalled);
        stalled.2.store(true, Ordering::Relaxed);
        for n in 0..BACKLOG + 3 {
            log.push(Arc::from(n.to_string()));
        }
        let end = (BACKLOG + 3) as u64;
        assert_eq!(log.since(2), CatchUp::Lagged);
        assert_eq!(log.since(3).clone_count(), (BACKLOG, end));
        assert_eq!(
            log.since(end - 1),
            CatchUp::Items(vec![Arc::from((BACKLOG + 2).to_string())], end)
        );
        assert_eq!(log.since(end), CatchUp::Items(vec![], end));
        assert_eq!(log.end(), end);
    }

    impl CatchUp {
        fn clone_count(&self) -> (usize, u64) {
            match self {
                CatchUp::Items(items, next) => (items.len(), *next),
                CatchUp::Lagged => (0, 0),
            }
        }
    }
}
