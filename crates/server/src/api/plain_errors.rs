//! A safety net: any error answer that is not JSON (a rejection axum or hyper wrote as plain
//! text: a bad path encoding, a bad query string, a request that is not a WebSocket upgrade)
//! becomes `{"error": "..."}` with the same status, so clients parse every error one way.

use axum::body::to_bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Plain-text rejections are a line or two; anything longer is cut.
const LONGEST: usize = 4096;

pub async fn as_json(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = match to_bytes(body, LONGEST).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).into_owned(),
        _ => parts
            .status
            .canonical_reason()
            .unwrap_or("error")
            .to_string(),
    };
    let mut json = ApiError::new(status, text).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            json.headers_mut().insert(name, value.clone());
        }
    }
    json
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::StatusCode;

    use super::*;

    #[tokio::test]
    async fn plain_text_errors_become_json_and_others_pass() {
        let plain = (StatusCode::BAD_REQUEST, "Invalid URL: bad\nencoding").into_response();
        let converted = as_json(plain).await;
        assert_eq!(converted.status(), StatusCode::BAD_REQUEST);
        let body = to_bytes(converted.into_body(), LONGEST).await.unwrap();
        assert_eq!(&body[..], br#"{"error":"Invalid URL: bad encoding"}"#);
        let fine = as_json((StatusCode::OK, "hello").into_response()).await;
        let body = to_bytes(fine.into_body(), LONGEST).await.unwrap();
        assert_eq!(&body[..], b"hello");
        let empty = as_json(Response::builder().status(404).body(Body::empty()).unwrap()).await;
        let body = to_bytes(empty.into_body(), LONGEST).await.unwrap();
        assert_eq!(&body[..], br#"{"error":"Not Found"}"#);
    }
}
