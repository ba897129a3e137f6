//! Secret tokens, game ids and seeds from the operating system's random source.
//!
//! Secrets (seat, owner and invitation tokens, session secrets, API tokens, game ids, reset
//! passwords) come only from the operating system: without its random source they are refused
//! with [`NoRandomSource`], never made from anything guessable. The server checks the source
//! once at start ([`check_random_source`]) and refuses to run without it. Seeds (a game's
//! computer players, who moves first) are not secrets and fall back to a counter mixed with
//! the clock, so a game can still be set up.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use ludus_engine::splitmix64;

use crate::error::ApiError;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The operating system gave no random bytes, so no secret could be made.
#[derive(Debug, thiserror::Error)]
#[error("the operating system's random source failed ({0}): no secret can be made without it")]
pub struct NoRandomSource(String);

impl From<NoRandomSource> for ApiError {
    fn from(error: NoRandomSource) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{error}: expected a retry later"),
        )
    }
}

/// Whether the operating system's random source answers: the server refuses to start without.
///
/// # Errors
/// [`NoRandomSource`] when it does not.
pub fn check_random_source() -> Result<(), NoRandomSource> {
    random_hex(1).map(drop)
}

/// `bytes` random bytes as lowercase hex, from the operating system only.
fn random_hex(bytes: usize) -> Result<String, NoRandomSource> {
    let mut buffer = [0u8; 16];
    let buffer = &mut buffer[..bytes.min(16)];
    getrandom::fill(buffer).map_err(|e| NoRandomSource(e.to_string()))?;
    let mut text = String::with_capacity(buffer.len() * 2);
    for &byte in buffer.iter() {
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 15)]));
    }
    Ok(text)
}

/// A 128-bit secret: a seat's, an owner's or an invitation's token, a session's secret.
///
/// # Errors
/// [`NoRandomSource`] without the operating system's random source.
pub fn token() -> Result<String, NoRandomSource> {
    random_hex(16)
}

/// A game id: 48 random bits, short enough for a link and too many to guess one.
///
/// # Errors
/// [`NoRandomSource`] without the operating system's random source.
pub fn game_id() -> Result<String, NoRandomSource> {
    random_hex(6)
}

/// A random seed for a game and its computer players, or for a coin toss. Not a secret: where
/// the operating system gives no random bytes, a counter mixed with the clock serves.
pub fn seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_ok() {
        return u64::from_le_bytes(bytes);
    }
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    splitmix64(nanos ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32)).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_hex_and_differ() {
        let (a, b) = (token().unwrap(), token().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(game_id().unwrap().len(), 12);
        assert_ne!(seed(), seed());
        check_random_source().unwrap();
    }

    #[test]
    fn a_failed_source_is_a_503_that_names_it() {
        let error = ApiError::from(NoRandomSource("no device".to_string()));
        assert_eq!(error.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            error.message.contains("random source failed (no device)"),
            "{}",
            error.message
        );
    }
}
