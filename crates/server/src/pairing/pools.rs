//! Quick pairing: one pool per game and common clock; a player who joins is paired at once
//! with the waiting player nearest in rating, or waits until someone comes (or leaves, or
//! ten minutes pass). Pool games are rated, with each game's default options.

use std::time::{Duration, Instant};

use ludus_games::GAMES;
use serde_json::{json, Map, Value};

use super::terms::Terms;
use crate::error::ApiError;
use crate::live::ClockSetup;
use crate::people::ratings::Rating;
use crate::people::Account;

/// A waiting player leaves the pool after this long.
pub const WAIT: Duration = Duration::from_secs(10 * 60);

/// The clocks every game has a pool for: (label, initial seconds, increment seconds).
const CLOCKS: &[(&str, u64, u64)] = &[("3+2", 180, 2), ("10+5", 600, 5)];

/// Players waiting in one pool.
#[derive(Debug)]
struct Pool {
    id: String,
    terms: Terms,
    waiting: Vec<(Account, Rating, Instant)>,
}

/// Every pool.
#[derive(Debug)]
pub struct Pools {
    pools: Vec<Pool>,
}

impl Default for Pools {
    fn default() -> Pools {
        let pools = GAMES
            .iter()
            .flat_map(|info| {
                CLOCKS.iter().map(move |&(label, initial, increment)| Pool {
                    id: format!("{}-{label}", info.id),
                    terms: Terms {
                        game: info.id.to_string(),
                        options: Map::new(),
                        clock: Some(ClockSetup::timed(initial * 1000, increment * 1000)),
                        rated: true,
                    },
                    waiting: Vec::new(),
                })
            })
            .collect();
        Pools { pools }
    }
}

impl Pools {
    /// Every pool with its number of waiting players.
    pub fn list(&self) -> Vec<Value> {
        self.pools
            .iter()
            .map(|p| {
                json!({"id": p.id, "game": p.terms.game, "clock": p.terms.clock,
                       "class": p.terms.class().as_str(), "waiting": p.waiting.len()})
            })
            .collect()
    }

    /// The terms of pool `id`.
    pub fn terms(&self, id: &str) -> Result<Terms, ApiError> {
        Ok(self.pool(id)?.terms.clone())
    }

    /// `who` (rated `rating` in the pool's game and class) joins pool `id`: answers the
    /// pair to seat (`who` and the nearest waiting rating, seats in random order) when there
    /// is one, else waits. A player waits in one pool at a time.
    pub fn join(
        &mut self,
        id: &str,
        who: Account,
        rating: Rating,
    ) -> Result<Option<(Vec<Account>, Terms)>, ApiError> {
        self.leave(who.id);
        let pool = self.pool_mut(id)?;
        let nearest = pool
            .waiting
            .iter()
            .enumerate()
            .min_by(|a, b| {
                let distance = |r: &Rating| (r.rating - rating.rating).abs();
                distance(&a.1 .1).total_cmp(&distance(&b.1 .1))
            })
            .map(|(index, _)| index);
        let Some(index) = nearest else {
            pool.waiting.push((who, rating, Instant::now()));
            return Ok(None);
        };
        let (other, _, _) = pool.waiting.remove(index);
        let pair = if crate::tokens::seed() % 2 == 0 {
            vec![who, other]
        } else {
            vec![other, who]
        };
        Ok(Some((pair, pool.terms.clone())))
    }

    /// Account `user_id` leaves whichever pool it waits in; answers whether it waited.
    pub fn leave(&mut self, user_id: i64) -> bool {
        let mut left = false;
        for pool in &mut self.pools {
            let before = pool.waiting.len();
            pool.waiting.retain(|(a, _, _)| a.id != user_id);
            left |= pool.waiting.len() != before;
        }
        left
    }

    /// Removes the players who waited longer than [`WAIT`].
    pub fn expire(&mut self, now: Instant) {
        for pool in &mut self.pools {
            pool.waiting
                .retain(|(_, _, since)| now.duration_since(*since) < WAIT);
        }
    }

    fn pool(&self, id: &str) -> Result<&Pool, ApiError> {
        self.pools
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| no_pool(id))
    }

    fn pool_mut(&mut self, id: &str) -> Result<&mut Pool, ApiError> {
        self.pools
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| no_pool(id))
    }
}

fn no_pool(id: &str) -> ApiError {
    ApiError::not_found(format!(
        "no pool '{id}': expected an id from GET /api/pools"
    ))
}
