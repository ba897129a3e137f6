//! Reading stored games back: the games table row by row, so a damaged page costs only the
//! games it holds; only the games in progress at a start, every game for an export; one
//! finished game on demand.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension};
use thiserror::Error;

use super::rows::{from_row, BadRow};
use crate::live::{Channel, ChatLine, Setup, CHAT_KEPT};
use crate::store::Change;

/// Why a stored game cannot be read back (before the rules see it).
#[derive(Debug, Error)]
pub enum Unreadable {
    /// Its row in the games table.
    #[error("its setup cannot be read: {0}")]
    SetupRow(rusqlite::Error),
    /// Its setup is not the JSON a setup is written as.
    #[error("bad setup: {0}")]
    Setup(serde_json::Error),
    /// Its rows in the changes table.
    #[error("its changes cannot be read: {0}")]
    Changes(rusqlite::Error),
    /// One of its changes does not read as a change.
    #[error(transparent)]
    Change(#[from] BadRow),
}

/// A stored game as read back: its setup and its changes.
#[derive(Debug)]
pub struct Row {
    pub id: String,
    pub setup: Result<Setup, Unreadable>,
    pub changes: Vec<Change>,
    /// When it last changed, Unix milliseconds, if known.
    pub changed_ms: Option<i64>,
}

/// Which stored games to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Every one (an export).
    All,
    /// Only those not known to be finished (a start).
    InProgress,
}

/// The stored games' rows, read game by game: a game whose row or changes cannot be read
/// (a damaged page) comes back with the reason as its setup's error, and the others load.
/// With it, why some games may be missing, when the games table could be read only in part.
pub fn read_rows(
    connection: &Connection,
    which: Which,
) -> rusqlite::Result<(Vec<Row>, Option<String>)> {
    let (heads, unreadable) = read_heads(connection, which)?;
    let rows = heads
        .into_iter()
        .map(|head| match read_changes(connection, &head.id) {
            Ok(changes) => Row {
                setup: head.setup.and_then(|setup| parse_setup(&setup)),
                id: head.id,
                changes,
                changed_ms: head.changed_ms,
            },
            Err(error) => Row {
                id: head.id,
                setup: Err(error),
                changes: Vec::new(),
                changed_ms: head.changed_ms,
            },
        })
        .collect();
    Ok((rows, unreadable))
}

fn parse_setup(setup: &str) -> Result<Setup, Unreadable> {
    serde_json::from_str(setup).map_err(Unreadable::Setup)
}

/// The changes of game `id` in the order they were logged.
fn read_changes(connection: &Connection, id: &str) -> Result<Vec<Change>, Unreadable> {
    let rows: Vec<(String, String)> = connection
        .prepare_cached("SELECT kind, arg FROM changes WHERE game_id = ?1 ORDER BY id")
        .and_then(|mut statement| {
            statement
                .query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect()
        })
        .map_err(Unreadable::Changes)?;
    let changes = rows.iter().map(|(kind, arg)| from_row(kind, arg));
    Ok(changes.collect::<Result<_, _>>()?)
}

/// A game's row in the games table.
struct Head {
    id: String,
    created_ms: i64,
    /// Its setup, or why it cannot be read.
    setup: Result<String, Unreadable>,
    changed_ms: Option<i64>,
}

/// The games table's rows in creation order. A damaged page stops a scan where it lies: the
/// rows before it are read forwards and those after it backwards, and the games on it are
/// named by SQLite's quick check.
fn read_heads(
    connection: &Connection,
    which: Which,
) -> rusqlite::Result<(Vec<Head>, Option<String>)> {
    let (mut heads, failed) = scan_heads(connection, which, "ORDER BY rowid")?;
    let unreadable = match failed {
        None => None,
        Some(error) => {
            let seen: HashSet<String> = heads.iter().map(|h| h.id.clone()).collect();
            let (after, _) = scan_heads(connection, which, "ORDER BY rowid DESC")?;
            heads.extend(after.into_iter().filter(|h| !seen.contains(&h.id)));
            Some(format!(
                "the games table could be read only in part ({error}): {} games read, the others skipped",
                heads.len()
            ))
        }
    };
    heads.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
    Ok((heads, unreadable))
}

/// The games table's rows (those `which` names) in `order` until the end or the first error
/// reading it.
fn scan_heads(
    connection: &Connection,
    which: Which,
    order: &str,
) -> rusqlite::Result<(Vec<Head>, Option<rusqlite::Error>)> {
    let filter = match which {
        Which::All => "",
        // A game changed after it was marked finished was taken back into play (the mark is
        // cleared by a write of its own, which a crash may lose): it is read too, and marked
        // again if it is still over.
        Which::InProgress => "WHERE finished_ms IS NULL OR changed_ms > finished_ms",
    };
    let mut statement = connection.prepare(&format!(
        "SELECT id, created_ms, setup, changed_ms FROM games {filter} {order}"
    ))?;
    let mut rows = statement.query([])?;
    let mut heads = Vec::new();
    loop {
        match rows.next() {
            Ok(Some(row)) => {
                // A row whose id cannot be read names no game: the quick check reports it.
                let Ok(id) = row.get::<_, String>(0) else {
                    continue;
                };
                heads.push(Head {
                    id,
                    created_ms: row.get(1).unwrap_or(0),
                    setup: row.get::<_, String>(2).map_err(Unreadable::SetupRow),
                    changed_ms: row.get(3).unwrap_or(None),
                });
            }
            Ok(None) => return Ok((heads, None)),
            Err(error) => return Ok((heads, Some(error))),
        }
    }
}

/// The finished game `id`, if the database holds it.
pub fn read_finished(connection: &Connection, id: &str) -> rusqlite::Result<Option<Row>> {
    let setup: Option<String> = connection
        .prepare_cached("SELECT setup FROM games WHERE id = ?1 AND finished_ms IS NOT NULL")?
        .query_row([id], |row| row.get(0))
        .optional()?;
    let Some(setup) = setup else {
        return Ok(None);
    };
    let (setup, changes) = match read_changes(connection, id) {
        Ok(changes) => (parse_setup(&setup), changes),
        Err(error) => (Err(error), Vec::new()),
    };
    Ok(Some(Row {
        id: id.to_string(),
        setup,
        changes,
        changed_ms: None,
    }))
}

/// The chat lines of game `id`, oldest first (at most the last [`CHAT_KEPT`]); a line whose
/// channel is not known is left out.
pub fn read_chat(connection: &Connection, id: &str) -> rusqlite::Result<Vec<ChatLine>> {
    let mut lines = connection
        .prepare_cached(
            "SELECT channel, sender, seat, text, at_ms FROM chat WHERE game_id = ?1 ORDER BY id DESC LIMIT ?2",
        )?
        .query_map(rusqlite::params![id, CHAT_KEPT as i64], |row| {
            let channel: String = row.get(0)?;
            let seat: Option<i64> = row.get(2)?;
            let at_ms: i64 = row.get(4)?;
            Ok(Channel::parse(&channel).map(|channel| ChatLine {
                channel,
                from: row.get(1).unwrap_or_default(),
                seat: seat.and_then(|seat| usize::try_from(seat).ok()),
                text: row.get(3).unwrap_or_default(),
                at_ms: u64::try_from(at_ms).unwrap_or(0),
            }))
        })?
        .filter_map(Result::transpose)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    lines.reverse();
    Ok(lines)
}

/// Marks the game `id` finished, so the next start does not load it.
pub fn mark_finished(connection: &Connection, id: &str) -> rusqlite::Result<()> {
    connection
        .prepare_cached("UPDATE games SET finished_ms = ?2 WHERE id = ?1")?
        .execute(rusqlite::params![id, crate::live::unix_ms() as i64])
        .map(drop)
}

/// The instant `unix_ms` stands for, if it is not in the future (a clock set back).
pub fn instant_of(unix_ms: i64) -> Option<Instant> {
    let ago = crate::live::unix_ms().checked_sub(u64::try_from(unix_ms).ok()?)?;
    Instant::now().checked_sub(Duration::from_millis(ago))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{checks, schema};
    use super::*;

    const PAGE: usize = schema::PAGE_SIZE as usize;

    /// A database with games a, b, c, whose changes were written in that order: b's many
    /// enough to fill pages of their own.
    fn three_games(path: &Path) {
        let mut connection = Connection::open(path).unwrap();
        schema::migrate(&mut connection).unwrap();
        for (id, changes) in [
            ("aaaa0000aaaa", 20),
            ("bbbb1111bbbb", 600),
            ("cccc2222cccc", 20),
        ] {
            connection
                .execute(
                    "INSERT INTO games (id, created_ms, setup) VALUES (?1, 0, '{}')",
                    [id],
                )
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
    fn a_change_that_does_not_read_makes_its_game_unreadable_with_the_row_named() {
        let mut connection = Connection::open_in_memory().unwrap();
        schema::migrate(&mut connection).unwrap();
        for (id, kind, arg) in [
            ("good", "clock", "59000,60000"),
            ("bad", "clock", "59000,x"),
        ] {
            connection
                .execute(
                    "INSERT INTO games (id, created_ms, setup) VALUES (?1, 0, '{}')",
                    [id],
                )
                .unwrap();
            connection
                .execute(
                    "INSERT INTO changes (game_id, kind, arg) VALUES (?1, ?2, ?3)",
                    [id, kind, arg],
                )
                .unwrap();
        }
        let (rows, _) = read_rows(&connection, Which::All).unwrap();
        let good = rows.iter().find(|row| row.id == "good").unwrap();
        assert_eq!(
            good.changes,
            [Change::Clock(crate::live::ClockRow::Remaining(vec![
                59_000, 60_000
            ]))]
        );
        let bad = rows.iter().find(|row| row.id == "bad").unwrap();
        let reason = bad.setup.as_ref().unwrap_err().to_string();
        assert!(
            reason.starts_with("bad clock row '59000,x': expected remaining milliseconds"),
            "{reason}"
        );
    }

    #[test]
    fn a_game_changed_after_its_finished_mark_is_read_at_start() {
        let mut connection = Connection::open_in_memory().unwrap();
        schema::migrate(&mut connection).unwrap();
        for (id, finished, changed) in [("over", 5, 5), ("back", 5, 6), ("on", -1, 6)] {
            connection
                .execute(
                    "INSERT INTO games (id, created_ms, setup, changed_ms, finished_ms) VALUES (?1, 0, '{}', ?2, NULLIF(?3, -1))",
                    rusqlite::params![id, changed, finished],
                )
                .unwrap();
        }
        let (rows, _) = read_rows(&connection, Which::InProgress).unwrap();
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["back", "on"]);
    }

    #[test]
    fn a_damaged_page_costs_only_the_games_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite3");
        three_games(&path);
        damage_a_page_of_b(&path);
        let connection = Connection::open(&path).unwrap();
        let (rows, unreadable) = read_rows(&connection, Which::All).unwrap();
        assert_eq!(unreadable, None);
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["aaaa0000aaaa", "bbbb1111bbbb", "cccc2222cccc"]);
        let reason = rows[1].setup.as_ref().unwrap_err().to_string();
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
}
