//! The TCP stream of one connection, carrying its place in the connection caps (given back
//! when the stream is dropped, after an upgrade to a WebSocket too: hyper hands this same
//! stream to the socket) and whether a byte moved, for the idle timeout.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use super::caps::Slot;

/// Whether a byte moved on a connection since its watchdog last looked, shared between the
/// stream and the watchdog. A flag, not a time: reading the clock on every read and write
/// was 1 % of the server's CPU under load, and the watchdog only asks "did anything move?".
#[derive(Debug)]
pub struct Activity {
    moved: AtomicBool,
}

impl Activity {
    fn new() -> Arc<Activity> {
        Arc::new(Activity {
            moved: AtomicBool::new(false),
        })
    }

    fn touch(&self) {
        self.moved.store(true, Ordering::Relaxed);
    }

    /// Whether a byte moved since the last call (or since the connection opened).
    pub fn take_moved(&self) -> bool {
        self.moved.swap(false, Ordering::Relaxed)
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
