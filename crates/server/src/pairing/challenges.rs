//! Challenges: a signed-in player asks a named player for a game on stated terms (a rematch
//! is a challenge on the same terms with the seats swapped); the other accepts or declines.
//! Bounded per challenger, per challenged and in all, and withdrawn after a while.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::terms::Terms;
use crate::error::ApiError;
use crate::people::Account;
use crate::tokens;

/// Challenges one person may have sent and still open.
pub const SENT_PER_PERSON: usize = 10;

/// Challenges one person may have waiting for their answer.
pub const RECEIVED_PER_PERSON: usize = 20;

/// Challenges open on the whole server.
pub const IN_ALL: usize = 5_000;

/// A challenge nobody answered is withdrawn after this long.
pub const LIFETIME: Duration = Duration::from_secs(30 * 60);

/// One open challenge.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// Who asks.
    pub from: Account,
    /// Who is asked.
    pub to: Account,
    /// The game asked for.
    pub terms: Terms,
    /// The finished game this one is a rematch of; its seats are swapped.
    pub rematch_of: Option<String>,
    /// The seats in order, when fixed (a rematch): `true` puts the challenger first.
    pub challenger_first: Option<bool>,
    /// When it was made.
    pub made: Instant,
}

impl Challenge {
    /// As its two players see it.
    pub fn json(&self) -> Value {
        json!({
            "id": self.id,
            "from": {"name": self.from.name, "bot": self.from.bot},
            "to": {"name": self.to.name, "bot": self.to.bot},
            "game": self.terms.game,
            "options": self.terms.options,
            "clock": self.terms.clock,
            "class": self.terms.class().as_str(),
            "rated": self.terms.rated,
            "rematch_of": self.rematch_of,
        })
    }

    /// The players in seat order.
    pub fn seated(&self) -> Vec<Account> {
        let first = self
            .challenger_first
            .unwrap_or_else(|| tokens::seed() % 2 == 0);
        if first {
            vec![self.from.clone(), self.to.clone()]
        } else {
            vec![self.to.clone(), self.from.clone()]
        }
    }
}

/// The open challenges.
#[derive(Debug, Default)]
pub struct Challenges {
    open: Vec<Challenge>,
}

impl Challenges {
    /// The challenges sent by and to account `user_id`.
    pub fn of(&self, user_id: i64) -> (Vec<Value>, Vec<Value>) {
        let incoming = self
            .open
            .iter()
            .filter(|c| c.to.id == user_id)
            .map(Challenge::json)
            .collect();
        let outgoing = self
            .open
            .iter()
            .filter(|c| c.from.id == user_id)
            .map(Challenge::json)
            .collect();
        (incoming, outgoing)
    }

    /// Opens a challenge from `from` to `to`; answers it.
    pub fn send(
        &mut self,
        from: Account,
        to: Account,
        terms: Terms,
        rematch_of: Option<String>,
        challenger_first: Option<bool>,
    ) -> Result<Challenge, ApiError> {
        if from.id == to.id {
            return Err(ApiError::unprocessable(
                "a challenge to yourself: expected another player's name",
            ));
        }
        let sent = self.open.iter().filter(|c| c.from.id == from.id).count();
        let received = self.open.iter().filter(|c| c.to.id == to.id).count();
        let too_many =
            |what: String| ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, what);
        if sent >= SENT_PER_PERSON {
            return Err(too_many(format!("you have {sent} challenges waiting, the limit: expected answers or withdrawals first")));
        }
        if received >= RECEIVED_PER_PERSON {
            return Err(too_many(format!(
                "{} has {received} challenges waiting, the limit: expected a retry later",
                to.name
            )));
        }
        if self.open.len() >= IN_ALL {
            return Err(ApiError::unavailable(
                "the server holds as many challenges as it can: expected a retry later",
            ));
        }
        let challenge = Challenge {
            id: format!("c{}", tokens::game_id()?),
            from,
            to,
            terms,
            rematch_of,
            challenger_first,
            made: Instant::now(),
        };
        self.open.push(challenge.clone());
        Ok(challenge)
    }

    /// The open rematch of game `game_id` sent by account `user_id`, if any.
    pub fn rematch_from(&self, game_id: &str, user_id: i64) -> Option<&Challenge> {
        self.open
            .iter()
            .find(|c| c.from.id == user_id && c.rematch_of.as_deref() == Some(game_id))
    }

    /// Takes challenge `id` out, if account `user_id` is the one asked (accept, decline)
    /// or, with `challenger`, the one asking (withdraw).
    pub fn take(
        &mut self,
        id: &str,
        user_id: i64,
        challenger: bool,
    ) -> Result<Challenge, ApiError> {
        let index = self.open.iter().position(|c| c.id == id).ok_or_else(|| {
            ApiError::conflict(format!(
                "no open challenge '{id}': it was answered, withdrawn or expired; expected one from GET /api/challenges"
            ))
        })?;
        let challenge = &self.open[index];
        let allowed = if challenger {
            challenge.from.id == user_id
        } else {
            challenge.to.id == user_id
        };
        if !allowed {
            let who = if challenger { "sent" } else { "sent to you" };
            return Err(ApiError::forbidden(format!(
                "not a challenge you may answer: expected one {who}"
            )));
        }
        Ok(self.open.remove(index))
    }

    /// Removes the challenges older than [`LIFETIME`]; answers them.
    pub fn expire(&mut self, now: Instant) -> Vec<Challenge> {
        let (gone, kept) = std::mem::take(&mut self.open)
            .into_iter()
            .partition(|c: &Challenge| now.duration_since(c.made) >= LIFETIME);
        self.open = kept;
        gone
    }
}
