//! Seeks: a signed-in player offers a game on stated terms; anyone whose rating lies in the
//! range (if one is given) accepts it, and once every seat is taken the game begins for all
//! of them at once. The list lives in memory (a seek is worth nothing after a restart), is
//! bounded per person and in all, and every change is broadcast to the lobby's sockets.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use super::terms::Terms;
use crate::error::ApiError;
use crate::people::ratings::Rating;
use crate::people::Account;
use crate::tokens;

/// Open seeks one person may have.
pub const PER_PERSON: usize = 3;

/// Open seeks on the whole server.
pub const IN_ALL: usize = 2_000;

/// A seek nobody took is withdrawn after this long.
pub const LIFETIME: Duration = Duration::from_secs(30 * 60);

/// One open seek.
#[derive(Clone, Debug)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who offers it, with their rating in its game and class.
    pub by: (Account, Rating),
    /// The game offered.
    pub terms: Terms,
    /// The ratings accepted, inclusive.
    pub range: Option<(f64, f64)>,
    /// The seats of the game.
    pub seats: usize,
    /// Those who accepted, waiting for the other seats.
    pub joined: Vec<Account>,
    /// When it was made.
    pub made: Instant,
}

#[derive(Serialize)]
struct ByJson<'a> {
    name: &'a str,
    bot: bool,
    rating: String,
}

impl Seek {
    /// As the lobby shows it.
    pub fn json(&self) -> Value {
        json!({
            "id": self.id,
            "by": ByJson { name: &self.by.0.name, bot: self.by.0.bot, rating: self.by.1.shown() },
            "game": self.terms.game,
            "options": self.terms.options,
            "clock": self.terms.clock,
            "class": self.terms.class().as_str(),
            "rated": self.terms.rated,
            "range": self.range.map(|(lo, hi)| [lo, hi]),
            "seats": self.seats,
            "joined": self.joined.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        })
    }
}

/// What accepting did.
#[derive(Debug)]
pub enum Taken {
    /// Every seat is taken: these accounts play, in seat order (the seeker's seat drawn at
    /// random), on these terms.
    Full(Vec<Account>, Terms),
    /// Joined; other seats are still free.
    Joined(Seek),
}

/// The open seeks, oldest first.
#[derive(Debug, Default)]
pub struct Seeks {
    open: Vec<Seek>,
}

impl Seeks {
    /// Every open seek, oldest first.
    pub fn list(&self) -> Vec<Value> {
        self.open.iter().map(Seek::json).collect()
    }

    /// Opens a seek for `by` (rated `rating` in its game and class); answers it.
    pub fn post(
        &mut self,
        by: Account,
        rating: Rating,
        terms: Terms,
        seats: usize,
        range: Option<(f64, f64)>,
    ) -> Result<Seek, ApiError> {
        if let Some((lo, hi)) = range {
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(ApiError::unprocessable(format!(
                    "rating range [{lo}, {hi}]: expected two numbers, the lower first"
                )));
            }
        }
        let own = self.open.iter().filter(|s| s.by.0.id == by.id).count();
        if own >= PER_PERSON {
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "you have {own} open seeks, the limit: expected one withdrawn or taken first"
                ),
            ));
        }
        if self.open.len() >= IN_ALL {
            return Err(ApiError::unavailable(
                "the lobby holds as many seeks as it can: expected a retry later, or accepting one",
            ));
        }
        let seek = Seek {
            id: format!("s{}", tokens::game_id()?),
            by: (by, rating),
            terms,
            range,
            seats,
            joined: Vec::new(),
            made: Instant::now(),
        };
        self.open.push(seek.clone());
        Ok(seek)
    }

    /// Withdraws seek `id` of account `user_id`.
    pub fn cancel(&mut self, id: &str, user_id: i64) -> Result<(), ApiError> {
        let index = self.index(id)?;
        if self.open[index].by.0.id != user_id {
            return Err(ApiError::forbidden(
                "not your seek: expected one of your own seeks",
            ));
        }
        self.open.remove(index);
        Ok(())
    }

    /// `who` (rated `rating` in the seek's game and class) accepts seek `id`. Checked and
    /// taken under one lock, so two people accepting the last seat at once make one game.
    pub fn accept(&mut self, id: &str, who: &Account, rating: Rating) -> Result<Taken, ApiError> {
        let index = self.index(id)?;
        let seek = &mut self.open[index];
        if seek.by.0.id == who.id || seek.joined.iter().any(|a| a.id == who.id) {
            return Err(ApiError::forbidden(
                "you are already in this seek: expected someone else's",
            ));
        }
        if let Some((lo, hi)) = seek.range {
            if !(lo..=hi).contains(&rating.rating) {
                return Err(ApiError::forbidden(format!(
                    "your rating {} is outside this seek's range {lo:.0}–{hi:.0}",
                    rating.shown()
                )));
            }
        }
        seek.joined.push(who.clone());
        if seek.joined.len() + 1 < seek.seats {
            return Ok(Taken::Joined(seek.clone()));
        }
        let seek = self.open.remove(index);
        let mut players = seek.joined;
        let seeker_seat = (tokens::seed() % seek.seats as u64) as usize;
        players.insert(seeker_seat, seek.by.0);
        Ok(Taken::Full(players, seek.terms))
    }

    /// Removes every seek of account `user_id` (a banned account); answers their ids.
    pub fn withdraw_all(&mut self, user_id: i64) -> Vec<String> {
        let (gone, kept) = std::mem::take(&mut self.open)
            .into_iter()
            .partition(|s: &Seek| s.by.0.id == user_id);
        self.open = kept;
        gone.into_iter().map(|s| s.id).collect()
    }

    /// Removes the seeks older than [`LIFETIME`]; answers their ids.
    pub fn expire(&mut self, now: Instant) -> Vec<String> {
        let (gone, kept) = std::mem::take(&mut self.open)
            .into_iter()
            .partition(|s: &Seek| now.duration_since(s.made) >= LIFETIME);
        self.open = kept;
        gone.into_iter().map(|s| s.id).collect()
    }

    /// The open seek `id`.
    pub fn find(&self, id: &str) -> Option<&Seek> {
        self.open.iter().find(|s| s.id == id)
    }

    fn index(&self, id: &str) -> Result<usize, ApiError> {
        self.open.iter().position(|s| s.id == id).ok_or_else(|| {
            ApiError::conflict(format!(
                "no open seek '{id}': it was taken, withdrawn or expired; expected one from GET /api/seeks"
            ))
        })
    }
}
