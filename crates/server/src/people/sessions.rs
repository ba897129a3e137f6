//! Server-side sessions (behind the browser's cookie) and bots' API tokens (sent as
//! `Authorization: Bearer`). Each is a 128-bit secret from the OS's random source; the
//! database keeps only its SHA-256, so neither a copy of the database nor its logs sign
//! anybody in. A sign-in always makes a new session (a session id planted before it is
//! worth nothing), and signing out deletes it on the server.

use std::time::{Duration, Instant};

use rusqlite::{params, OptionalExtension};
use sha2::{Digest, Sha256};

use super::{Account, People};
use crate::error::ApiError;
use crate::live::unix_ms;
use crate::tokens;

/// How long a lookup stays in memory before the database is asked again (a ban or a
/// sign-out elsewhere is seen within this time; on this server they also clear it at once).
const KNOWN_FOR: Duration = Duration::from_secs(60);

/// Lookups kept in memory at most.
const KNOWN_MAX: usize = 10_000;

/// The longest life of a session without use: a month.
const SESSION_IDLE_MS: i64 = 30 * 24 * 3600 * 1000;

/// Sessions kept per account (the browsers and devices signed in at once).
const SESSIONS_KEPT: i64 = 20;

/// API tokens one account may have.
const TOKENS_KEPT: i64 = 10;

/// How old a session's last use may grow before it is written again.
const TOUCH_AFTER_MS: i64 = 3600 * 1000;

/// The hash under which a secret is stored.
pub fn digest(secret: &str) -> String {
    use std::fmt::Write;
    Sha256::digest(secret.as_bytes())
        .iter()
        .fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

impl People {
    /// A new session for `account`; answers its secret (the cookie's value).
    pub async fn new_session(&self, account: &Account) -> Result<String, ApiError> {
        let secret = tokens::token()?;
        let now = unix_ms() as i64;
        let (hash, user_id) = (digest(&secret), account.id);
        self.write(move |db| {
            db.execute(
                "INSERT INTO sessions (hash, user_id, created_ms, used_ms) VALUES (?1, ?2, ?3, ?3)",
                params![hash, user_id, now],
            )?;
            // Bounded per account: the expired ones go, and beyond the most recent
            // SESSIONS_KEPT the least recently used.
            db.execute(
                "DELETE FROM sessions WHERE user_id = ?1 AND (used_ms <= ?2 OR hash NOT IN
                     (SELECT hash FROM sessions WHERE user_id = ?1 ORDER BY used_ms DESC LIMIT ?3))",
                params![user_id, now - SESSION_IDLE_MS, SESSIONS_KEPT],
            )
        })
        .await?;
        self.forget_known();
        Ok(secret)
    }

    /// The account whose session has `secret`, if it still lasts.
    pub async fn session(&self, secret: &str) -> Result<Option<Account>, ApiError> {
        let now = unix_ms() as i64;
        let stale = std::cell::Cell::new(false);
        let found = self.lookup(secret, |db, hash| {
            let found = db
                .query_row(
                    "SELECT u.id, u.name, u.bot, s.used_ms FROM sessions s JOIN users u ON u.id = s.user_id
                     WHERE s.hash = ?1 AND u.banned = 0 AND s.used_ms > ?2",
                    params![hash, now - SESSION_IDLE_MS],
                    |row| Ok((account_of(row)?, row.get::<_, i64>(3)?)),
                )
                .optional()?;
            stale.set(found.as_ref().is_some_and(|(_, used)| *used < now - TOUCH_AFTER_MS));
            Ok(found.map(|(account, _)| account))
        })?;
        if stale.get() {
            // Its month of life starts again; written at most once an hour per session, so
            // reading who sent a request costs no write.
            let hash = digest(secret);
            self.write(move |db| {
                db.execute(
                    "UPDATE sessions SET used_ms = ?1 WHERE hash = ?2",
                    params![now, hash],
                )
            })
            .await?;
        }
        Ok(found)
    }

    /// Ends the session with `secret` (signing out).
    pub async fn end_session(&self, secret: &str) -> Result<(), ApiError> {
        let hash = digest(secret);
        self.write(move |db| db.execute("DELETE FROM sessions WHERE hash = ?1", [&hash]))
            .await?;
        self.forget_known();
        Ok(())
    }

    /// Ends every session of account `id` but the one with hash `keep`.
    pub async fn end_sessions(&self, id: i64, keep: Option<&str>) -> Result<(), ApiError> {
        let keep = keep.map(str::to_string);
        self.write(move |db| {
            db.execute(
                "DELETE FROM sessions WHERE user_id = ?1 AND hash IS NOT ?2",
                params![id, keep],
            )
        })
        .await?;
        self.forget_known();
        Ok(())
    }

    /// A new API token for `account` (a bot's), labelled; answers its secret, shown once.
    pub async fn new_token(&self, account: &Account, label: &str) -> Result<String, ApiError> {
        let secret = format!("ludus_{}", tokens::token()?);
        let (hash, user_id, label) = (digest(&secret), account.id, label.to_string());
        let made = self
            .write(move |db| {
                let held: i64 = db.query_row(
                    "SELECT count(*) FROM api_tokens WHERE user_id = ?1",
                    [user_id],
                    |r| r.get(0),
                )?;
                if held >= TOKENS_KEPT {
                    return Ok(false);
                }
                db.execute(
                "INSERT INTO api_tokens (hash, user_id, label, created_ms) VALUES (?1, ?2, ?3, ?4)",
                params![hash, user_id, label, unix_ms() as i64],
            )?;
                Ok(true)
            })
            .await?;
        if !made {
            return Err(ApiError::unprocessable(format!(
                "this account has {TOKENS_KEPT} API tokens, the limit: expected to use one of them"
            )));
        }
        Ok(secret)
    }

    /// The account of the API token `secret`.
    pub fn token_account(&self, secret: &str) -> Result<Option<Account>, ApiError> {
        self.lookup(secret, |db, hash| {
            db.query_row(
                "SELECT u.id, u.name, u.bot FROM api_tokens t JOIN users u ON u.id = t.user_id
                 WHERE t.hash = ?1 AND u.banned = 0",
                [hash],
                account_of,
            )
            .optional()
        })
    }

    /// Forgets every lookup kept in memory (after a sign-out, a ban, a password change).
    pub fn forget_known(&self) {
        self.known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    fn lookup(
        &self,
        secret: &str,
        read: impl FnOnce(&mut rusqlite::Connection, &str) -> rusqlite::Result<Option<Account>>,
    ) -> Result<Option<Account>, ApiError> {
        let hash = digest(secret);
        let now = Instant::now();
        {
            let known = self
                .known
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some((account, at)) = known.get(&hash) {
                if now - *at < KNOWN_FOR {
                    return Ok(Some(account.clone()));
                }
            }
        }
        let found = self.with_db(|db| read(db, &hash))?;
        let mut known = self
            .known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if known.len() >= KNOWN_MAX {
            known.clear();
        }
        match &found {
            Some(account) => known.insert(hash, (account.clone(), now)),
            None => known.remove(&hash),
        };
        Ok(found)
    }
}

fn account_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: row.get(0)?,
        name: row.get(1)?,
        bot: row.get(2)?,
    })
}

#[cfg(test)]
mod tests {
    use super::digest;

    #[test]
    fn a_secret_is_stored_as_its_sha256() {
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
