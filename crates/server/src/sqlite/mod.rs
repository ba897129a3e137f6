//! Games that survive a restart: a [`Store`] over an embedded SQLite database (WAL, one
//! writer thread, versioned tables), with the live games also held in memory.
//!
//! A game is written when it is created (its setup) and on every change the rules accepted,
//! before the change is applied; opening the database replays every game still in progress
//! through the rules, and a game the rules refuse is reported by id and skipped, never changed.
//! Finished games stay on disk (`finished_ms` is set when one ends) and are read back on demand,
//! for reading only, once memory no longer holds them: memory stays bounded by the games in
//! progress, however many finished games the database keeps.

mod schema;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use ludus_engine::AnyGame;
use rusqlite::{Connection, OpenFlags, OptionalExtension};

use self::writer::{Write, Writer};
use crate::live::{self, LiveGame, Setup, StoredChange};
use crate::store::{Change, MemoryStore, Store, StoreError};

/// A stored game the rules refused: its id and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// The game's id.
    pub id: String,
    /// What was wrong.
    pub reason: String,
}

/// A stored game as read back: its setup and its changes.
#[derive(Debug)]
struct Row {
    id: String,
    setup: Result<Setup, String>,
    changes: Vec<StoredChange>,
    /// When it last changed, Unix milliseconds, if known.
    changed_ms: Option<i64>,
}

/// Which stored games to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    /// Every one (an export).
    All,
    /// Only those not known to be finished (a start).
    InProgress,
}

/// Games in memory, each also written to a SQLite database.
#[derive(Debug)]
pub struct SqliteStore {
    memory: MemoryStore,
    writer: Writer,
    /// Reads finished games back on demand, beside the writer (WAL lets both work at once).
    reader: Mutex<Connection>,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`, brings its tables up to date, and loads
    /// every game in progress, replayed through the rules; the games it had to skip come back
    /// too. At most `max_games` games are held in memory, `max_in_progress` of them in progress
    /// (the games in progress stored are all held, whatever the limits).
    pub fn open(
        path: &Path,
        max_games: usize,
        max_in_progress: usize,
    ) -> Result<(SqliteStore, Vec<Damaged>), StoreError> {
        let error = |e: String| StoreError(format!("database {}: {e}", path.display()));
        let mut connection = Connection::open(path).map_err(|e| error(e.to_string()))?;
        schema::migrate(&mut connection).map_err(error)?;
        let rows = read_rows(&connection, Which::InProgress).map_err(|e| error(e.to_string()))?;
        let memory = MemoryStore::new(max_games, max_in_progress);
        let mut damaged = Vec::new();
        for row in rows {
            let changed_ms = row.changed_ms;
            let restored = row
                .setup
                .and_then(|setup| live::restore(&row.id, &setup, &row.changes));
            match restored {
                // Written by a build without `finished_ms`, or ended just before a stop: marked
                // now, so the next start skips it.
                Ok(game) if game.finished_at().is_some() => {
                    mark_finished(&connection, &row.id).map_err(|e| error(e.to_string()))?;
                }
                Ok(game) => {
                    if let Some(at) = changed_ms.and_then(instant_of) {
                        game.lock().last_change = at;
                    }
                    memory.hold(game);
                }
                Err(reason) => damaged.push(Damaged { id: row.id, reason }),
            }
        }
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
        };
        Ok((store, damaged))
    }

    /// The database's path.
    pub fn path(&self) -> &Path {
        &self.path
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
    let rows = read_rows(&connection, Which::All).map_err(error)?;
    let mut games = Vec::new();
    let mut damaged = Vec::new();
    for row in rows {
        match row
            .setup
            .and_then(|setup| live::replay(&setup, &row.changes))
        {
            Ok(game) => games.push((row.id, game)),
            Err(reason) => damaged.push(Damaged { id: row.id, reason }),
        }
    }
    Ok((games, damaged))
}

fn read_rows(connection: &Connection, which: Which) -> rusqlite::Result<Vec<Row>> {
    let filter = match which {
        Which::All => "",
        Which::InProgress => "WHERE finished_ms IS NULL",
    };
    let mut games = connection.prepare(&format!(
        "SELECT id, setup, changed_ms FROM games {filter} ORDER BY created_ms, id"
    ))?;
    let heads = games
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<Vec<(String, String, Option<i64>)>>>()?;
    heads
        .into_iter()
        .map(|(id, setup, changed_ms)| read_row(connection, id, &setup, changed_ms))
        .collect()
}

/// The game `id` with its changes.
fn read_row(
    connection: &Connection,
    id: String,
    setup: &str,
    changed_ms: Option<i64>,
) -> rusqlite::Result<Row> {
    let mut changes = connection
        .prepare_cached("SELECT kind, arg FROM changes WHERE game_id = ?1 ORDER BY id")?;
    let changes = changes
        .query_map([&id], |row| {
            Ok(StoredChange {
                kind: row.get(0)?,
                arg: row.get(1)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let setup = serde_json::from_str(setup).map_err(|e| format!("bad setup: {e}"));
    Ok(Row {
        id,
        setup,
        changes,
        changed_ms,
    })
}

/// The finished game `id`, if the database holds it.
fn read_finished(connection: &Connection, id: &str) -> rusqlite::Result<Option<Row>> {
    let setup: Option<String> = connection
        .prepare_cached("SELECT setup FROM games WHERE id = ?1 AND finished_ms IS NOT NULL")?
        .query_row([id], |row| row.get(0))
        .optional()?;
    setup
        .map(|setup| read_row(connection, id.to_string(), &setup, None))
        .transpose()
}

fn mark_finished(connection: &Connection, id: &str) -> rusqlite::Result<()> {
    connection
        .prepare_cached("UPDATE games SET finished_ms = ?2 WHERE id = ?1")?
        .execute(rusqlite::params![id, crate::live::unix_ms() as i64])
        .map(drop)
}

/// The instant `unix_ms` stands for, if it is not in the future (a clock set back).
fn instant_of(unix_ms: i64) -> Option<Instant> {
    let ago = crate::live::unix_ms().checked_sub(u64::try_from(unix_ms).ok()?)?;
    Instant::now().checked_sub(Duration::from_millis(ago))
}

/// Runs `wait` (waiting for the writer thread's commit) without stalling the runtime: on a
/// worker of a multi-thread runtime, its other tasks move to another thread meanwhile, so
/// the moves of other games keep arriving and join the next group commit. Elsewhere (a plain
/// thread, a current-thread runtime, where `block_in_place` is not allowed) it just waits.
fn wait_for_commit<T>(wait: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(wait)
        }
        _ => wait(),
    }
}

impl Store for SqliteStore {
    fn insert(&self, game: Arc<LiveGame>) -> Result<(), StoreError> {
        let id = game.id().to_string();
        let setup = serde_json::to_string(&game.setup())
            .map_err(|e| StoreError(format!("the game could not be written: {e}")))?;
        let finished = game.finished_at().is_some();
        if let Some(evicted) = self.memory.insert_evicting(game)? {
            // Normally marked when it ended already; marked again in case that write failed,
            // since the next start would otherwise load it.
            let _ = self.finished(evicted.id(), true);
        }
        let write = Write::Game {
            id: id.clone(),
            created_ms: crate::live::unix_ms(),
            setup,
        };
        let mut written = wait_for_commit(|| self.writer.write(write));
        if finished && written.is_ok() {
            // A finished record loaded as a new game: never read at start.
            written = self.finished(&id, true).map_err(|e| e.0);
        }
        written.map_err(|e| {
            self.memory.remove(&id);
            StoreError(format!("the game could not be stored: {e}"))
        })
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

    fn log(&self, id: &str, change: Change<'_>) -> Result<(), StoreError> {
        let StoredChange { kind, arg } = change.into();
        let write = Write::Change {
            id: id.to_string(),
            kind,
            arg,
        };
        wait_for_commit(|| self.writer.write(write)).map_err(StoreError)
    }

    fn finished(&self, id: &str, finished: bool) -> Result<(), StoreError> {
        let write = Write::Finished {
            id: id.to_string(),
            finished_ms: finished.then(crate::live::unix_ms),
        };
        wait_for_commit(|| self.writer.write(write)).map_err(StoreError)
    }

    fn archived(&self, id: &str) -> Option<Arc<LiveGame>> {
        let reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        // A damaged game reads as missing here; the start reports it by id.
        let row = read_finished(&reader, id).ok()??;
        drop(reader);
        live::restore(&row.id, &row.setup.ok()?, &row.changes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
