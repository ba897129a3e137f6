//! Games that survive a restart: a [`Store`] over an embedded SQLite database (WAL, one
//! writer thread, versioned tables), with the live games also held in memory.
//!
//! A game is written when it is created (its setup) and on every change the rules accepted,
//! before the change is applied; opening the database replays every game still in progress
//! through the rules, and a game the rules refuse, or whose rows cannot be read, is reported by
//! id and skipped, never changed. Before SQLite opens the file, `checks` reads it (and its log)
//! for the problems SQLite would stop on or repair silently. Finished games stay on disk
//! (`finished_ms` is set when one ends) and are read back on demand, for reading only, once
//! memory no longer holds them: memory stays bounded by the games in progress, however many
//! finished games the database keeps.

pub mod admin;
mod checks;
mod read;
mod rows;
pub(crate) mod schema;
mod wal;
pub(crate) mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use ludus_engine::AnyGame;
use rusqlite::{Connection, OpenFlags};

use self::read::{instant_of, mark_finished, read_chat, read_finished, read_rows, Which};
use self::writer::{Write, WriteError, Writer};
use crate::live::{self, ChatLine, LiveGame};
use crate::store::{Change, MemoryStore, Pending, Store, StoreError};

/// A stored game the rules refused: its id and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// The game's id.
    pub id: String,
    /// What was wrong.
    pub reason: String,
}

/// Games in memory, each also written to a SQLite database.
#[derive(Debug)]
pub struct SqliteStore {
    memory: MemoryStore,
    writer: Writer,
    /// Reads finished games back on demand, beside the writer (WAL lets both work at once).
    reader: Mutex<Connection>,
    path: PathBuf,
    warnings: Vec<String>,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`, brings its tables up to date, and loads
    /// every game in progress, replayed through the rules; the games it had to skip come back
    /// too. At most `max_games` games are held in memory, `max_in_progress` of them in progress
    /// (the games in progress stored are all held, whatever the limits). A torn write-ahead
    /// log, a damaged table or page: see [`SqliteStore::warnings`].
    pub fn open(
        path: &Path,
        max_games: usize,
        max_in_progress: usize,
    ) -> Result<(SqliteStore, Vec<Damaged>), StoreError> {
        let error = |e: String| StoreError(format!("database {}: {e}", path.display()));
        let torn = checks::check_before_open(path).map_err(error)?;
        let mut connection = Connection::open(path).map_err(|e| error(e.to_string()))?;
        schema::migrate(&mut connection).map_err(|e| error(e.to_string()))?;
        let mut warnings = checks::warnings_after_open(&connection, torn.as_ref());
        let (rows, unreadable) =
            read_rows(&connection, Which::InProgress).map_err(|e| error(e.to_string()))?;
        warnings.extend(unreadable);
        let memory = MemoryStore::new(max_games, max_in_progress);
        let mut damaged = Vec::new();
        for row in rows {
            let changed_ms = row.changed_ms;
            let restored = row.setup.map_err(|e| e.to_string()).and_then(|setup| {
                live::restore(&row.id, &setup, &row.changes).map_err(|e| e.to_string())
            });
            match restored {
                // Written by a build without `finished_ms`, or ended just before a stop: marked
                // now, so the next start skips it.
                Ok(game) if game.is_finished() => {
                    mark_finished(&connection, &row.id).map_err(|e| error(e.to_string()))?;
                }
                Ok(game) => {
                    if let Some(at) = last_change_of(changed_ms) {
                        game.lock().last_change = at;
                    }
                    // A chat that cannot be read costs only the chat.
                    match read_chat(&connection, &row.id) {
                        Ok(lines) => game.lock().chat = live::kept_chat(lines),
                        Err(e) => warnings.push(format!(
                            "game {}: its chat cannot be read ({e}); it starts empty",
                            row.id
                        )),
                    }
                    memory.hold(game);
                }
                Err(reason) => damaged.push(Damaged { id: row.id, reason }),
            }
        }
        let warnings = warnings
            .into_iter()
            .map(|w| format!("database {}: {w}", path.display()))
            .collect();
        let reader = Connection::open(path).map_err(|e| error(e.to_string()))?;
        reader
            .busy_timeout(Duration::from_secs(5))
            .map_err(|e| error(e.to_string()))?;
        let writer = Writer::start(connection, path).map_err(|e| error(e.to_string()))?;
        let store = SqliteStore {
            memory,
            writer,
            reader: Mutex::new(reader),
            path: path.to_path_buf(),
            warnings,
        };
        Ok((store, damaged))
    }

    /// Holds `game` in memory (marking, without waiting, the finished game it pushes out)
    /// and answers the write that stores it, and whether it is finished already.
    fn hold(&self, game: Arc<LiveGame>) -> Result<(Write, bool), StoreError> {
        let id = game.id().to_string();
        let setup = serde_json::to_string(&game.setup())
            .map_err(|e| StoreError(format!("the game could not be written: {e}")))?;
        let finished = game.is_finished();
        if let Some(evicted) = self.memory.insert_evicting(game)? {
            // Normally marked when it ended already; marked again in case that write failed,
            // since the next start would otherwise load it.
            self.finished_later(evicted.id(), true);
        }
        let write = Write::Game {
            id,
            created_ms: crate::live::unix_ms(),
            setup,
        };
        Ok((write, finished))
    }

    /// The database's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What opening the database found besides games the rules refused, one line each,
    /// naming the file: a torn write-ahead log (kept beside it) with the games it may have
    /// cost their last decisions, damage found by SQLite's quick check, a games table that
    /// could be read only in part.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// The games read back from a database: each with its id, in the order they were created,
/// and the games the rules refused.
pub type StoredGames = (Vec<(String, AnyGame)>, Vec<Damaged>);

/// Every game stored in the database at `path` (opened read-only), replayed through the rules.
pub fn stored_games(path: &Path) -> Result<StoredGames, StoreError> {
    let error = |e: rusqlite::Error| StoreError(format!("database {}: {e}", path.display()));
    let connection =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(error)?;
    let (rows, unreadable) = read_rows(&connection, Which::All).map_err(error)?;
    if let Some(problem) = unreadable {
        return Err(StoreError(format!(
            "database {}: {problem}",
            path.display()
        )));
    }
    let mut games = Vec::new();
    let mut damaged = Vec::new();
    for row in rows {
        match row
            .setup
            .map_err(|e| e.to_string())
            .and_then(|setup| live::replay(&setup, &row.changes).map_err(|e| e.to_string()))
        {
            Ok(game) => games.push((row.id, game)),
            Err(reason) => damaged.push(Damaged { id: row.id, reason }),
        }
    }
    Ok((games, damaged))
}

/// When a game stored with `changed_ms` last changed, for a start: the stored time is up to
/// a step old ([`writer::CHANGED_MS_STEP`]), so the step is added, and a time still in the
/// future counts from now (`None`). No game is judged abandoned early; one may be a step
/// late.
fn last_change_of(changed_ms: Option<i64>) -> Option<std::time::Instant> {
    changed_ms
        .map(|ms| ms.saturating_add(writer::CHANGED_MS_STEP))
        .and_then(instant_of)
}

/// The row that records `change` to game `id`.
fn change_write(id: &str, change: &Change) -> Write {
    let (kind, arg) = rows::to_row(change);
    Write::Change {
        id: id.to_string(),
        kind: kind.to_string(),
        arg,
    }
}

/// The mark that game `id` ended (now) or came back into play.
fn finished_write(id: &str, finished: bool) -> Write {
    Write::Finished {
        id: id.to_string(),
        finished_ms: finished.then(crate::live::unix_ms),
    }
}

/// The error of a game whose row could not be written.
fn not_stored(error: &WriteError) -> StoreError {
    StoreError(format!("the game could not be stored: {error}"))
}

/// Runs `wait` (waiting for the writer thread's commit) without stalling the runtime: on a
/// worker of a multi-thread runtime, its other tasks move to another thread meanwhile, so
/// the moves of other games keep arriving and join the next group commit. Elsewhere (a plain
/// thread, a current-thread runtime, where `block_in_place` is not allowed) it just waits.
pub(crate) fn wait_for_commit<T>(wait: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(wait)
        }
        _ => wait(),
    }
}

impl crate::people::Sink for SqliteStore {
    fn run_later(
        &self,
        job: writer::Job,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), writer::WriteError>> + Send>>
    {
        Box::pin(
            self.writer
                .write_later(Write::Job(writer::JobCell::new(job))),
        )
    }
}

impl Store for SqliteStore {
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError> {
        let id = game.id().to_string();
        let (write, finished) = self.hold(game)?;
        let mut written = wait_for_commit(|| self.writer.write(write));
        if finished && written.is_ok() {
            // A finished record loaded as a new game: never read at start.
            written = self
                .finished(&id, true)
                .map_err(|e| WriteError::Sqlite(e.0));
        }
        written.map_err(|e| {
            self.memory.remove(&id);
            not_stored(&e)
        })
    }

    fn insert_later(&self, game: Arc<LiveGame>) -> Result<Pending, StoreError> {
        let id = game.id().to_string();
        let (write, finished) = self.hold(game)?;
        let row = self.writer.write_later(write);
        // A finished record loaded as a new game is marked at once, in order after its row
        // (a mark without a row changes nothing).
        let mark = finished.then(|| self.writer.write_later(finished_write(&id, true)));
        Ok(Pending::waiting(async move {
            row.await.map_err(|e| not_stored(&e))?;
            match mark {
                Some(mark) => mark.await.map_err(|e| not_stored(&e)),
                None => Ok(()),
            }
        }))
    }

    fn get(&self, id: &str) -> Option<Arc<LiveGame>> {
        self.memory.get(id)
    }

    fn remove(&self, id: &str) -> Option<Arc<LiveGame>> {
        // A failed delete leaves the game in the database; it comes back after a restart,
        // which loses nothing.
        let _ = self.writer.write(Write::Remove { id: id.to_string() });
        self.memory.remove(id)
    }

    fn games(&self) -> Vec<Arc<LiveGame>> {
        self.memory.games()
    }

    fn send(&self, id: &str, change: Change) -> Pending {
        let commit = self.writer.write_later(change_write(id, &change));
        Pending::waiting(async move { commit.await.map_err(|e| StoreError(e.to_string())) })
    }

    fn chat(&self, id: &str, line: &ChatLine) -> Pending {
        let commit = self.writer.write_later(Write::Chat {
            id: id.to_string(),
            line: line.clone(),
        });
        Pending::waiting(async move { commit.await.map_err(|e| StoreError(e.to_string())) })
    }

    fn finished(&self, id: &str, finished: bool) -> Result<(), StoreError> {
        let write = finished_write(id, finished);
        wait_for_commit(|| self.writer.write(write)).map_err(|e| StoreError(e.to_string()))
    }

    fn finished_later(&self, id: &str, finished: bool) {
        // Its answer is dropped: the write still goes, in order with the changes around it.
        drop(self.writer.write_later(finished_write(id, finished)));
    }

    fn archived(&self, id: &str) -> Option<Arc<LiveGame>> {
        let reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        // A damaged game reads as missing here; the start reports it by id.
        let row = read_finished(&reader, id).ok()??;
        let chat = read_chat(&reader, id).unwrap_or_default();
        drop(reader);
        let game = live::restore(&row.id, &row.setup.ok()?, &row.changes).ok()?;
        game.lock().chat = live::kept_chat(chat);
        Some(game)
    }

    fn healthy(&self) -> Result<(), StoreError> {
        // A fresh connection that may not create the file: it fails when the file is gone
        // or unreadable (a volume unmounted, a disk failing), which the server's open
        // connections would not notice until a write failed.
        let error =
            |e: rusqlite::Error| StoreError(format!("database {}: {e}", self.path.display()));
        let connection = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(error)?;
        connection
            .query_row("SELECT count(*) FROM games WHERE id = ''", [], |_| Ok(()))
            .map_err(error)
    }

    fn close(&self) -> Result<(), StoreError> {
        wait_for_commit(|| self.writer.checkpoint())
            .map_err(|e| StoreError(format!("database {}: {e}", self.path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_counts_from_a_step_after_the_stored_change() {
        let now = crate::live::unix_ms() as i64;
        let ago = last_change_of(Some(now - 10 * 60_000)).unwrap().elapsed();
        // Ten minutes less the step, give or take the test's own run.
        let expected = Duration::from_millis(10 * 60_000 - writer::CHANGED_MS_STEP as u64);
        let slack = Duration::from_secs(20);
        assert!(
            ago + slack > expected && ago < expected + slack,
            "{ago:?}, expected {expected:?}"
        );
        assert_eq!(last_change_of(Some(now - 1_000)), None, "from now");
        assert_eq!(last_change_of(None), None);
    }

    #[test]
    fn waiting_for_a_commit_works_on_every_kind_of_thread() {
        assert_eq!(wait_for_commit(|| 1), 1);
        for multi_thread in [false, true] {
            let runtime = if multi_thread {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .build()
            } else {
                tokio::runtime::Builder::new_current_thread().build()
            };
            let waited = runtime.unwrap().block_on(async {
                let on_worker = tokio::spawn(async { wait_for_commit(|| 2) }).await.unwrap();
                let on_blocking = tokio::task::spawn_blocking(|| wait_for_commit(|| 3));
                on_worker + on_blocking.await.unwrap()
            });
            assert_eq!(waited, 5, "multi-thread runtime: {multi_thread}");
        }
    }
}
