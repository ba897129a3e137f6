//! Per-client limits, keyed by the client's IP address: a token bucket of actions (HTTP
//! requests that change something and WebSocket messages; 20 a second sustained with bursts
//! of 40 by default), the number of games a client created that are still in progress
//! (20 by default) and the number it created over the last day, finished or not (500 by
//! default: what one client may add to the database). Over a limit a client gets a one-line
//! error and the server keeps serving the others.
//!
//! Written here rather than with `governor`: one small map behind a mutex serves both HTTP
//! and WebSocket frames, forgets idle clients by itself, and adds no dependency; a check is a
//! hash lookup and a few float operations.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::client::ClientId;
use crate::error::ApiError;
use crate::live::LiveGame;
use crate::store::Store;

/// Clients kept before the idle ones (a full bucket, no game in progress) are forgotten.
const FORGET_AFTER: usize = 10_000;

/// The window of the daily quota of created games.
const DAY: Duration = Duration::from_secs(24 * 3600);

/// One client's bucket of actions.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    refilled: Instant,
}

/// The limits of every client.
#[derive(Debug)]
pub struct Limits {
    per_second: f64,
    burst: f64,
    games_per_client: usize,
    games_per_day: usize,
    buckets: Mutex<HashMap<ClientId, Bucket>>,
    games: Mutex<HashMap<ClientId, Vec<String>>>,
    /// When each client created its games of the last day, oldest first.
    created: Mutex<HashMap<ClientId, VecDeque<Instant>>>,
}

impl Limits {
    /// `per_second` actions sustained with bursts of `burst` (0: no limit),
    /// `games_per_client` games in progress per client and `games_per_day` games created per
    /// client and rolling day (0: no limit).
    pub fn new(
        per_second: u32,
        burst: u32,
        games_per_client: usize,
        games_per_day: usize,
    ) -> Limits {
        Limits {
            per_second: f64::from(per_second),
            burst: f64::from(burst.max(per_second).max(1)),
            games_per_client,
            games_per_day,
            buckets: Mutex::new(HashMap::new()),
            games: Mutex::new(HashMap::new()),
            created: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one action from `client`'s bucket, or a 429 saying when to try again.
    pub fn act(&self, client: Option<ClientId>) -> Result<(), ApiError> {
        let Some(client) = client.filter(|_| self.per_second > 0.0) else {
            return Ok(());
        };
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= FORGET_AFTER {
            let (rate, burst) = (self.per_second, self.burst);
            buckets.retain(|_, b| b.tokens + rate * (now - b.refilled).as_secs_f64() < burst);
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: self.burst,
            refilled: now,
        });
        let earned = self.per_second * (now - bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + earned).min(self.burst);
        bucket.refilled = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        let wait_ms = ((1.0 - bucket.tokens) / self.per_second * 1000.0).ceil();
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many actions from this client: expected at most {} a second (bursts of {}); try again in {wait_ms} ms",
                self.per_second, self.burst
            ),
        ))
    }

    /// Runs `create` if `client` may create another game (under its daily quota, and fewer
    /// than the limit of the games it created are still in progress; finished and deleted
    /// ones no longer count), and counts the game it makes. The check and the count are one
    /// step: two requests at once cannot both pass the last free place.
    pub fn create_game<T>(
        &self,
        client: Option<ClientId>,
        store: &dyn Store,
        create: impl FnOnce() -> Result<(Arc<LiveGame>, T), ApiError>,
    ) -> Result<(Arc<LiveGame>, T), ApiError> {
        let Some(client) = client.filter(|_| self.games_per_day > 0) else {
            return self.create_in_progress(client, store, create);
        };
        let now = Instant::now();
        let mut created = self.created.lock().unwrap_or_else(PoisonError::into_inner);
        if created.len() >= FORGET_AFTER {
            created.retain(|_, times| times.back().is_some_and(|t| now - *t < DAY));
        }
        let times = created.entry(client).or_default();
        while times.front().is_some_and(|t| now - *t >= DAY) {
            times.pop_front();
        }
        if times.len() >= self.games_per_day {
            let free_in = times.front().map_or(DAY, |t| DAY.saturating_sub(now - *t));
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this client created {} games in the last day, its limit: expected fewer; try again in {} min",
                    times.len(),
                    free_in.as_secs().div_ceil(60)
                ),
            ));
        }
        let made = self.create_in_progress(Some(client), store, create)?;
        times.push_back(now);
        Ok(made)
    }

    /// Whether `client` has room for one more game (as [`Limits::create_game`] checks), for a
    /// game made by an action that may also make none (accepting a seek of three seats).
    /// Checked first and counted with [`Limits::count_game`] after: two such actions at once
    /// may pass the last place together, by one game each.
    pub fn room_for_game(&self, client: ClientId, store: &dyn Store) -> Result<(), ApiError> {
        let placeholder = || Err(ApiError::conflict("only checked"));
        match self.create_game::<()>(Some(client), store, placeholder) {
            Err(error) if error.status == StatusCode::CONFLICT => Ok(()),
            Err(error) => Err(error),
            Ok(_) => Ok(()),
        }
    }

    /// Counts game `id` against `client`'s limits (made after [`Limits::room_for_game`]).
    pub fn count_game(&self, client: ClientId, id: &str) {
        if self.games_per_day > 0 {
            let mut created = self.created.lock().unwrap_or_else(PoisonError::into_inner);
            created.entry(client).or_default().push_back(Instant::now());
        }
        if self.games_per_client > 0 {
            let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
            games.entry(client).or_default().push(id.to_string());
        }
    }

    /// [`Limits::create_game`] without the daily quota.
    fn create_in_progress<T>(
        &self,
        client: Option<ClientId>,
        store: &dyn Store,
        create: impl FnOnce() -> Result<(Arc<LiveGame>, T), ApiError>,
    ) -> Result<(Arc<LiveGame>, T), ApiError> {
        let Some(client) = client.filter(|_| self.games_per_client > 0) else {
            return create();
        };
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if games.len() >= FORGET_AFTER {
            games.retain(|_, ids| ids.iter().any(|id| in_progress(store, id)));
        }
        let ids = games.entry(client).or_default();
        ids.retain(|id| in_progress(store, id));
        if ids.len() >= self.games_per_client {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this client has {} games in progress, its limit: expected one finished or deleted first",
                    ids.len()
                ),
            ));
        }
        let created = create()?;
        ids.push(created.0.id().to_string());
        Ok(created)
    }
}

fn in_progress(store: &dyn Store, id: &str) -> bool {
    store.get(id).is_some_and(|g| !g.is_finished())
}
