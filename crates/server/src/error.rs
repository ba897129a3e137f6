//! API errors: a status and one line saying what was wrong and what was expected, always sent
//! as `{"error": "..."}` (plus the game's snapshot for refused actions), and the JSON body
//! extractor that turns axum's plain-text rejections into such errors.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// An error answer.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line: what was wrong; what was expected.
    pub message: String,
    /// The game's current snapshot (JSON), for refused actions on a game.
    pub snapshot: Option<Arc<str>>,
}

impl ApiError {
    /// An error with `status`; the message is folded onto one line.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let message: String = message.into();
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        ApiError {
            status,
            message,
            snapshot: None,
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 403: the token may not do this.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: nothing here.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the action was decided on an older state.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 422: well-formed, but the rules or the limits refuse it.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 503: the server cannot take this now.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The same error carrying the game's snapshot.
    pub fn with_snapshot(mut self, snapshot: Arc<str>) -> ApiError {
        self.snapshot = Some(snapshot);
        self
    }

    /// The JSON body: `{"error": ...}` with the snapshot when there is one. `kind` adds a
    /// `"type"` field for WebSocket frames.
    pub fn to_json(&self, kind: Option<&str>) -> String {
        let message = serde_json::Value::String(self.message.clone());
        let mut json = String::from("{");
        if let Some(kind) = kind {
            json.push_str("\"type\":");
            json.push_str(&serde_json::Value::String(kind.to_string()).to_string());
            json.push(',');
        }
        json.push_str("\"error\":");
        json.push_str(&message.to_string());
        if let Some(snapshot) = &self.snapshot {
            json.push_str(",\"snapshot\":");
            json.push_str(snapshot);
        }
        json.push('}');
        json
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.to_json(None);
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}

/// A request body type, with an example for error messages.
pub trait RequestBody: DeserializeOwned {
    /// A valid body, shown in the error for an invalid one.
    const EXAMPLE: &'static str;
}

/// Reads `bytes` as `T`; a failure is a 400 naming the problem and showing a valid body.
pub fn parse_body<T: RequestBody>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::bad_request(format!(
            "bad JSON body: {e}; expected a JSON object like {}",
            T::EXAMPLE
        ))
    })
}

/// A JSON body extractor whose every rejection is an [`ApiError`].
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: RequestBody> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "request body too large: expected at most 64 KiB (1 MiB when creating a game)",
                    )
                } else {
                    ApiError::new(rejection.status(), rejection.body_text())
                }
            })?;
        parse_body(&bytes).map(Body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_carry_the_snapshot() {
        let error = ApiError::conflict("stale\nseq").with_snapshot(Arc::from("{\"seq\":3}"));
        assert_eq!(error.message, "stale seq");
        assert_eq!(
            error.to_json(Some("error")),
            r#"{"type":"error","error":"stale seq","snapshot":{"seq":3}}"#
        );
    }
}
