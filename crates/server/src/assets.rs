//! The page's files, embedded in the binary from `crates/server/web/`, served with their
//! content types and an ETag so a reload costs a `304`.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

use crate::error::ApiError;

#[derive(Embed)]
#[folder = "web/"]
struct Web;

/// The page itself, for `/` and `/g/{id}` (it routes on the path).
pub async fn index(headers: HeaderMap) -> Response {
    file("index.html", &headers)
}

/// Any other path: a page file, or a JSON 404.
pub async fn fallback(request: Request) -> Response {
    let path = request.uri().path().trim_start_matches('/');
    let method = request.method();
    if path.starts_with("api/") || path == "api" {
        return ApiError::not_found(format!(
            "no route {method} /{path}: expected one of the routes in docs/API.md"
        ))
        .into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{method} /{path}: expected GET"),
        )
        .into_response();
    }
    file(path, request.headers())
}

fn file(path: &str, headers: &HeaderMap) -> Response {
    let Some(found) = Web::get(path) else {
        return ApiError::not_found(format!("no file /{path}: expected a file of the page"))
            .into_response();
    };
    let hash = found.metadata.sha256_hash();
    let etag = format!(
        "\"{:016x}\"",
        u64::from_be_bytes(hash[..8].try_into().unwrap_or_default())
    );
    let cache = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, "no-cache".to_string()),
    ];
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tag| tag.as_bytes() == etag.as_bytes())
    {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    let mime = HeaderValue::from_str(found.metadata.mimetype())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    (
        [(header::CONTENT_TYPE, mime)],
        cache,
        found.data.into_owned(),
    )
        .into_response()
}
