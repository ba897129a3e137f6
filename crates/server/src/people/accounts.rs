//! Accounts: sign up, sign in, change the password, the profile's text, and the
//! administrator's ban and password reset. The password is hashed before anything is stored
//! and never leaves this file in any other form.

use rusqlite::{params, OptionalExtension};

use super::names::{check_about, check_name, check_password};
use super::{passwords, Account, People};
use crate::error::ApiError;
use crate::live::unix_ms;

/// The one answer to a failed sign-in, whatever failed: it must not tell whether the name
/// exists.
pub const WRONG: &str =
    "wrong name or password: expected the name and password of an account on this server";

impl People {
    /// Creates an account (a bot's with `bot`) and answers it. A taken name is a 409.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        bot: bool,
    ) -> Result<Account, ApiError> {
        check_name(name)?;
        check_password(password)?;
        let typed = password.to_string();
        let hash = self.hashing(move || passwords::hash(&typed)).await??;
        let name = name.to_string();
        let (row_name, created) = (name.clone(), unix_ms() as i64);
        let inserted = self
            .write(move |db| {
                db.execute(
                    "INSERT INTO users (name, password, bot, created_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (name) DO NOTHING",
                    params![row_name, hash, bot, created],
                )?;
                Ok((db.changes() == 1).then(|| db.last_insert_rowid()))
            })
            .await?;
        let id = inserted.ok_or_else(|| {
            ApiError::conflict(format!("the name '{name}' is taken: expected another name"))
        })?;
        tracing::info!(account = %name, bot, "account created");
        Ok(Account { id, name, bot })
    }

    /// The account `name` with `password`, or the same 401 for a wrong name, a wrong password
    /// and a closed account (the Argon2 check runs in every case, so the time tells nothing
    /// either).
    pub async fn sign_in(&self, name: &str, password: &str) -> Result<Account, ApiError> {
        let lookup = name.to_string();
        let found = self.with_db(|db| {
            db.query_row(
                "SELECT id, name, password, bot, banned FROM users WHERE name = ?1",
                [&lookup],
                |r| {
                    Ok((
                        Account {
                            id: r.get(0)?,
                            name: r.get(1)?,
                            bot: r.get(3)?,
                        },
                        r.get::<_, String>(2)?,
                        r.get::<_, bool>(4)?,
                    ))
                },
            )
            .optional()
        })?;
        let stored = found.as_ref().map(|(_, hash, _)| hash.clone());
        let typed = password.to_string();
        // The decoy is made and checked on the hashing thread too, whose memory it reuses.
        let matches = self
            .hashing(move || {
                let stored = stored.unwrap_or_else(|| passwords::decoy().to_string());
                passwords::verify(&typed, &stored)
            })
            .await?;
        match found {
            Some((account, _, false)) if matches => Ok(account),
            _ => Err(ApiError::new(axum::http::StatusCode::UNAUTHORIZED, WRONG)),
        }
    }

    /// Changes `account`'s password after checking the current one; every other session of
    /// the account ends (`keep` is the hash of the session that asked).
    pub async fn change_password(
        &self,
        account: &Account,
        current: &str,
        new: &str,
        keep: Option<&str>,
    ) -> Result<(), ApiError> {
        check_password(new)?;
        self.sign_in(&account.name, current).await.map_err(|_| {
            ApiError::forbidden("the current password is wrong: expected this account's password")
        })?;
        self.set_password(account.id, new).await?;
        self.end_sessions(account.id, keep).await
    }

    /// Sets `id`'s password (the administrator's reset, or a change already checked).
    pub async fn set_password(&self, id: i64, new: &str) -> Result<(), ApiError> {
        check_password(new)?;
        let typed = new.to_string();
        let hash = self.hashing(move || passwords::hash(&typed)).await??;
        self.write(move |db| {
            db.execute(
                "UPDATE users SET password = ?1 WHERE id = ?2",
                params![hash, id],
            )
        })
        .await?;
        Ok(())
    }

    /// The account named `name` (any case), if there is one and it is not closed.
    pub fn find(&self, name: &str) -> Result<Option<Account>, ApiError> {
        self.with_db(|db| {
            db.query_row(
                "SELECT id, name, bot FROM users WHERE name = ?1 AND banned = 0",
                [name],
                |r| {
                    Ok(Account {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        bot: r.get(2)?,
                    })
                },
            )
            .optional()
        })
    }

    /// Sets the profile's text of `id`.
    pub async fn set_about(&self, id: i64, about: &str) -> Result<(), ApiError> {
        check_about(about)?;
        let about = about.to_string();
        self.write(move |db| {
            db.execute(
                "UPDATE users SET about = ?1 WHERE id = ?2",
                params![about, id],
            )
        })
        .await?;
        Ok(())
    }

    /// The profile's text of `id`.
    pub fn about(&self, id: i64) -> Result<String, ApiError> {
        self.with_db(|db| db.query_row("SELECT about FROM users WHERE id = ?1", [id], |r| r.get(0)))
    }

    /// Closes (or opens again) the account `name`: a closed one cannot sign in, its sessions
    /// and tokens end, and it is listed nowhere. Answers whether such an account exists.
    pub async fn ban(&self, name: &str, banned: bool) -> Result<bool, ApiError> {
        let name = name.to_string();
        let changed = self.write(move |db| {
            let changed = db.execute("UPDATE users SET banned = ?1 WHERE name = ?2", params![banned, &name])?;
            if banned {
                db.execute("DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE name = ?1)", [&name])?;
                db.execute("DELETE FROM api_tokens WHERE user_id IN (SELECT id FROM users WHERE name = ?1)", [&name])?;
            }
            Ok(changed == 1)
        })
        .await?;
        self.forget_known();
        Ok(changed)
    }
}

/// An account as `ludus admin users` lists it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct UserLine {
    /// The name.
    pub name: String,
    /// A bot.
    pub bot: bool,
    /// Closed by the administrator.
    pub banned: bool,
    /// When it was made, Unix milliseconds.
    pub created_ms: i64,
    /// Rated games played.
    pub rated_games: i64,
}

impl People {
    /// Every account, oldest first.
    pub fn users(&self) -> Result<Vec<UserLine>, ApiError> {
        self.with_db(|db| {
            let mut query = db.prepare(
                "SELECT u.name, u.bot, u.banned, u.created_ms,
                        (SELECT count(*) FROM rating_history h WHERE h.user_id = u.id)
                 FROM users u ORDER BY u.created_ms, u.id",
            )?;
            let rows = query.query_map([], |r| {
                Ok(UserLine {
                    name: r.get(0)?,
                    bot: r.get(1)?,
                    banned: r.get(2)?,
                    created_ms: r.get(3)?,
                    rated_games: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    /// The number of account `name` (any case), closed or not.
    pub fn id_of(&self, name: &str) -> Result<Option<i64>, ApiError> {
        self.with_db(|db| {
            db.query_row("SELECT id FROM users WHERE name = ?1", [name], |r| r.get(0))
                .optional()
        })
    }
}
