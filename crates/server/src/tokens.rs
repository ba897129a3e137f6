//! Secret tokens, game ids and seeds from the operating system's random source.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use ludus_engine::splitmix64;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `bytes` random bytes as lowercase hex.
fn random_hex(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    if getrandom::fill(&mut buffer).is_err() {
        fallback_fill(&mut buffer);
    }
    let mut text = String::with_capacity(bytes * 2);
    for byte in buffer {
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 15)]));
    }
    text
}

/// Where the system offers no random source: a counter mixed with the clock. Never reached on
/// the systems Ludus runs on, but a missing source must not stop the server.
fn fallback_fill(buffer: &mut [u8]) {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    for chunk in buffer.chunks_mut(8) {
        let (_, word) = splitmix64(nanos ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32));
        chunk.copy_from_slice(&word.to_le_bytes()[..chunk.len()]);
    }
}

/// A 128-bit secret: a seat's or an owner's token.
pub fn token() -> String {
    random_hex(16)
}

/// A game id: 48 random bits, short enough for a link.
pub fn game_id() -> String {
    random_hex(6)
}

/// A random seed for a game and its computer players.
pub fn seed() -> u64 {
    u64::from_str_radix(&random_hex(8), 16).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_hex_and_differ() {
        let (a, b) = (token(), token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(game_id().len(), 12);
    }

    #[test]
    fn the_fallback_fills_every_byte() {
        let mut buffer = [0u8; 13];
        fallback_fill(&mut buffer);
        assert!(buffer.iter().any(|&b| b != 0));
    }
}
