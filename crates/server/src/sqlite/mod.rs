//! Games that survive a restart: a [`Store`] over an embedded SQLite database (WAL, one
//! writer thread, versioned tables), with the live games also held in memory.
//!
//! A game is written when it is created (its setup) and on every change the rules accepted,
//! before the change is applied; opening the database replays every stored game through the
//! rules, and a game the rules refuse is reported by id and skipped, never changed.

mod schema;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ludus_engine::AnyGame;
use rusqlite::{Connection, OpenFlags};

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
}

/// Games in memory, each also written to a SQLite database.
#[derive(Debug)]
pub struct SqliteStore {
    memory: MemoryStore,
    writer: Writer,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`, brings its tables up to date, and loads
    /// every stored game, replayed through the rules; the games it had to skip come back too.
    pub fn open(path: &Path, max_games: usize) -> Result<(SqliteStore, Vec<Damaged>), StoreError> {
        let error = |e: String| StoreError(format!("database {}: {e}", path.display()));
        let mut connection = Connection::open(path).map_err(|e| error(e.to_string()))?;
        schema::migrate(&mut connection).map_err(error)?;
        let rows = read_rows(&connection).map_err(|e| error(e.to_string()))?;
        let memory = MemoryStore::new(max_games);
        let mut damaged = Vec::new();
        for row in rows {
            let restored = row
                .setup
                .and_then(|setup| live::restore(&row.id, &setup, &row.changes))
                .and_then(|game| memory.insert(game).map_err(|e| e.0));
            if let Err(reason) = restored {
                damaged.push(Damaged { id: row.id, reason });
            }
        }
        let writer = Writer::start(connection, path).map_err(|e| error(e.to_string()))?;
        let store = SqliteStore {
            memory,
            writer,
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
    let rows = read_rows(&connection).map_err(error)?;
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

fn read_rows(connection: &Connection) -> rusqlite::Result<Vec<Row>> {
    let mut games = connection.prepare("SELECT id, setup FROM games ORDER BY created_ms, id")?;
    let mut changes =
        connection.prepare("SELECT kind, arg FROM changes WHERE game_id = ?1 ORDER BY id")?;
    let heads = games
        .query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    heads
        .into_iter()
        .map(|(id, setup)| {
            let changes = changes
                .query_map([&id], |row| {
                    Ok(StoredChange {
                        kind: row.get(0)?,
                        arg: row.get(1)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let setup = serde_json::from_str(&setup).map_err(|e| format!("bad setup: {e}"));
            Ok(Row { id, setup, changes })
        })
        .collect()
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
        self.memory.insert(game)?;
        let write = Write::Game {
            id: id.clone(),
            created_ms: crate::live::unix_ms(),
            setup,
        };
        let written = wait_for_commit(|| self.writer.write(write));
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
