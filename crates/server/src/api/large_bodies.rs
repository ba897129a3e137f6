//! The memory that the bodies of `POST /api/games`, which may carry a record of up to
//! `Config::record_limit` bytes, may take at once. Each connection may send such a body,
//! slowly, until the body timeout: without a bound in all, the 4,096 connections a server
//! admits could hold 4 GiB. A request takes its declared length (the limit itself when it
//! declares none) from `Config::records_in_flight` for as long as it is served, and one that
//! finds too little left is answered `503` at once, before its body is read. So that one
//! client cannot take all of it, a client sends [`LARGE_PER_CLIENT`] bodies larger than an
//! ordinary one (`Config::body_limit`) at once at most; another is answered `429`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::guard::Client;
use crate::error::ApiError;
use crate::net::caps::Caps;

/// Large bodies one client may send at once (4 MiB of records at the default limit, an
/// eighth of the default budget in all).
pub const LARGE_PER_CLIENT: usize = 4;

/// The bytes left to bodies being read, in KiB, and the large ones each client sends.
#[derive(Debug)]
pub struct LargeBodies {
    kib_left: Arc<Semaphore>,
    large_by_client: Arc<Caps>,
    body_limit: usize,
    record_limit: usize,
}

impl LargeBodies {
    /// `in_flight` bytes in all (at least one whole record) for bodies of up to
    /// `record_limit` bytes, of which those past `body_limit` are counted per client too.
    pub fn new(in_flight: usize, body_limit: usize, record_limit: usize) -> LargeBodies {
        let kib = in_flight.max(record_limit).div_ceil(1024);
        LargeBodies {
            kib_left: Arc::new(Semaphore::new(kib.min(Semaphore::MAX_PERMITS))),
            large_by_client: Caps::new(LARGE_PER_CLIENT, 0),
            body_limit,
            record_limit,
        }
    }

    /// The bytes a request's body is counted for.
    fn bytes_of(&self, request: &Request) -> usize {
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<usize>().ok());
        // A longer body is refused by the size limit as soon as it is read.
        declared.unwrap_or(self.record_limit).min(self.record_limit)
    }
}

/// Serves a `POST` only while its body fits in what is left; other methods carry no body.
pub async fn admit(
    State(bodies): State<Arc<LargeBodies>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let bytes = bodies.bytes_of(&request);
    let _sending = if bytes > bodies.body_limit {
        let address = request.extensions().get::<Client>().and_then(|c| c.address);
        match bodies.large_by_client.admit(address) {
            Ok(slot) => Some(slot),
            Err(_) => {
                return ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "this client is sending {LARGE_PER_CLIENT} large requests already, its \
                         limit: expected one finished before another begins"
                    ),
                )
                .into_response()
            }
        }
    } else {
        None
    };
    let kib = u32::try_from(bytes.div_ceil(1024).max(1)).unwrap_or(u32::MAX);
    let Ok(_held) = Arc::clone(&bodies.kib_left).try_acquire_many_owned(kib) else {
        return ApiError::unavailable(format!(
            "the server is reading too many large requests at once ({kib} KiB asked): \
             expected a retry in a moment"
        ))
        .into_response();
    };
    next.run(request).await
}
