//! The database's tables and their migrations: a `schema_version` table holds how many of
//! [`MIGRATIONS`] were applied; opening a database applies the rest, in one transaction.
//! A migration is never edited once released: a change to the tables is a new entry.

use rusqlite::{Connection, OptionalExtension};

/// The migrations in order; the schema version is how many were applied.
const MIGRATIONS: &[&str] = &[
    // 1: games with their setup (JSON), and every change logged since, in order.
    "CREATE TABLE games (
         id TEXT PRIMARY KEY,
         created_ms INTEGER NOT NULL,
         setup TEXT NOT NULL
     );
     CREATE TABLE changes (
         id INTEGER PRIMARY KEY,
         game_id TEXT NOT NULL,
         kind TEXT NOT NULL,
         arg TEXT NOT NULL
     );
     CREATE INDEX changes_by_game ON changes (game_id, id);",
    // 2: when a game ended (NULL while in progress: a start reads only those) and when it last
    // changed (NULL: unknown, taken as the start), Unix milliseconds.
    "ALTER TABLE games ADD COLUMN finished_ms INTEGER;
     ALTER TABLE games ADD COLUMN changed_ms INTEGER;
     CREATE INDEX games_in_progress ON games (finished_ms);",
    // 3: people. Accounts (the password as an Argon2id PHC string, never in plain text),
    // sessions and bots' API tokens (each stored as the SHA-256 of its secret, so a copy of
    // the database signs nobody in), the seats people hold, ratings per game and clock class
    // with every change, and the games already rated (so a game is rated once).
    "CREATE TABLE users (
         id INTEGER PRIMARY KEY,
         name TEXT NOT NULL UNIQUE COLLATE NOCASE,
         password TEXT NOT NULL,
         bot INTEGER NOT NULL DEFAULT 0,
         banned INTEGER NOT NULL DEFAULT 0,
         about TEXT NOT NULL DEFAULT '',
         created_ms INTEGER NOT NULL
     );
     CREATE TABLE sessions (
         hash TEXT PRIMARY KEY,
         user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         created_ms INTEGER NOT NULL,
         used_ms INTEGER NOT NULL
     );
     CREATE INDEX sessions_by_user ON sessions (user_id);
     CREATE TABLE api_tokens (
         hash TEXT PRIMARY KEY,
         user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         label TEXT NOT NULL,
         created_ms INTEGER NOT NULL
     );
     CREATE TABLE game_seats (
         game_id TEXT NOT NULL,
         seat INTEGER NOT NULL,
         user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         created_ms INTEGER NOT NULL,
         PRIMARY KEY (game_id, seat)
     );
     CREATE INDEX game_seats_by_user ON game_seats (user_id, created_ms);
     CREATE TABLE ratings (
         user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         game TEXT NOT NULL,
         class TEXT NOT NULL,
         rating REAL NOT NULL,
         deviation REAL NOT NULL,
         volatility REAL NOT NULL,
         wins INTEGER NOT NULL DEFAULT 0,
         draws INTEGER NOT NULL DEFAULT 0,
         losses INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (user_id, game, class)
     );
     CREATE INDEX ratings_by_game ON ratings (game, class, rating);
     CREATE TABLE rating_history (
         id INTEGER PRIMARY KEY,
         user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         game TEXT NOT NULL,
         class TEXT NOT NULL,
         game_id TEXT NOT NULL,
         rating REAL NOT NULL,
         deviation REAL NOT NULL,
         score REAL NOT NULL,
         at_ms INTEGER NOT NULL,
         UNIQUE (game_id, user_id)
     );
     CREATE INDEX rating_history_by_user ON rating_history (user_id, game, class, id);",
    // 4: the games' chat: each line with its channel (`players` or `spectators`), who said it
    // (the seat, NULL for a spectator) and when (Unix milliseconds); the last 500 of a game.
    "CREATE TABLE chat (
         id INTEGER PRIMARY KEY,
         game_id TEXT NOT NULL,
         channel TEXT NOT NULL,
         sender TEXT NOT NULL,
         seat INTEGER,
         text TEXT NOT NULL,
         at_ms INTEGER NOT NULL
     );
     CREATE INDEX chat_by_game ON chat (game_id, id);",
];

/// The schema version this build writes.
pub const VERSION: usize = MIGRATIONS.len();

/// The page size of a new database, in bytes (see [`migrate`]).
pub const PAGE_SIZE: i64 = 1024;

/// The page size of the database open on `connection`, in bytes (for the tests of new
/// databases and of compacted copies).
#[cfg(test)]
pub(super) fn page_size(connection: &Connection) -> i64 {
    connection
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap()
}

/// Why a database's tables could not be brought up to date.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// SQLite refused a statement (or opening the file).
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// A database written by a newer Ludus, whose tables this build does not know.
    #[error(
        "the database has schema version {0}, newer than this build's {VERSION}: expected a database of this or an older Ludus"
    )]
    Newer(usize),
}

/// Sets the connection up (WAL, a busy timeout) and brings the tables to [`VERSION`].
pub fn migrate(connection: &mut Connection) -> Result<(), SchemaError> {
    // The busy timeout first: a second connection to the file (the accounts') switching to WAL
    // meets the first one's writes and checkpoints, and without a timeout SQLite answers
    // "database is locked" at once instead of waiting for them.
    connection.busy_timeout(std::time::Duration::from_secs(5))?;
    // 1 KiB pages, in a new database only (an existing one keeps its size): a move adds a
    // few dozen bytes to its game's place in an index, and every page it touches is written
    // whole to the log and again at the checkpoint. With 4 KiB pages a move wrote 5.8 KB
    // to the disk under the load test, with 1 KiB 3.6 KB (docs/SCALING.md, "What a move
    // writes to the disk"); SQLite's default page was 1 KiB until version 3.12.
    connection.pragma_update(None, "page_size", PAGE_SIZE)?;
    connection.pragma_update(None, "journal_mode", "WAL")?;
    // FULL syncs the log at every commit, so an acknowledged decision survives a power cut
    // or an OS crash too (NORMAL in WAL mode may lose the last commits there). The writer's
    // group commit makes that one sync per batch of writes, not one per decision.
    connection.pragma_update(None, "synchronous", "FULL")?;
    // Immediate: the write lock is taken at the start, waiting (the busy timeout) for the other
    // connection's writes, instead of a read that cannot become a write once they commit.
    let transaction =
        connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    transaction
        .execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    let stored: Option<i64> = transaction
        .query_row("SELECT version FROM schema_version", [], |row| row.get(0))
        .optional()?;
    let current = usize::try_from(stored.unwrap_or(0)).unwrap_or(usize::MAX);
    if current > VERSION {
        return Err(SchemaError::Newer(current));
    }
    for migration in &MIGRATIONS[current..] {
        transaction.execute_batch(migration)?;
    }
    transaction.execute("DELETE FROM schema_version", [])?;
    transaction.execute(
        "INSERT INTO schema_version (version) VALUES (?1)",
        [VERSION as i64],
    )?;
    Ok(transaction.commit()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrating_twice_keeps_the_version_and_the_rows() {
        let mut connection = Connection::open_in_memory().unwrap();
        migrate(&mut connection).unwrap();
        connection
            .execute(
                "INSERT INTO games (id, created_ms, setup) VALUES ('a', 0, '{}')",
                [],
            )
            .unwrap();
        migrate(&mut connection).unwrap();
        let version: i64 = connection
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, VERSION as i64);
        let games: i64 = connection
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(games, 1);
    }

    #[test]
    fn the_writers_connection_syncs_every_commit() {
        let dir = tempfile::tempdir().unwrap();
        let mut connection = Connection::open(dir.path().join("g.sqlite3")).unwrap();
        migrate(&mut connection).unwrap();
        let synchronous: i64 = connection
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        assert_eq!(synchronous, 2, "FULL");
        let mode: String = connection
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn a_new_database_has_small_pages_and_an_old_one_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let mut new = Connection::open(dir.path().join("new.sqlite3")).unwrap();
        migrate(&mut new).unwrap();
        assert_eq!(page_size(&new), PAGE_SIZE);
        // A database made with SQLite's default 4 KiB pages.
        let old_path = dir.path().join("old.sqlite3");
        let old = Connection::open(&old_path).unwrap();
        old.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE kept (x)")
            .unwrap();
        assert_eq!(page_size(&old), 4096);
        drop(old);
        let mut old = Connection::open(&old_path).unwrap();
        migrate(&mut old).unwrap();
        assert_eq!(page_size(&old), 4096);
        old.execute(
            "INSERT INTO games (id, created_ms, setup) VALUES ('g', 0, '{}')",
            [],
        )
        .unwrap();
    }

    #[test]
    fn a_newer_database_is_refused() {
        let mut connection = Connection::open_in_memory().unwrap();
        migrate(&mut connection).unwrap();
        connection
            .execute("UPDATE schema_version SET version = 99", [])
            .unwrap();
        let error = migrate(&mut connection).unwrap_err().to_string();
        assert!(error.contains("newer"), "{error}");
    }
}
