//! The `Host` allow-list, against DNS rebinding: a hostile page whose name is made to resolve
//! to this server's address would otherwise be the same origin as the server in the browser,
//! and could read and play every game. Its requests carry its own name in `Host`, so only
//! requests naming this server are served:
//!
//! - a loopback name or address (`localhost`, `127.0.0.1`, `[::1]`) always;
//! - the address the server listens on (`192.168.1.5` when bound there);
//! - every name given with `--allow-host` (`Config::allowed_hosts`).
//!
//! A server listening on a non-loopback address without any allowed host accepts every
//! `Host` (it cannot know the names it is reached by; `ludus serve` says how to restrict
//! it). Requests without `Host` (HTTP/1.0 tools) pass: browsers always send it. Ports are
//! not compared: the listening socket already decides the port.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::Config;

use super::guard::{valid_origin, AccessError};
use super::headers::content_security_policy;

/// Which `Host` values a server answers.
#[derive(Clone, Debug)]
pub struct Hosts {
    /// Lower-case names and addresses accepted besides loopback ones; `None`: any.
    allowed: Option<Vec<String>>,
}

impl Hosts {
    /// The policy of a server listening on `local` with `allowed` hosts.
    pub fn new(local: Option<SocketAddr>, allowed: &[String]) -> Hosts {
        let open = local.is_some_and(|a| !a.ip().is_loopback());
        if open && allowed.is_empty() {
            return Hosts { allowed: None };
        }
        let mut names: Vec<String> = allowed.iter().map(|h| h.to_ascii_lowercase()).collect();
        if let Some(ip) = local.map(|a| a.ip()).filter(|ip| !ip.is_unspecified()) {
            names.push(ip.to_string());
        }
        Hosts {
            allowed: Some(names),
        }
    }

    /// Whether the server answers requests whose `Host` is `host` (`name[:port]`).
    fn accepts(&self, host: &str) -> bool {
        let Some(allowed) = &self.allowed else {
            return true;
        };
        let name = host_name(host).to_ascii_lowercase();
        let loopback =
            name == "localhost" || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
        loopback || allowed.contains(&name)
    }
}

/// The name in `host` without its port or an IPv6 address's brackets.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// Whether `name` may be given as an allowed host: a DNS name or an IP address, without a
/// scheme, port, path or wildcard.
pub fn valid_host_name(name: &str) -> bool {
    if name.parse::<IpAddr>().is_ok() {
        return true;
    }
    let labels_ok = name.split('.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    !name.is_empty() && name.len() <= 253 && labels_ok
}

/// Checks an `--allow-origin` value (see `valid_origin` in the guard).
///
/// # Errors
/// [`AccessError::Origin`].
pub fn check_origin(origin: &str) -> Result<(), AccessError> {
    valid_origin(origin)
}

/// Checks an `--allow-host` value.
///
/// # Errors
/// [`AccessError::Host`].
pub fn check_host(name: &str) -> Result<(), AccessError> {
    if valid_host_name(name) {
        return Ok(());
    }
    Err(AccessError::Host(name.chars().take(80).collect()))
}

/// Checks the options that say who may use the server: every allowed origin and host. The
/// server refuses to bind with a bad one, rather than fail on the first request.
///
/// # Errors
/// The first bad origin or host.
pub fn check_access(config: &Config) -> Result<(), AccessError> {
    config
        .allowed_origins
        .iter()
        .try_for_each(|o| check_origin(o))?;
    config.allowed_hosts.iter().try_for_each(|h| check_host(h))
}

/// Refuses a request naming another host with a 421; gives an answered page the policy
/// that lets its WebSockets reach the host it was loaded from.
pub async fn check(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    // HTTP/2 names the host in the URI's authority instead of a `Host` header.
    let authority = request.uri().authority().map(|a| Ok(a.to_string()));
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().map(str::to_string))
        .or(authority);
    let host = match host {
        None => None,
        Some(Ok(host)) if hosts.accepts(&host) => Some(host),
        Some(Ok(host)) => return refuse(&host),
        Some(Err(_)) => return refuse("(not text)"),
    };
    let mut response = next.run(request).await;
    if let Some(host) = host {
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            content_security_policy(Some(&host)),
        );
    }
    response
}

fn refuse(host: &str) -> Response {
    let shown: String = host.chars().take(80).collect();
    ApiError::new(
        StatusCode::MISDIRECTED_REQUEST,
        format!(
            "host '{shown}' is not served here: expected a loopback address, the server's own address, or a host the server was started with --allow-host"
        ),
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_their_port_and_brackets() {
        assert_eq!(host_name("example.org:8080"), "example.org");
        assert_eq!(host_name("[::1]:80"), "::1");
        assert_eq!(host_name("example.org"), "example.org");
    }

    #[test]
    fn a_loopback_server_answers_loopback_and_allowed_names_only() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let hosts = Hosts::new(Some(local), &["Games.Example.org".to_string()]);
        for good in [
            "127.0.0.1:8080",
            "localhost",
            "[::1]:8080",
            "games.example.org:8080",
        ] {
            assert!(hosts.accepts(good), "{good}");
        }
        for bad in [
            "evil.example",
            "127.0.0.1.evil.example",
            "games.example.org.evil",
        ] {
            assert!(!hosts.accepts(bad), "{bad}");
        }
        let open = Hosts::new(Some("0.0.0.0:80".parse().unwrap()), &[]);
        assert!(open.accepts("anything.example"));
        let lan = Hosts::new(
            Some("192.168.1.5:80".parse().unwrap()),
            &["a.example".into()],
        );
        assert!(lan.accepts("192.168.1.5") && !lan.accepts("b.example"));
    }

    #[test]
    fn allowed_names_are_names_or_addresses() {
        for good in ["example.org", "localhost", "192.168.1.5", "::1", "my-box"] {
            assert!(valid_host_name(good), "{good}");
        }
        for bad in [
            "",
            "*.example.org",
            "http://example.org",
            "a.org:80",
            "a..org",
            "-a.org",
        ] {
            assert!(!valid_host_name(bad), "{bad}");
        }
    }
}
