//! What `ludus admin` does to a database, also while a server runs on it: an online backup
//! (SQLite's backup API: a consistent copy of the database as of one moment, taken while
//! writes go on), the list of stored games, and deleting one game.

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

/// Copies the database at `db` into a new file `out`, consistent as of the end of the copy
/// (SQLite restarts a step that a write overlapped), while a server may go on writing.
pub fn backup(db: &Path, out: &Path) -> Result<(), StoreError> {
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
