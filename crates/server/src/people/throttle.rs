//! Sign-in throttling: failed attempts per account name (whether the name exists or not, so
//! the answer never tells), and attempts per client address, each in a sliding window. Over
//! either, a sign-in is refused with the time to wait before it is checked at all, so a
//! guesser gets at most a handful of Argon2 checks per window. Sign-ups count per address.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Keys remembered at most; over it, keys with nothing in their window are forgotten, and if
/// none is, a new key waits (the server is under a spray of attempts).
const MAX_KEYS: usize = 50_000;

/// Attempts in a sliding window per key.
#[derive(Debug)]
struct Window<K> {
    limit: usize,
    span: Duration,
    seen: Mutex<HashMap<K, VecDeque<Instant>>>,
}

impl<K: Hash + Eq + Clone> Window<K> {
    fn new(limit: usize, span: Duration) -> Window<K> {
        Window {
            limit,
            span,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// How long `key` must wait before its next attempt counts; zero when it may go now.
    fn wait(&self, key: &K, now: Instant) -> Duration {
        if self.limit == 0 {
            return Duration::ZERO;
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(times) = seen.get_mut(key) else {
            return if seen.len() >= MAX_KEYS {
                self.span
            } else {
                Duration::ZERO
            };
        };
        while times.front().is_some_and(|t| now - *t >= self.span) {
            times.pop_front();
        }
        if times.len() < self.limit {
            return Duration::ZERO;
        }
        times.front().map_or(Duration::ZERO, |first| {
            self.span.saturating_sub(now - *first)
        })
    }

    fn note(&self, key: K, now: Instant) {
        if self.limit == 0 {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.len() >= MAX_KEYS {
            let span = self.span;
            seen.retain(|_, times| times.back().is_some_and(|t| now - *t < span));
        }
        if seen.len() < MAX_KEYS || seen.contains_key(&key) {
            seen.entry(key).or_default().push_back(now);
        }
    }

    fn forget(&self, key: &K) {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.remove(key);
    }
}

/// The sign-in and sign-up limits of a server.
#[derive(Debug)]
pub struct Throttle {
    failures_per_name: Window<String>,
    attempts_per_client: Window<String>,
    signups_per_client: Window<String>,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::new(5, 30, 5)
    }
}

impl Throttle {
    /// `failures` failed sign-ins per name and `attempts` sign-ins per client in 15 minutes;
    /// `signups` new accounts per client an hour; 0 for any of them: no limit.
    pub fn new(failures: usize, attempts: usize, signups: usize) -> Throttle {
        let quarter = Duration::from_secs(15 * 60);
        Throttle {
            failures_per_name: Window::new(failures, quarter),
            attempts_per_client: Window::new(attempts, quarter),
            signups_per_client: Window::new(signups, Duration::from_secs(3600)),
        }
    }

    /// Whether a sign-in as `name` from `client` may be checked now; else the seconds to wait.
    /// An allowed attempt is counted against the client.
    pub fn sign_in(&self, name: &str, client: &str) -> Result<(), u64> {
        let now = Instant::now();
        let name = name.to_ascii_lowercase();
        let wait = self
            .failures_per_name
            .wait(&name, now)
            .max(self.attempts_per_client.wait(&client.to_string(), now));
        if wait > Duration::ZERO {
            return Err(wait.as_secs().max(1));
        }
        self.attempts_per_client.note(client.to_string(), now);
        Ok(())
    }

    /// Notes a failed sign-in as `name` (an unknown name counts the same).
    pub fn failed(&self, name: &str) {
        self.failures_per_name
            .note(name.to_ascii_lowercase(), Instant::now());
    }

    /// Notes a successful sign-in: the name's failures are forgotten.
    pub fn succeeded(&self, name: &str) {
        self.failures_per_name.forget(&name.to_ascii_lowercase());
    }

    /// Whether `client` may create another account now (and counts it), else the seconds
    /// to wait.
    pub fn sign_up(&self, client: &str) -> Result<(), u64> {
        let now = Instant::now();
        let wait = self.signups_per_client.wait(&client.to_string(), now);
        if wait > Duration::ZERO {
            return Err(wait.as_secs().max(1));
        }
        self.signups_per_client.note(client.to_string(), now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_lock_a_name_whatever_the_address_and_success_unlocks_it() {
        let throttle = Throttle::new(3, 100, 5);
        for i in 0..3 {
            assert_eq!(throttle.sign_in("Ana", &format!("10.0.0.{i}")), Ok(()));
            throttle.failed("Ana");
        }
        let wait = throttle.sign_in("ana", "10.0.0.9").unwrap_err();
        assert!((1..=900).contains(&wait), "{wait}");
        assert_eq!(throttle.sign_in("bob", "10.0.0.9"), Ok(()));
        throttle.succeeded("ANA");
        assert_eq!(throttle.sign_in("ana", "10.0.0.9"), Ok(()));
    }

    #[test]
    fn one_address_gets_a_bounded_number_of_attempts_on_any_names() {
        let throttle = Throttle::new(5, 4, 5);
        for i in 0..4 {
            assert_eq!(throttle.sign_in(&format!("name{i}"), "10.0.0.1"), Ok(()));
        }
        assert!(throttle.sign_in("other", "10.0.0.1").is_err());
        assert!(throttle.sign_in("other", "10.0.0.2").is_ok());
    }
}
