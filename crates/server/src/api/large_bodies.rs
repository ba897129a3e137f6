//! The memory that the bodies of `POST /api/games`, which may carry a record of up to
//! `Config::record_limit` bytes, may take at once over all clients. Each connection may send
//! such a body, slowly, until the body timeout: without a bound in all, the 4,096 connections a
//! server admits could hold 4 GiB. A request takes its declared length (the limit itself when
//! it declares none) from `Config::records_in_flight` for as long as it is served, and one
//! that finds too little left is answered `503` at once, before its body is read.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// The bytes left to bodies being read, in KiB.
#[derive(Debug)]
pub struct LargeBodies {
    kib_left: Arc<Semaphore>,
    record_limit: usize,
}

impl LargeBodies {
    /// `in_flight` bytes in all (at least one whole record) for bodies of up to
    /// `record_limit` bytes.
    pub fn new(in_flight: usize, record_limit: usize) -> LargeBodies {
        let kib = in_flight.max(record_limit).div_ceil(1024);
        LargeBodies {
            kib_left: Arc::new(Semaphore::new(kib.min(Semaphore::MAX_PERMITS))),
            record_limit,
        }
    }

    /// The KiB a request's body is counted for.
    fn kib_of(&self, request: &Request) -> u32 {
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<usize>().ok());
        // A longer body is refused by the size limit as soon as it is read.
        let bytes = declared.unwrap_or(self.record_limit).min(self.record_limit);
        u32::try_from(bytes.div_ceil(1024).max(1)).unwrap_or(u32::MAX)
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
    let kib = bodies.kib_of(&request);
    let Ok(_held) = Arc::clone(&bodies.kib_left).try_acquire_many_owned(kib) else {
        return ApiError::unavailable(format!(
            "the server is reading too many large requests at once ({kib} KiB asked): \
             expected a retry in a moment"
        ))
        .into_response();
    };
    next.run(request).await
}
