//! The TCP stream of one connection, carrying its place in the connection caps (given back
//! when the stream is dropped, after an upgrade to a WebSocket too: hyper hands this same
//! stream to the socket) and the time a byte last moved, for the idle timeout.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::caps::Slot;

/// When a byte last moved on a connection, shared between its stream and its watchdog.
#[derive(Debug)]
pub struct Activity {
    start: Instant,
    /// Milliseconds from `start`; an atomic so that reads and writes need no lock.
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Arc<Activity> {
        Arc::new(Activity {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
        })
    }

    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    /// When a byte last moved (the connection's start before any did).
    pub fn last(&self) -> Instant {
        self.start + Duration::from_millis(self.last_ms.load(Ordering::Relaxed))
    }
}

/// A connection's stream with its place and its activity.
#[derive(Debug)]
pub struct Tracked {
    stream: TcpStream,
    activity: Arc<Activity>,
    _slot: Slot,
}

impl Tracked {
    /// `stream`, holding `slot` while it is open.
    pub fn new(stream: TcpStream, slot: Slot) -> Tracked {
        Tracked {
            stream,
            activity: Activity::new(),
            _slot: slot,
        }
    }

    /// Its activity, for the watchdog.
    pub fn activity(&self) -> Arc<Activity> {
        Arc::clone(&self.activity)
    }

    fn moved<T>(
        &self,
        result: Poll<io::Result<T>>,
        bytes: impl Fn(&T) -> usize,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(Ok(done)) = &result {
            if bytes(done) > 0 {
                self.activity.touch();
            }
        }
        result
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        let read = buf.filled().len() - before;
        self.moved(result, |()| read)
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.moved(result, |n| *n)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.moved(result, |n| *n)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
