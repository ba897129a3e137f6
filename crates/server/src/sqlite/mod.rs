//! Games that survive a restart: a [`Store`] over an embedded SQLite database (WAL, one
//! writer thread, versioned tables), with the live games also held in memory.
//!
//! A game is written when it is created (its setup) and on every change the rules accepted,
//! before the change is applied; opening the database replays every stored game through the
//! rules, and a game the rules refuse, or whose rows cannot be read, is reported by id and
//! skipped, never changed. Before SQLite opens the file, `checks` reads it (and its log)
//! for the problems SQLite would stop on or repair silently.

mod checks;
mod schema;
mod wal;
mod writer;

use std::collections::HashSet;
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
    warnings: Vec<String>,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`, brings its tables up to date, and loads
    /// every stored game, replayed through the rules; the games it had to skip come back too.
    /// A torn write-ahead log, a damaged table or page: see [`SqliteStore::warnings`].
    pub fn open(path: &Path, max_games: usize) -> Result<(SqliteStore, Vec<Damaged>), StoreError> {
        let error = |e: String| StoreError(format!("database {}: {e}", path.display()));
        let torn = checks::check_before_open(path).map_err(error)?;
        let mut connection = Connection::open(path).map_err(|e| error(e.to_string()))?;
        schema::migrate(&mut connection).map_err(error)?;
        let mut warnings = checks::warnings_after_open(&connection, torn.as_ref());
        let (rows, unreadable) = read_rows(&connection).map_err(|e| error(e.to_string()))?;
        warnings.extend(unreadable);
        let warnings = warnings
            .into_iter()
            .map(|w| format!("database {}: {w}", path.display()))
            .collect();
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
            warnings,
        };
        Ok((store, damaged))
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
    let (rows, unreadable) = read_rows(&connection).map_err(error)?;
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
            .and_then(|setup| live::replay(&setup, &row.changes))
        {
            Ok(game) => games.push((row.id, game)),
            Err(reason) => damaged.push(Damaged { id: row.id, reason }),
        }
    }
    Ok((games, damaged))
}

/// Every stored game's row, read game by game: a game whose row or changes cannot be read
/// (a damaged page) comes back with the reason as its setup's error, and the others load.
/// With it, why some games may be missing, when the games table could be read only in part.
fn read_rows(connection: &Connection) -> rusqlite::Result<(Vec<Row>, Option<String>)> {
    let (heads, unreadable) = read_heads(connection)?;
    let mut changes =
        connection.prepare("SELECT kind, arg FROM changes WHERE game_id = ?1 ORDER BY id")?;
    let rows = heads
        .into_iter()
        .map(|(id, _, setup)| {
            let changes = changes
                .query_map([&id], |row| {
                    Ok(StoredChange {
                        kind: row.get(0)?,
                        arg: row.get(1)?,
                    })
                })
                .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
                .map_err(|e| format!("its changes cannot be read: {e}"));
            let setup = setup.and_then(|setup| {
                serde_json::from_str(&setup).map_err(|e| format!("bad setup: {e}"))
            });
            match changes {
                Ok(changes) => Row { id, setup, changes },
                Err(reason) => Row {
                    id,
                    setup: Err(reason),
                    changes: Vec::new(),
                },
            }
        })
        .collect();
    Ok((rows, unreadable))
}

/// A game's id, creation time and setup (or why the setup cannot be read).
type Head = (String, i64, Result<String, String>);

/// The games table's rows in creation order. A damaged page stops a scan where it lies: the
/// rows before it are read forwards and those after it backwards, and the games on it are
/// named by SQLite's quick check.
fn read_heads(connection: &Connection) -> rusqlite::Result<(Vec<Head>, Option<String>)> {
    let (mut heads, failed) = scan_heads(connection, "ORDER BY rowid")?;
    let unreadable = match failed {
        None => None,
        Some(error) => {
            let seen: HashSet<String> = heads.iter().map(|(id, _, _)| id.clone()).collect();
            let (after, _) = scan_heads(connection, "ORDER BY rowid DESC")?;
            heads.extend(after.into_iter().filter(|(id, _, _)| !seen.contains(id)));
            Some(format!(
                "the games table could be read only in part ({error}): {} games read, the others skipped",
                heads.len()
            ))
        }
    };
    heads.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    Ok((heads, unreadable))
}

/// The games table's rows in `order` until the end or the first error reading it.
fn scan_heads(
    connection: &Connection,
    order: &str,
) -> rusqlite::Result<(Vec<Head>, Option<rusqlite::Error>)> {
    let mut statement =
        connection.prepare(&format!("SELECT id, created_ms, setup FROM games {order}"))?;
    let mut rows = statement.query([])?;
    let mut heads = Vec::new();
    loop {
        match rows.next() {
            Ok(Some(row)) => {
                // A row whose id cannot be read names no game: the quick check reports it.
                let Ok(id) = row.get::<_, String>(0) else {
                    continue;
                };
                let created_ms = row.get(1).unwrap_or(0);
                let setup = row
                    .get::<_, String>(2)
                    .map_err(|e| format!("its setup cannot be read: {e}"));
                heads.push((id, created_ms, setup));
            }
            Ok(None) => return Ok((heads, None)),
            Err(error) => return Ok((heads, Some(error))),
        }
    }
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

    fn close(&self) -> Result<(), StoreError> {
        wait_for_commit(|| self.writer.checkpoint())
            .map_err(|e| StoreError(format!("database {}: {e}", self.path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: usize = 4096;

    /// A database with games a, b, c, whose changes were written in that order: b's many
    /// enough to fill pages of their own.
    fn three_games(path: &Path) {
        let mut connection = Connection::open(path).unwrap();
        connection.pragma_update(None, "page_size", 4096).unwrap();
        schema::migrate(&mut connection).unwrap();
        for (id, changes) in [
            ("aaaa0000aaaa", 20),
            ("bbbb1111bbbb", 600),
            ("cccc2222cccc", 20),
        ] {
            connection
                .execute("INSERT INTO games VALUES (?1, 0, '{}')", [id])
                .unwrap();
            for i in 0..changes {
                connection
                    .execute(
                        "INSERT INTO changes (game_id, kind, arg) VALUES (?1, 'move', ?2)",
                        [id.to_string(), format!("a{i}")],
                    )
                    .unwrap();
            }
        }
        // Closing the last connection checkpoints the log into the file.
    }

    /// Damages, in the file at `path`, a table page holding only game b's rows.
    fn damage_a_page_of_b(path: &Path) {
        let mut bytes = std::fs::read(path).unwrap();
        let holds = |page: &[u8], id: &[u8]| page.windows(id.len()).any(|w| w == id);
        let only_b = (1..bytes.len() / PAGE)
            .find(|&n| {
                let page = &bytes[n * PAGE..(n + 1) * PAGE];
                // 0x0d: a table b-tree leaf page.
                page[0] == 0x0d
                    && holds(page, b"bbbb1111bbbb")
                    && !holds(page, b"aaaa0000aaaa")
                    && !holds(page, b"cccc2222cccc")
            })
            .expect("a page of b's rows alone");
        // Not a b-tree page type: SQLite calls the page malformed when it reaches it.
        bytes[only_b * PAGE] = 0x55;
        std::fs::write(path, bytes).unwrap();
    }

    #[test]
    fn a_damaged_page_costs_only_the_games_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite3");
        three_games(&path);
        damage_a_page_of_b(&path);
        let connection = Connection::open(&path).unwrap();
        let (rows, unreadable) = read_rows(&connection).unwrap();
        assert_eq!(unreadable, None);
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["aaaa0000aaaa", "bbbb1111bbbb", "cccc2222cccc"]);
        let reason = rows[1].setup.as_ref().unwrap_err();
        assert!(reason.contains("malformed"), "{reason}");
        assert_eq!(rows[0].changes.len(), 20);
        assert_eq!(rows[2].changes.len(), 20);
        let warnings = checks::warnings_after_open(&connection, None);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("quick check"), "{warnings:?}");
        let sound = dir.path().join("sound.sqlite3");
        three_games(&sound);
        let connection = Connection::open(&sound).unwrap();
        assert_eq!(
            checks::warnings_after_open(&connection, None),
            [] as [String; 0]
        );
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
