//! Security headers on every response, and the structured request log.
//!
//! The page is served with a Content-Security-Policy that allows only its own files: scripts
//! and styles from the server itself, WebSockets to the same host, no framing (clickjacking),
//! no plugins, forms posting only back here. `Referrer-Policy: no-referrer` matters most:
//! invitation links carry a seat's secret in the URL, and a link followed from the page must
//! never hand it to another site in `Referer`.
//!
//! The request log (tower-http's `TraceLayer`, one `tracing` event per response) names the
//! method, the path *without* its query (tokens and invitations travel in `?token=` and
//! `?invite=`), the status, the latency and the client's address (with `trust_proxy`, the
//! one the reverse proxy forwarded, as the limits count it); never a header, cookie or body.

use std::time::Duration;

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue};
use axum::response::Response;
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use tracing::Span;

/// The policy's directives before `connect-src`. Inline `style` attributes are allowed: the
/// page sets computed widths and colours on the elements it builds (never from HTML text);
/// scripts stay strictly the server's own files.
const POLICY_HEAD: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The Content-Security-Policy for a page reached as `host` (`example.org:8080`): its
/// WebSockets may connect to that same host only. Without a usable host, `'self'` alone
/// (which modern browsers also match against ws: and wss: of the same host).
pub fn content_security_policy(host: Option<&str>) -> HeaderValue {
    let connect = match host {
        Some(host) if is_plain_authority(host) => {
            format!("connect-src 'self' ws://{host} wss://{host}")
        }
        _ => "connect-src 'self'".to_string(),
    };
    HeaderValue::from_str(&format!("{POLICY_HEAD}; {connect}"))
        .unwrap_or_else(|_| HeaderValue::from_static(POLICY_HEAD))
}

/// Whether `host` can go into the policy as it is: a name or address with an optional port,
/// nothing that would end a directive or add a source.
fn is_plain_authority(host: &str) -> bool {
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
}

/// `app` with the security headers on every response (errors included) and the request log
/// (`trust_proxy`: the client is the address the reverse proxy forwarded).
pub fn secure<S: Clone + Send + Sync + 'static>(app: Router<S>, trust_proxy: bool) -> Router<S> {
    let fixed: [(HeaderName, &'static str); 4] = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    let mut app = app.layer(SetResponseHeaderLayer::if_not_present(
        header::CONTENT_SECURITY_POLICY,
        content_security_policy(None),
    ));
    for (name, value) in fixed {
        app = app.layer(SetResponseHeaderLayer::overriding(
            name,
            HeaderValue::from_static(value),
        ));
    }
    app.layer(
        TraceLayer::new_for_http()
            .make_span_with(move |request: &Request| request_span(request, trust_proxy))
            .on_request(())
            .on_response(log_response)
            .on_body_chunk(())
            .on_eos(())
            .on_failure(()),
    )
}

/// The request's span: method, path without the query, client address.
fn request_span(request: &Request, trust_proxy: bool) -> Span {
    let client = super::guard::client_address(request, trust_proxy)
        .map_or_else(|| "-".to_string(), |address| address.to_string());
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        client = %client,
    )
}

/// One line per answered request, inside its span.
fn log_response(response: &Response, latency: Duration, _span: &Span) {
    tracing::info!(
        target: "ludus_server::request",
        status = response.status().as_u16(),
        latency_ms = latency.as_secs_f64() * 1000.0,
        "answered"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_websocket_host_only_when_it_is_plain() {
        let policy = content_security_policy(Some("example.org:8080"));
        let policy = policy.to_str().unwrap();
        assert!(policy.ends_with("connect-src 'self' ws://example.org:8080 wss://example.org:8080"));
        assert!(policy.contains("frame-ancestors 'none'"));
        let sneaky = content_security_policy(Some("a.org; script-src *"));
        assert!(sneaky.to_str().unwrap().ends_with("connect-src 'self'"));
    }
}
