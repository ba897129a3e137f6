//! People on the server: accounts, sessions, bots' API tokens, the seats people hold and
//! ratings. Everything that must last lives in the same SQLite database as the games: read
//! on a connection of its own, written by the games' writer thread (one writer for the file,
//! one group commit); in memory for a server without a database.
//!
//! Playing without an account stays as it was: seat tokens. An account adds a name that
//! lasts, the seats it holds (so the person continues a game from any browser once signed
//! in there), ratings, and per-person limits instead of per-address ones.

mod accounts;
mod hashers;
mod names;
mod passwords;
mod profiles;
pub mod ratings;
mod seats;
pub(crate) mod sessions;
mod standings;
mod throttle;
#[cfg(test)]
mod write_tests;

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use rusqlite::Connection;
use serde::Serialize;

pub use self::accounts::UserLine;
pub use self::names::{check_about, check_name, check_password, TextError};
pub use self::profiles::Profile;
pub use self::seats::HeldSeat;
pub use self::standings::{RatingChange, Standing};
pub use self::throttle::Throttle;
use crate::error::ApiError;
use crate::sqlite::schema::{self, SchemaError};
use crate::sqlite::wait_for_commit;
use crate::sqlite::writer::{Job, WriteError};

/// A new random password for an administrator's reset: 20 hex characters (80 random bits)
/// (hex, so it reads out and types without ambiguity).
///
/// # Errors
/// Without the operating system's random source.
pub fn random_password() -> Result<String, crate::tokens::NoRandomSource> {
    Ok(crate::tokens::token()?[..20].to_string())
}

/// Argon2 hashes computed at once (each takes 19 MiB and tens of milliseconds of a core).
const HASHING_AT_ONCE: usize = 2;

/// Sign-ins and sign-ups that may wait for a hashing slot; more get a 503 at once.
const HASHING_QUEUE: usize = 64;

/// A signed-in person or bot, as a request sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Account {
    /// The account's number (never shown; names are).
    #[serde(skip)]
    pub id: i64,
    /// The name, as its owner typed it.
    pub name: String,
    /// A bot: an engine playing through the API with a token.
    pub bot: bool,
}

/// Where the accounts' writes go: the games' writer thread, which commits them with the
/// games' own writes (one writer for the file, one sync per batch).
pub trait Sink: Send + Sync {
    /// Sends `job` to the writer at once; the answer resolves when it is committed, holding
    /// no thread meanwhile.
    fn run_later(&self, job: Job) -> Pin<Box<dyn Future<Output = Result<(), WriteError>> + Send>>;
}

/// What a write's job says when it ran without handing its value back (it cannot: the job
/// runs to its end before the commit is answered).
const NO_ANSWER: &str = "the write ran without an answer";

/// `work` as a writer's job, and the channel its value comes back on.
fn answering<T: Send + 'static>(
    work: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
) -> (Job, std::sync::mpsc::Receiver<T>) {
    let (send, answer) = std::sync::mpsc::sync_channel(1);
    let job: Job = Box::new(move |connection| {
        let value = work(connection)?;
        let _ = send.send(value);
        Ok(())
    });
    (job, answer)
}

/// The answer to a request whose write failed (the error is logged, not shown).
fn failed(error: &dyn std::fmt::Display) -> ApiError {
    tracing::error!("accounts database: {error}");
    ApiError::unavailable("the accounts database failed on this request; try again")
}

/// The accounts of a server.
pub struct People {
    /// Reads (and, without a sink, writes).
    db: Mutex<Connection>,
    /// Writes, when the database has a writer thread.
    sink: Option<Arc<dyn Sink>>,
    hashing: hashers::Hashers,
    waiting: AtomicUsize,
    /// Sign-in and sign-up limits.
    pub throttle: Throttle,
    /// Sessions and tokens recently seen, by the hash of their secret, so that a request does
    /// not read the database to learn who sent it.
    known: Mutex<HashMap<String, (Account, Instant)>>,
    /// Cookies carry `Secure` (the server is reached over https).
    pub secure_cookies: bool,
}

impl std::fmt::Debug for People {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("People")
            .field("writes_through_the_games_writer", &self.sink.is_some())
            .field("secure_cookies", &self.secure_cookies)
            .finish_non_exhaustive()
    }
}

impl People {
    /// The accounts kept in the database at `path` (its tables brought up to date), or in
    /// memory when `path` is `None`.
    pub fn open(
        path: Option<&Path>,
        secure_cookies: bool,
        throttle: Throttle,
    ) -> Result<People, SchemaError> {
        let mut connection = match path {
            Some(path) => Connection::open(path),
            None => Connection::open_in_memory(),
        }?;
        schema::migrate(&mut connection)?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        Ok(People {
            db: Mutex::new(connection),
            sink: None,
            hashing: hashers::Hashers::start(HASHING_AT_ONCE),
            waiting: AtomicUsize::new(0),
            throttle,
            known: Mutex::new(HashMap::new()),
            secure_cookies,
        })
    }

    /// Sends the writes to `sink` (the games' writer) from now on.
    #[must_use]
    pub fn with_sink(mut self, sink: Arc<dyn Sink>) -> People {
        self.sink = Some(sink);
        self
    }

    /// Runs `work`, which writes, in a transaction: on the games' writer thread when there
    /// is one (it shares their group commit), else on this connection; answers once it is
    /// committed, holding no thread while it waits.
    pub async fn write<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let Some(sink) = &self.sink else {
            return self.write_here(work);
        };
        let (job, answer) = answering(work);
        sink.run_later(job).await.map_err(|e| failed(&e))?;
        answer.try_recv().map_err(|_| failed(&NO_ANSWER))
    }

    /// Runs `work` in a transaction on this connection (a database without a writer thread).
    fn write_here<T>(
        &self,
        work: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, ApiError> {
        self.with_db(|db| {
            let transaction = db.transaction()?;
            let value = work(&transaction)?;
            transaction.commit()?;
            Ok(value)
        })
    }

    /// Runs `work` on the database connection; on a runtime worker, the worker's other tasks
    /// move to another thread meanwhile (a write waits for its disk sync).
    pub fn with_db<T>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, ApiError> {
        wait_for_commit(|| {
            let mut db = self.lock_db();
            work(&mut db)
        })
        .map_err(|e| {
            tracing::error!("accounts database: {e}");
            ApiError::unavailable("the accounts database failed on this request; try again")
        })
    }

    /// Whether the accounts' database answers.
    pub fn healthy(&self) -> Result<(), rusqlite::Error> {
        let db = self.lock_db();
        db.query_row("SELECT count(*) FROM users WHERE id = 0", [], |_| Ok(()))
    }

    fn lock_db(&self) -> MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs an Argon2 computation on one of the [`HASHING_AT_ONCE`] hashing threads, with at
    /// most [`HASHING_QUEUE`] waiting; a 503 when the queue is full.
    async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let busy = || {
            ApiError::unavailable(
                "too many sign-ins at once on this server: try again in a few seconds",
            )
        };
        let Some(_queued) = Queued::join(&self.waiting) else {
            return Err(busy());
        };
        self.hashing.run(work).await.ok_or_else(busy)
    }
}

/// A place in the hashing queue, given back when dropped (also when the request is dropped
/// while it waits).
struct Queued<'a>(&'a AtomicUsize);

impl<'a> Queued<'a> {
    fn join(waiting: &'a AtomicUsize) -> Option<Queued<'a>> {
        if waiting.fetch_add(1, Ordering::SeqCst) >= HASHING_QUEUE {
            waiting.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Queued(waiting))
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
