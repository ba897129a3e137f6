//! A deadline on a whole request body, counted from the request's head. tower-http's
//! `RequestBodyTimeoutLayer` restarts its timer after every frame, so a body sent a byte at a
//! time just under that timeout would hold its connection for days; this one does not restart.

use std::error::Error;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The error a body past its deadline gives its reader (the handler's extractor, which turns
/// it into a 400 carrying this text).
#[derive(Debug)]
pub struct TooSlow(Duration);

impl fmt::Display for TooSlow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "request body not received within {} s: expected the whole body at once",
            self.0.as_secs_f64()
        )
    }
}

impl Error for TooSlow {}

/// `body`, cut once `limit` has passed since the request's head arrived.
#[derive(Debug)]
pub struct Deadline<B> {
    body: B,
    limit: Duration,
    until: Instant,
    /// Made only when the body is not all there at once: most bodies never need a timer.
    sleep: Option<Pin<Box<Sleep>>>,
}

impl<B> Deadline<B> {
    /// `body` with `limit` from now.
    pub fn new(body: B, limit: Duration) -> Deadline<B> {
        Deadline {
            body,
            limit,
            until: Instant::now() + limit,
            sleep: None,
        }
    }
}

impl<B> Body for Deadline<B>
where
    B: Body + Unpin,
    B::Error: Into<Box<dyn Error + Send + Sync>>,
{
    type Data = B::Data;
    type Error = Box<dyn Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.body).poll_frame(cx) {
            return Poll::Ready(frame.map(|result| result.map_err(Into::into)));
        }
        let until = this.until;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(until)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(TooSlow(this.limit))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
