//! The address links are built from: the server's public address (`--public-url`) when it
//! has one, else the address the request reached it by (its `Host` header; behind a trusted
//! reverse proxy, `X-Forwarded-Host` and `X-Forwarded-Proto`, which only `--trust-proxy`
//! believes, since any client could write them).

use axum::http::{header, HeaderMap};

use crate::Config;

/// `scheme://host[:port]`, without a trailing slash.
pub fn base(config: &Config, headers: &HeaderMap) -> String {
    if let Some(url) = &config.public_url {
        return url.trim_end_matches('/').to_string();
    }
    let value = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            // A proxy chain appends: the first entry is what the client asked for.
            .and_then(|v| v.split(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let forwarded = |name| value(name).filter(|_| config.trust_proxy);
    let host = forwarded("x-forwarded-host")
        .or_else(|| value(header::HOST.as_str()))
        .unwrap_or("localhost");
    let scheme = match forwarded("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_public_url_wins_then_the_host_and_forwarded_headers_only_when_trusted() {
        let forwarded = headers(&[
            ("host", "127.0.0.1:8080"),
            ("x-forwarded-host", "games.example.org"),
            ("x-forwarded-proto", "https"),
        ]);
        let plain = Config::default();
        assert_eq!(base(&plain, &forwarded), "http://127.0.0.1:8080");
        let trusting = Config {
            trust_proxy: true,
            ..Config::default()
        };
        assert_eq!(base(&trusting, &forwarded), "https://games.example.org");
        let public = Config {
            public_url: Some("https://play.example.net/".into()),
            ..Config::default()
        };
        assert_eq!(base(&public, &forwarded), "https://play.example.net");
    }
}
