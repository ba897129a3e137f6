//! Counts of open things (connections, WebSockets) per client address and in all, each place
//! held by a [`Slot`] that gives it back when dropped, however its holder ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Why a place was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The client holds this many, its limit.
    Client(usize),
    /// The server holds this many, its limit.
    Total(usize),
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// A cap per client and a cap in all (0: no cap).
#[derive(Debug)]
pub struct Caps {
    per_client: usize,
    total: usize,
    counts: Mutex<Counts>,
}

impl Caps {
    /// `per_client` places per address and `total` in all; 0 lifts either.
    pub fn new(per_client: usize, total: usize) -> Arc<Caps> {
        Arc::new(Caps {
            per_client,
            total,
            counts: Mutex::new(Counts::default()),
        })
    }

    /// A place for `client` (`None`: an unknown address, counted only in all), or why not.
    /// The check and the count are one step: two callers cannot both take the last place.
    pub fn admit(self: &Arc<Self>, client: Option<IpAddr>) -> Result<Slot, Refused> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if self.total > 0 && counts.total >= self.total {
            return Err(Refused::Total(counts.total));
        }
        if let Some(client) = client {
            let held = counts.by_client.entry(client).or_insert(0);
            if self.per_client > 0 && *held >= self.per_client {
                return Err(Refused::Client(*held));
            }
            *held += 1;
        }
        counts.total += 1;
        Ok(Slot {
            caps: Arc::clone(self),
            client,
        })
    }

    /// Places held in all.
    pub fn open(&self) -> usize {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .total
    }

    fn release(&self, client: Option<IpAddr>) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.total = counts.total.saturating_sub(1);
        if let Some(client) = client {
            // The entry goes with the client's last place, so the map holds only clients
            // that have something open.
            if let Some(held) = counts.by_client.get_mut(&client) {
                *held = held.saturating_sub(1);
                if *held == 0 {
                    counts.by_client.remove(&client);
                }
            }
        }
    }
}

/// One place taken; given back on drop.
#[derive(Debug)]
pub struct Slot {
    caps: Arc<Caps>,
    client: Option<IpAddr>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.caps.release(self.client);
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    #[test]
    fn places_are_capped_per_client_and_in_all_and_given_back() {
        let caps = Caps::new(2, 3);
        let a = Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
        let b = Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3)));
        let first = caps.admit(a).unwrap();
        let _second = caps.admit(a).unwrap();
        assert_eq!(caps.admit(a).unwrap_err(), Refused::Client(2));
        let _third = caps.admit(b).unwrap();
        assert_eq!(caps.admit(b).unwrap_err(), Refused::Total(3));
        drop(first);
        assert_eq!(caps.open(), 2);
        assert!(caps.admit(a).is_ok(), "a dropped slot frees its place");
        assert!(Caps::new(0, 0).admit(a).is_ok(), "0 lifts the caps");
    }
}
