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

/// Fills `buffer` from the operating system's random source, the one source of every secret
/// (password salts too): there is no other source to fall back on.
///
/// # Errors
/// [`NoRandomSource`] when the source fails.
pub fn fill_secret(buffer: &mut [u8]) -> Result<(), NoRandomSource> {
    fill_from(getrandom::fill, buffer)
}

/// Fills `buffer` from `source`, refusing when it fails. The source is a parameter so that
/// tests can make it fail; the program passes only `getrandom::fill`.
fn fill_from(
    source: impl FnOnce(&mut [u8]) -> Result<(), getrandom::Error>,
    buffer: &mut [u8],
) -> Result<(), NoRandomSource> {
    source(buffer).map_err(|e| NoRandomSource(e.to_string()))
}

/// `bytes` random bytes as lowercase hex, from the operating system only.
fn random_hex(bytes: usize) -> Result<String, NoRandomSource> {
    hex_from(getrandom::fill, bytes)
}

/// `bytes` bytes (at most 16) of `source` as lowercase hex.
fn hex_from(
    source: impl FnOnce(&mut [u8]) -> Result<(), getrandom::Error>,
    bytes: usize,
) -> Result<String, NoRandomSource> {
    let mut buffer = [0u8; 16];
    let buffer = &mut buffer[..bytes.min(16)];
    fill_from(source, buffer)?;
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

/// A random seed for a game and its computer players, or for a coin toss. Not a secret (it
/// opens nothing, and a finished game's record shows its seed), so where the operating
/// system gives no random bytes a counter mixed with the clock serves: a game can still be
/// set up. Secrets never come here; they come from [`token`], [`game_id`] and
/// [`fill_secret`], which refuse instead.
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
    fn a_failed_source_refuses_the_secret_instead_of_making_one() {
        let failing = |_: &mut [u8]| Err(getrandom::Error::UNSUPPORTED);
        let error = hex_from(failing, 16).unwrap_err();
        assert!(error
            .to_string()
            .starts_with("the operating system's random source failed ("));
        let mut salt = [7u8; 16];
        assert!(fill_from(failing, &mut salt).is_err());
        assert_eq!(salt, [7u8; 16], "nothing was made up in its place");
        let fixed = |buffer: &mut [u8]| {
            buffer.fill(0xab);
            Ok(())
        };
        assert_eq!(hex_from(fixed, 2).unwrap(), "abab");
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
