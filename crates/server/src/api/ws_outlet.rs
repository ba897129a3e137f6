//! A game socket's writing side (live/fan_out.rs says why): the WebSocket behind a lock that
//! is held only for one poll at a time, so that the task that changed the game can write a
//! new item to it without waking the socket's own task, and that task reads, replies, pings
//! and catches up with the game's log between those writes.
//!
//! The changing task writes only what the socket takes at once (a poll with a waker that does
//! nothing): a frame the socket cannot queue, or a flush the client is slow to take, is left
//! to the socket's own task, woken, which finishes it under the socket timeout as every write
//! of its own. While that task has writes in hand (`held`), items are not written for it but
//! only wake it, so that its frames and the changes' never interleave nor pass each other.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures_util::{Sink, Stream};
use tokio::sync::Notify;

use crate::live::{self, player_may_read, CatchUp, LiveGame, Offered, Outlet};

/// What an outlet writes to and reads from: a WebSocket (or, in the tests, a scripted one).
pub(super) trait Socket:
    Stream<Item = Result<Message, axum::Error>> + Sink<Message, Error = axum::Error> + Unpin + Send
{
}

impl<S> Socket for S where
    S: Stream<Item = Result<Message, axum::Error>>
        + Sink<Message, Error = axum::Error>
        + Unpin
        + Send
{
}

/// The socket and what its own task owes it.
struct Wire<S> {
    socket: S,
    /// The socket's own task has the writes in hand: a change only wakes it.
    held: bool,
    /// The frames of an item the changing task could not queue, oldest first.
    unsent: Vec<Message>,
    /// A write of the changing task failed: the client is gone.
    failed: bool,
}

/// A game's socket as the game's fan-out sees it.
pub(super) struct SocketOutlet<S = WebSocket> {
    wire: Mutex<Wire<S>>,
    /// The index of the next item of the game's log this socket is to be sent; changed by a
    /// change with the wire locked, or by the socket's own task while it holds the writes;
    /// read by the log without either (live/fan_out.rs).
    place: AtomicU64,
    /// Wakes the socket's own task to finish a write or catch up.
    pub(super) wake: Notify,
    /// A seat's socket, which reads the players' chat only.
    seat: bool,
}

impl<S: Socket> SocketOutlet<S> {
    /// `socket`'s outlet, held by its own task until it has sent the first snapshot.
    pub(super) fn new(socket: S, seat: bool) -> Arc<SocketOutlet<S>> {
        Arc::new(SocketOutlet {
            wire: Mutex::new(Wire {
                socket,
                held: true,
                unsent: Vec::new(),
                failed: false,
            }),
            place: AtomicU64::new(0),
            wake: Notify::new(),
            seat,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Wire<S>> {
        self.wire.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets where in the game's log the socket starts (the first snapshot's place).
    pub(super) fn start_at(&self, place: u64) {
        self.place.store(place, Ordering::Relaxed);
    }

    /// Whether this socket is sent `item` (a seat's socket skips the spectators' chat).
    fn reads(&self, item: &str) -> bool {
        !self.seat || player_may_read(item)
    }

    /// The client's next message.
    pub(super) async fn read(&self) -> Option<Result<Message, axum::Error>> {
        poll_fn(|cx| Pin::new(&mut self.lock().socket).poll_next(cx)).await
    }

    /// Sends `own` (replies, pings, the first snapshot) and every item of `game`'s log the
    /// socket has not been sent (a snapshot instead when it fell behind the log), in the
    /// socket's own task; then hands the writing back to the changes. `true` when it sent
    /// the game's deletion: the socket is then closed, and nothing more is written to it.
    pub(super) async fn send(
        &self,
        own: Vec<Message>,
        game: &LiveGame,
    ) -> Result<bool, axum::Error> {
        let unsent = {
            let mut wire = self.lock();
            wire.held = true;
            if wire.failed {
                return Err(axum::Error::new("the socket failed"));
            }
            std::mem::take(&mut wire.unsent)
        };
        for frame in unsent.into_iter().chain(own) {
            self.feed(frame).await?;
        }
        loop {
            let place = self.place();
            let (frames, next) = match game.frames().since(place) {
                CatchUp::Items(items, next) => {
                    let read = items.iter().filter(|item| self.reads(item));
                    (read.flat_map(shared_texts).collect(), next)
                }
                CatchUp::Lagged => {
                    let (snapshot, next) = game.snapshot_and_place();
                    (vec![text(snapshot_frame(&snapshot))], next)
                }
            };
            self.place.store(next, Ordering::Relaxed);
            for frame in frames {
                let deleted = is_deleted(&frame);
                self.feed(frame).await?;
                if deleted {
                    self.flush().await?;
                    return Ok(true);
                }
            }
            self.flush().await?;
            let mut wire = self.lock();
            // An item logged meanwhile found the socket held and only woke it: sent here,
            // before the changes may write again.
            if next >= game.frames().end() {
                wire.held = false;
                drop(wire);
                game.frames().trim();
                return Ok(false);
            }
        }
    }

    /// Queues `frame` on the socket, waiting for room.
    async fn feed(&self, frame: Message) -> Result<(), axum::Error> {
        poll_fn(|cx| Pin::new(&mut self.lock().socket).poll_ready(cx)).await?;
        Pin::new(&mut self.lock().socket).start_send(frame)
    }

    /// Writes out what is queued, waiting for the client to take it.
    async fn flush(&self) -> Result<(), axum::Error> {
        poll_fn(|cx| Pin::new(&mut self.lock().socket).poll_flush(cx)).await
    }

    /// Says goodbye with `frame` where the socket still takes it within `wait` (after
    /// [`SocketOutlet::hold`]: no change writes to it meanwhile).
    pub(super) async fn close(&self, frame: Message, wait: std::time::Duration) {
        let goodbye = async {
            self.feed(frame).await?;
            self.flush().await
        };
        let _ = tokio::time::timeout(wait, goodbye).await;
    }

    /// Marks the socket's writes as its own task's for good (the session ended).
    pub(super) fn hold(&self) {
        self.lock().held = true;
    }
}

impl<S: Socket> Outlet for SocketOutlet<S> {
    fn offer(&self, index: u64, item: &Arc<str>, write_now: bool) -> Offered {
        let wire = if write_now {
            self.wire.try_lock().ok()
        } else {
            None
        };
        let Some(mut wire) = wire.filter(|w| !w.held && self.place() == index) else {
            self.wake.notify_one();
            return Offered::HandedOver;
        };
        if !self.reads(item) {
            self.place.store(index + 1, Ordering::Relaxed);
            return Offered::Skipped;
        }
        if item.starts_with(DELETED) {
            // The socket's own task sends it and closes the socket.
            drop(wire);
            self.wake.notify_one();
            return Offered::HandedOver;
        }
        self.place.store(index + 1, Ordering::Relaxed);
        if write_at_once(&mut wire, shared_texts(item)) {
            return Offered::Written;
        }
        wire.held = true;
        drop(wire);
        self.wake.notify_one();
        Offered::HandedOver
    }

    fn place(&self) -> u64 {
        self.place.load(Ordering::Relaxed)
    }
}

/// Queues `frames` and flushes them with a waker that does nothing: `true` when the socket
/// took them all at once. Otherwise what it could not queue is kept in `unsent` (or the
/// failure noted) for the socket's own task, which polls again with its own waker.
fn write_at_once<S: Socket>(wire: &mut Wire<S>, frames: Vec<Message>) -> bool {
    let mut cx = Context::from_waker(Waker::noop());
    let mut frames = frames.into_iter();
    while let Some(frame) = frames.next() {
        match Pin::new(&mut wire.socket).poll_ready(&mut cx) {
            Poll::Ready(Ok(())) => {
                if Pin::new(&mut wire.socket).start_send(frame).is_err() {
                    wire.failed = true;
                    return false;
                }
            }
            Poll::Ready(Err(_)) => {
                wire.failed = true;
                return false;
            }
            Poll::Pending => {
                wire.unsent.push(frame);
                wire.unsent.extend(frames);
                return false;
            }
        }
    }
    match Pin::new(&mut wire.socket).poll_flush(&mut cx) {
        Poll::Ready(Ok(())) => true,
        Poll::Ready(Err(_)) => {
            wire.failed = true;
            false
        }
        Poll::Pending => false,
    }
}

/// How the game's deletion frame begins.
const DELETED: &str = "{\"type\":\"deleted\"";

fn is_deleted(frame: &Message) -> bool {
    matches!(frame, Message::Text(text) if text.starts_with(DELETED))
}

pub(super) fn text(frame: String) -> Message {
    Message::Text(frame.into())
}

pub(super) fn snapshot_frame(snapshot: &str) -> String {
    format!("{{\"type\":\"snapshot\",\"snapshot\":{snapshot}}}")
}

/// A log item as messages, one per frame (frames sent together are separated by
/// [`live::FRAMES_APART`]), each sharing the item's text with every other socket of the game
/// instead of copying it (snapshots are several KiB, sent to every socket).
fn shared_texts(item: &Arc<str>) -> Vec<Message> {
    struct Shared(Arc<str>);
    impl AsRef<[u8]> for Shared {
        fn as_ref(&self) -> &[u8] {
            self.0.as_bytes()
        }
    }
    let bytes = Bytes::from_owner(Shared(Arc::clone(item)));
    // A `str` split at a character looks for it with `memchr`; a byte slice's split tests
    // every byte through a closure, which cost 5 % of the server in a long game.
    item.split(char::from(live::FRAMES_APART))
        .map(|frame| {
            let frame = bytes.slice_ref(frame.as_bytes());
            // Cut at an ASCII separator, each frame is still a `str`: the check passes; it
            // costs a scan, not an allocation.
            match Utf8Bytes::try_from(frame.clone()) {
                Ok(shared) => Message::Text(shared),
                Err(_) => text(String::from_utf8_lossy(&frame).into_owned()),
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "ws_outlet_tests.rs"]
mod tests;
