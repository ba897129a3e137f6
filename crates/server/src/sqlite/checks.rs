//! What opening a database checks first and reports after: that the path is a SQLite file
//! the server can write (each problem a one-line start error naming the cause), that its
//! write-ahead log has no torn tail (SQLite would drop it silently: it is kept beside the
//! database and the games it held are named), and SQLite's quick check of every page.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::wal::{self, TornLog};

/// The first 16 bytes of every SQLite database.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Damage lines SQLite's quick check may report before it stops.
const QUICK_CHECK_LINES: u32 = 10;

/// A torn write-ahead log found before SQLite opened the database, and where its copy is.
#[derive(Debug)]
pub struct TornTail {
    log: TornLog,
    /// The lost frames' bytes, searched for the games they held.
    lost: Vec<u8>,
    kept_at: PathBuf,
}

/// Checks `path` before SQLite opens it: a file (or a new path in an existing folder) that
/// can be written and, if it has content, a SQLite database. A torn log is copied to
/// `NAME-wal.torn-UNIXMS` before SQLite's recovery cuts it. Errors are one lowercase line.
pub fn check_before_open(path: &Path) -> Result<Option<TornTail>, String> {
    check_file(path)?;
    let wal_path = with_suffix(path, "-wal");
    let wal = match std::fs::read(&wal_path) {
        Ok(wal) => wal,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(format!(
                "cannot read its write-ahead log {}: {error}",
                wal_path.display()
            ))
        }
    };
    let Some(log) = wal::check(&wal) else {
        return Ok(None);
    };
    let kept_at = with_suffix(path, &format!("-wal.torn-{}", crate::live::unix_ms()));
    std::fs::write(&kept_at, &wal).map_err(|error| {
        format!(
            "its write-ahead log is torn and cannot be kept at {}: {error}: expected a writable folder",
            kept_at.display()
        )
    })?;
    let lost = wal[log.lost.clone()].to_vec();
    Ok(Some(TornTail { log, lost, kept_at }))
}

/// The file at `path`: not a folder, writable, and a SQLite database if it has content.
fn check_file(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err("is a directory: expected a database file".to_string());
    }
    // Created here when missing, as SQLite would: an empty file is a new database.
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|error| {
            format!("cannot be opened for writing ({error}): expected a writable file in an existing folder")
        })?;
    let mut start = Vec::with_capacity(SQLITE_MAGIC.len());
    file.by_ref()
        .take(SQLITE_MAGIC.len() as u64)
        .read_to_end(&mut start)
        .map_err(|error| format!("cannot be read ({error})"))?;
    if !start.is_empty() && start != SQLITE_MAGIC {
        return Err(
            "is not a database (it does not start with SQLite's header): expected a SQLite file a ludus server wrote, or a new path"
                .to_string(),
        );
    }
    Ok(())
}

/// The warnings to give once SQLite has opened (and recovered) the database: the torn
/// tail with the games it named, and what SQLite's quick check found.
pub fn warnings_after_open(connection: &Connection, torn: Option<&TornTail>) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(torn) = torn {
        warnings.push(torn_warning(connection, torn));
        // The recovered log into the database and the log emptied, so the torn frames
        // (kept in the copy) are not found and reported again at the next start.
        let _ = connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    }
    warnings.extend(quick_check(connection));
    warnings
}

fn torn_warning(connection: &Connection, torn: &TornTail) -> String {
    let TornLog {
        cause,
        lost_transactions,
        lost_frames,
        ..
    } = &torn.log;
    let games = games_named_in(connection, &torn.lost);
    let named = if games.is_empty() {
        "no stored game is named in the lost frames".to_string()
    } else {
        format!(
            "games that may have lost their last decisions: {}",
            games.join(", ")
        )
    };
    format!(
        "the write-ahead log was torn, {cause}: {lost_transactions} transaction(s) in {lost_frames} frame(s) after its last complete commit were lost; the log is kept at {}; {named}",
        torn.kept_at.display()
    )
}

/// The ids of the stored games whose id text occurs in `bytes`: a lost page carried the
/// rows it held, each with its game's id. In the order the games were created.
fn games_named_in(connection: &Connection, bytes: &[u8]) -> Vec<String> {
    let Ok(mut statement) = connection.prepare("SELECT id FROM games ORDER BY created_ms, id")
    else {
        return Vec::new();
    };
    let Ok(rows) = statement.query_map([], |row| row.get::<_, String>(0)) else {
        return Vec::new();
    };
    let ids: Vec<String> = rows.map_while(Result::ok).collect();
    // One pass over the bytes per id length, each window looked up: not one pass per id.
    let lengths: HashSet<usize> = ids.iter().map(String::len).filter(|&n| n > 0).collect();
    let mut present = HashSet::new();
    for length in lengths {
        let wanted: HashSet<&[u8]> = ids
            .iter()
            .filter(|id| id.len() == length)
            .map(String::as_bytes)
            .collect();
        present.extend(bytes.windows(length).filter(|w| wanted.contains(w)));
    }
    ids.into_iter()
        .filter(|id| present.contains(id.as_bytes()))
        .collect()
}

/// SQLite's quick check (every page and row readable, without comparing indexes to their
/// tables): a warning when it finds damage.
fn quick_check(connection: &Connection) -> Option<String> {
    let sql = format!("PRAGMA quick_check({QUICK_CHECK_LINES})");
    let found = connection.prepare(&sql).and_then(|mut statement| {
        statement
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()
    });
    match found {
        Ok(lines) if lines == ["ok"] => None,
        Ok(lines) => Some(format!(
            "sqlite's quick check found damage (the games it affects are reported one by one): {}",
            lines.join("; ")
        )),
        Err(error) => Some(format!("sqlite's quick check could not run: {error}")),
    }
}

/// `path` with `suffix` appended to its file name (`games.sqlite3` → `games.sqlite3-wal`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}
