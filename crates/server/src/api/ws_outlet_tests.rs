//! What a change does with a socket's item, on a scripted socket: written at once, or left to
//! the socket's own task (woken) without ever letting a later item pass an earlier one.

use std::sync::atomic::{AtomicBool, AtomicUsize};

use futures_util::FutureExt;

use super::*;

/// A socket that records what it is sent, takes `room` more frames, flushes only while
/// `flushes`, and never has anything to read.
#[derive(Clone)]
struct Scripted {
    written: Arc<Mutex<Vec<String>>>,
    room: Arc<AtomicUsize>,
    flushes: Arc<AtomicBool>,
}

impl Scripted {
    fn new() -> Scripted {
        Scripted {
            written: Arc::default(),
            room: Arc::new(AtomicUsize::new(usize::MAX)),
            flushes: Arc::new(AtomicBool::new(true)),
        }
    }

    fn written(&self) -> Vec<String> {
        self.written.lock().unwrap().clone()
    }
}

impl Stream for Scripted {
    type Item = Result<Message, axum::Error>;

    fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Pending
    }
}

impl Sink<Message> for Scripted {
    type Error = axum::Error;

    fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
        if self.room.load(Ordering::SeqCst) > 0 {
            Poll::Ready(Ok(()))
        } else {
            Poll::Pending
        }
    }

    fn start_send(self: Pin<&mut Self>, frame: Message) -> Result<(), axum::Error> {
        self.room.fetch_sub(1, Ordering::SeqCst);
        let text = frame.into_text().map_err(axum::Error::new)?;
        self.written.lock().unwrap().push(text.to_string());
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
        if self.flushes.load(Ordering::SeqCst) {
            Poll::Ready(Ok(()))
        } else {
            Poll::Pending
        }
    }

    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
        Poll::Ready(Ok(()))
    }
}

/// An outlet on `socket` at place 0, up to date and not held by its own task.
fn ready(socket: &Scripted, seat: bool) -> Arc<SocketOutlet<Scripted>> {
    let outlet = SocketOutlet::new(socket.clone(), seat);
    outlet.start_at(0);
    outlet.lock().held = false;
    outlet
}

/// Whether the outlet's own task was woken (and takes the wake-up).
fn woken(outlet: &SocketOutlet<Scripted>) -> bool {
    outlet.wake.notified().now_or_never().is_some()
}

fn item(text: &str) -> Arc<str> {
    Arc::from(text)
}

#[test]
fn an_up_to_date_socket_is_written_every_frame_of_the_item_by_the_change() {
    let socket = Scripted::new();
    let outlet = ready(&socket, false);
    let offered = outlet.offer(0, &item("{\"a\":1}\n{\"b\":2}"), true);
    assert_eq!(offered, Offered::Written);
    assert_eq!(socket.written(), ["{\"a\":1}", "{\"b\":2}"]);
    assert_eq!(outlet.place(), 1);
    assert!(!woken(&outlet));
}

#[test]
fn an_item_handed_over_while_the_socket_is_busy_is_not_passed_by_the_next() {
    let socket = Scripted::new();
    let outlet = ready(&socket, false);
    // The socket's own task polls its read at that instant: the change cannot wait for it.
    let reading = outlet.lock();
    assert_eq!(outlet.offer(0, &item("{}"), true), Offered::HandedOver);
    drop(reading);
    assert!(woken(&outlet));
    assert_eq!(
        outlet.offer(1, &item("{\"next\":1}"), true),
        Offered::HandedOver,
        "item 1 must wait behind item 0, which the socket's own task sends"
    );
    assert!(socket.written().is_empty(), "{:?}", socket.written());
    assert_eq!(outlet.place(), 0);
}

#[test]
fn frames_the_socket_cannot_queue_are_kept_for_its_own_task() {
    let socket = Scripted::new();
    socket.room.store(1, Ordering::SeqCst);
    let outlet = ready(&socket, false);
    assert_eq!(
        outlet.offer(0, &item("{\"a\":1}\n{\"b\":2}\n{\"c\":3}"), true),
        Offered::HandedOver
    );
    assert_eq!(socket.written(), ["{\"a\":1}"]);
    let wire = outlet.lock();
    assert!(wire.held, "its own task has the writes in hand");
    let unsent: Vec<String> = wire
        .unsent
        .iter()
        .map(|m| m.to_text().unwrap().to_string())
        .collect();
    assert_eq!(unsent, ["{\"b\":2}", "{\"c\":3}"]);
    drop(wire);
    assert_eq!(outlet.place(), 1);
    assert!(woken(&outlet));
    assert_eq!(outlet.offer(1, &item("{}"), true), Offered::HandedOver);
    assert_eq!(socket.written().len(), 1, "nothing written while held");
}

#[test]
fn a_flush_the_client_is_slow_to_take_is_finished_by_the_sockets_own_task() {
    let socket = Scripted::new();
    socket.flushes.store(false, Ordering::SeqCst);
    let outlet = ready(&socket, false);
    assert_eq!(outlet.offer(0, &item("{}"), true), Offered::HandedOver);
    assert_eq!(socket.written(), ["{}"], "queued, left to flush");
    assert!(outlet.lock().held);
    assert!(outlet.lock().unsent.is_empty());
    assert!(woken(&outlet));
}

#[test]
fn a_seat_socket_skips_the_spectators_chat_and_moves_on() {
    let socket = Scripted::new();
    let outlet = ready(&socket, true);
    let line = format!("{},\"text\":\"hi\"}}", live::SPECTATORS_FRAME);
    assert_eq!(outlet.offer(0, &item(&line), true), Offered::Skipped);
    assert_eq!(outlet.place(), 1);
    assert_eq!(outlet.offer(1, &item("{}"), true), Offered::Written);
    assert_eq!(socket.written(), ["{}"]);
    let watcher = Scripted::new();
    let spectator = ready(&watcher, false);
    assert_eq!(spectator.offer(0, &item(&line), true), Offered::Written);
}

#[test]
fn the_deletion_and_sockets_not_to_be_written_now_are_left_to_their_own_tasks() {
    let socket = Scripted::new();
    let outlet = ready(&socket, false);
    let deleted = item("{\"type\":\"deleted\",\"id\":\"x\"}");
    assert_eq!(outlet.offer(0, &deleted, true), Offered::HandedOver);
    assert!(woken(&outlet));
    assert_eq!(outlet.place(), 0, "its own task sends it, then closes");
    assert_eq!(outlet.offer(0, &item("{}"), false), Offered::HandedOver);
    assert!(woken(&outlet));
    assert!(socket.written().is_empty());
}
