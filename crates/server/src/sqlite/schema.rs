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
];

/// The schema version this build writes.
pub const VERSION: usize = MIGRATIONS.len();

/// Sets the connection up (WAL, a busy timeout) and brings the tables to [`VERSION`].
pub fn migrate(connection: &mut Connection) -> Result<(), String> {
    let sql = |e: rusqlite::Error| e.to_string();
    connection
        .pragma_update(None, "journal_mode", "WAL")
        .map_err(sql)?;
    // FULL syncs the log at every commit, so an acknowledged decision survives a power cut
    // or an OS crash too (NORMAL in WAL mode may lose the last commits there). The writer's
    // group commit makes that one sync per batch of writes, not one per decision.
    connection
        .pragma_update(None, "synchronous", "FULL")
        .map_err(sql)?;
    connection
        .busy_timeout(std::time::Duration::from_secs(5))
        .map_err(sql)?;
    let transaction = connection.transaction().map_err(sql)?;
    transaction
        .execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .map_err(sql)?;
    let stored: Option<i64> = transaction
        .query_row("SELECT version FROM schema_version", [], |row| row.get(0))
        .optional()
        .map_err(sql)?;
    let current = usize::try_from(stored.unwrap_or(0)).unwrap_or(usize::MAX);
    if current > VERSION {
        return Err(format!(
            "the database has schema version {current}, newer than this build's {VERSION}: expected a database of this or an older Ludus"
        ));
    }
    for migration in &MIGRATIONS[current..] {
        transaction.execute_batch(migration).map_err(sql)?;
    }
    transaction
        .execute("DELETE FROM schema_version", [])
        .map_err(sql)?;
    transaction
        .execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            [VERSION as i64],
        )
        .map_err(sql)?;
    transaction.commit().map_err(sql)
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
    fn a_newer_database_is_refused() {
        let mut connection = Connection::open_in_memory().unwrap();
        migrate(&mut connection).unwrap();
        connection
            .execute("UPDATE schema_version SET version = 99", [])
            .unwrap();
        let error = migrate(&mut connection).unwrap_err();
        assert!(error.contains("newer"), "{error}");
    }
}
