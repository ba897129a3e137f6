//! What `ludus admin` does to a database, also while a server runs on it: an online backup
//! (SQLite's backup API: a consistent copy of the database as of one moment, taken while
//! writes go on), a compacted copy with the page size of new databases, the list of stored
//! games, and deleting one game.

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::schema;
use crate::store::StoreError;

/// Pages copied per step of a backup: small steps let the server's writer in between.
const PAGES_PER_STEP: i32 = 256;

fn error(path: &Path) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |e| StoreError(format!("database {}: {e}", path.display()))
}

/// The database at `db`, opened read-only to be copied into `out`, which must not exist yet;
/// it waits a few seconds for a running server's writes.
fn open_to_copy(db: &Path, out: &Path) -> Result<Connection, StoreError> {
    if out.exists() {
        return Err(StoreError(format!(
            "{} exists: expected the path of a new file",
            out.display()
        )));
    }
    let source =
        Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(error(db))?;
    source
        .busy_timeout(Duration::from_secs(5))
        .map_err(error(db))?;
    Ok(source)
}

/// Copies the database at `db` into a new file `out`, consistent as of the end of the copy
/// (SQLite restarts a step that a write overlapped), while a server may go on writing.
pub fn backup(db: &Path, out: &Path) -> Result<(), StoreError> {
    let source = open_to_copy(db, out)?;
    let mut copy = Connection::open(out).map_err(error(out))?;
    let backup = Backup::new(&source, &mut copy).map_err(error(out))?;
    backup
        .run_to_completion(PAGES_PER_STEP, Duration::from_millis(5), None)
        .map_err(error(out))?;
    drop(backup);
    // The copy is a database of its own: its log folded in, one file to keep or move.
    copy.pragma_update(None, "journal_mode", "DELETE")
        .map_err(error(out))
}

/// Writes a compacted copy of the database at `db` into a new file `out` (SQLite's `VACUUM
/// INTO`: consistent as of one moment, while a server may go on writing), with the pages of a
/// new database ([`schema::PAGE_SIZE`]). A database made with 4 KiB pages keeps them (WAL
/// mode cannot change them in place); a server started on its copy writes under half the
/// bytes a move. Answers the copy's size in bytes.
pub fn compact(db: &Path, out: &Path) -> Result<u64, StoreError> {
    let source = open_to_copy(db, out)?;
    // The page size asked for before `VACUUM INTO` is the copy's.
    source
        .pragma_update(None, "page_size", schema::PAGE_SIZE)
        .map_err(error(db))?;
    let target = out.to_str().ok_or_else(|| {
        StoreError(format!(
            "{}: expected a path that is valid UTF-8",
            out.display()
        ))
    })?;
    source
        .execute("VACUUM INTO ?1", [target])
        .map_err(error(out))?;
    std::fs::metadata(out)
        .map(|m| m.len())
        .map_err(|e| StoreError(format!("{}: {e}", out.display())))
}

/// A stored game as `ludus admin games` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct GameLine {
    /// Its id.
    pub id: String,
    /// The game's id in the registry (`qawale`), from its setup.
    pub game: String,
    /// The players' names, from its setup.
    pub names: Vec<String>,
    /// When it was created, Unix milliseconds.
    pub created_ms: i64,
    /// When it ended, if it has.
    pub finished_ms: Option<i64>,
    /// Decisions and other changes logged since.
    pub changes: i64,
}

/// Every game stored at `db`, oldest first.
pub fn games(db: &Path) -> Result<Vec<GameLine>, StoreError> {
    let connection =
        Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(error(db))?;
    let mut query = connection
        .prepare(
            "SELECT g.id, g.setup, g.created_ms, g.finished_ms,
                    (SELECT count(*) FROM changes c WHERE c.game_id = g.id)
             FROM games g ORDER BY g.created_ms, g.id",
        )
        .map_err(error(db))?;
    let rows = query
        .query_map([], |r| {
            let setup: String = r.get(1)?;
            let setup: serde_json::Value = serde_json::from_str(&setup).unwrap_or_default();
            let record = &setup["record"];
            Ok(GameLine {
                id: r.get(0)?,
                game: record["game"].as_str().unwrap_or("?").to_string(),
                names: record["players"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| p["name"].as_str().unwrap_or("").to_string())
                    .collect(),
                created_ms: r.get(2)?,
                finished_ms: r.get(3)?,
                changes: r.get(4)?,
            })
        })
        .map_err(error(db))?;
    rows.collect::<Result<_, _>>().map_err(error(db))
}

/// Deletes game `id`, its changes and its chat from the database at `db`; answers whether it was
/// there. A server running on the database forgets it at its next start.
pub fn delete_game(db: &Path, id: &str) -> Result<bool, StoreError> {
    let mut connection = Connection::open(db).map_err(error(db))?;
    schema::migrate(&mut connection)
        .map_err(|e| StoreError(format!("database {}: {e}", db.display())))?;
    let transaction = connection.transaction().map_err(error(db))?;
    transaction
        .execute("DELETE FROM changes WHERE game_id = ?1", [id])
        .map_err(error(db))?;
    transaction
        .execute("DELETE FROM chat WHERE game_id = ?1", [id])
        .map_err(error(db))?;
    let deleted = transaction
        .execute("DELETE FROM games WHERE id = ?1", [id])
        .map_err(error(db))?;
    transaction.commit().map_err(error(db))?;
    Ok(deleted == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_size(path: &Path) -> i64 {
        schema::page_size(&Connection::open(path).unwrap())
    }

    #[test]
    fn a_compacted_copy_has_small_pages_and_every_row() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("old.sqlite3");
        // A database with SQLite's 4 KiB pages, as older builds made, in WAL mode.
        let mut connection = Connection::open(&db).unwrap();
        connection
            .execute_batch("PRAGMA page_size = 4096; CREATE TABLE kept (x)")
            .unwrap();
        schema::migrate(&mut connection).unwrap();
        connection
            .execute(
                "INSERT INTO games (id, created_ms, setup) VALUES ('g', 0, '{}')",
                [],
            )
            .unwrap();
        for i in 0..300 {
            connection
                .execute(
                    "INSERT INTO changes (game_id, kind, arg) VALUES ('g', 'move', ?1)",
                    [format!("a{i}")],
                )
                .unwrap();
        }
        assert_eq!(page_size(&db), 4096);
        let out = dir.path().join("compact.sqlite3");
        // The source still open in WAL mode, as a running server holds it.
        let bytes = compact(&db, &out).unwrap();
        assert_eq!(bytes, std::fs::metadata(&out).unwrap().len());
        assert_eq!(page_size(&out), schema::PAGE_SIZE);
        let copy = Connection::open(&out).unwrap();
        let changes: i64 = copy
            .query_row(
                "SELECT count(*) FROM changes WHERE game_id = 'g'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(changes, 300);
        let mode: String = copy
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "delete", "one file, no log beside it");
        drop(connection);
        let refused = compact(&db, &out).unwrap_err();
        assert!(refused.0.contains("exists"), "{}", refused.0);
    }
}
