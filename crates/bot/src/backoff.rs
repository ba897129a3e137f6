//! The wait before reconnecting to a server that dropped or refused a connection: 1 s,
//! doubling up to 30 s, back to 1 s once a connection is made.

use std::time::Duration;

/// The first wait.
const FIRST: Duration = Duration::from_secs(1);
/// The longest wait.
const MOST: Duration = Duration::from_secs(30);

/// Reconnection waits.
#[derive(Clone, Copy, Debug)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { next: FIRST }
    }
}

impl Backoff {
    /// The wait now; the next one is twice as long, at most 30 s.
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (self.next * 2).min(MOST);
        wait
    }

    /// A connection was made: the next wait is 1 s again.
    pub fn reset(&mut self) {
        self.next = FIRST;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_thirty_seconds_and_reset() {
        let mut backoff = Backoff::default();
        let waits: Vec<u64> = (0..7).map(|_| backoff.next_wait().as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        backoff.reset();
        assert_eq!(backoff.next_wait().as_secs(), 1);
    }
}
