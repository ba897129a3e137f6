//! The accept loop: hyper's HTTP/1 server under the axum router, with what `axum::serve`
//! lacks, bounds on what a client can hold. A request's head must arrive within the header
//! timeout, its body within the body timeout; a connection on which nothing moved for the
//! idle timeout is closed; connections are capped per TCP peer and in all (a new one over a
//! cap is closed at once, before anything is read). Graceful shutdown works as with
//! `axum::serve`: stop accepting, let the requests in flight finish, then return.

mod body;
pub mod caps;
mod io;

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::Service;

use self::body::Deadline;
use self::caps::Caps;
use self::io::{Activity, Tracked};
use crate::Config;

/// The most a request's head (its line and headers) may take: a longer one is answered
/// `431 Request Header Fields Too Large` and the connection closed. Browsers send a few KiB
/// (cookies included); hyper's own bound is its read buffer's, about 400 KiB, which let each
/// of the connections a stranger may hold (`max_connections`, 4,096 by default) keep that much
/// until the header timeout: 1.6 GiB in all.
const MAX_HEAD: usize = 32 * 1024;

/// The most a connection's read buffer grows to (hyper's default is about 400 KiB); a body
/// larger than this is read in several reads.
const MAX_READ_BUFFER: usize = 64 * 1024;

/// What every connection is served with.
#[derive(Debug)]
struct Serving {
    router: Router,
    http: http1::Builder,
    body_timeout: Duration,
    idle_timeout: Duration,
}

/// Serves `router` on `listener` until `shutdown` completes, then waits for the connections'
/// requests in flight (upgraded WebSockets run on their own and are not waited for).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: &Config,
    shutdown: impl Future<Output = ()>,
) {
    let caps = Caps::new(config.connections_per_client, config.max_connections);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(at_most_a_year(config.header_timeout))
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_READ_BUFFER);
    let serving = Arc::new(Serving {
        router,
        http,
        body_timeout: at_most_a_year(config.body_timeout),
        idle_timeout: at_most_a_year(config.idle_timeout),
    });
    // As in `axum::serve`: connections watch `stop_tx` close (its receiver dropped), and the
    // loop waits for every connection's `done_rx` clone to drop before returning.
    let (stop_tx, stop_rx) = watch::channel(());
    let (done_tx, done_rx) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    wait_after(&error).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Over a cap the stream is dropped here: closed before a byte of it is read.
        let Ok(slot) = caps.admit(Some(peer.ip())) else {
            continue;
        };
        // Without TCP_NODELAY a frame written right after another (a move's event, then its
        // snapshot) waits for the client's delayed acknowledgement: about 40 ms per move. A
        // socket that refuses the option still works, only slower.
        let _ = stream.set_nodelay(true);
        let connection = connection(
            Arc::clone(&serving),
            stream,
            peer,
            slot,
            stop_tx.clone(),
            done_rx.clone(),
        );
        tokio::spawn(connection);
    }
    drop(stop_rx);
    drop(listener);
    drop(done_rx);
    done_tx.closed().await;
}

/// `limit`, or a year if longer: an instant that far ahead still fits (`Duration::MAX`, a
/// natural way to say "never", would overflow the clock and panic).
pub fn at_most_a_year(limit: Duration) -> Duration {
    limit.min(Duration::from_secs(365 * 24 * 3600))
}

/// After a failed accept: go on at once if only that connection failed; otherwise (out of
/// file descriptors, most likely) wait a second for some to close, as hyper 0.14 did.
async fn wait_after(error: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Serves one connection until it ends, is idle too long, or the server stops.
async fn connection(
    serving: Arc<Serving>,
    stream: TcpStream,
    peer: SocketAddr,
    slot: caps::Slot,
    stop: watch::Sender<()>,
    done: watch::Receiver<()>,
) {
    let stream = Tracked::new(stream, slot);
    let activity = stream.activity();
    let router = serving.router.clone();
    let body_timeout = serving.body_timeout;
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request = request.map(|body| Deadline::new(body, body_timeout));
        request.extensions_mut().insert(ConnectInfo(peer));
        let mut router = router.clone();
        async move { Ok::<_, Infallible>(router.call(request).await.unwrap_or_else(|e| match e {})) }
    });
    let mut conn = pin!(serving
        .http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades());
    let mut stopping = pin!(stop.closed());
    let mut idle = pin!(idle(&activity, serving.idle_timeout));
    let mut stopped = false;
    loop {
        tokio::select! {
            // A failed connection (a reset, a header timeout) concerns only its client.
            _ = conn.as_mut() => break,
            () = &mut stopping, if !stopped => {
                stopped = true;
                conn.as_mut().graceful_shutdown();
            }
            // Dropping `conn` closes the stream and frees its place.
            () = &mut idle => break,
        }
    }
    drop(done);
}

/// Completes once no byte moved on the connection for `limit`: looked at every quarter of
/// it, so a connection is closed between `limit` and 1.25 × `limit` after its last byte.
async fn idle(activity: &Activity, limit: Duration) {
    const LOOKS: u32 = 4;
    let mut still = 0;
    while still < LOOKS {
        tokio::time::sleep(limit / LOOKS).await;
        still = if activity.take_moved() { 0 } else { still + 1 };
    }
}
