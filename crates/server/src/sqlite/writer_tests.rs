//! The writer thread's tests: group commits, jobs, checkpoints, the log's length, chat, and
//! what a change writes.

use std::time::{Duration, Instant};

use super::*;

/// A writer on a fresh database: its folder (kept while the test runs), its path.
fn fresh() -> (tempfile::TempDir, std::path::PathBuf, Writer) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let mut connection = Connection::open(&path).unwrap();
    super::super::schema::migrate(&mut connection).unwrap();
    let writer = Writer::start(connection, &path).unwrap();
    (dir, path, writer)
}

#[test]
fn a_failing_job_undoes_its_own_statements_and_the_writer_goes_on() {
    let (_dir, path, writer) = fresh();
    let insert = |name: &'static str, fail: bool| -> Job {
        Box::new(move |db| {
            db.execute(
                "INSERT INTO users (name, password, created_ms) VALUES (?1, 'x', 0)",
                [name],
            )?;
            if fail {
                db.execute("INSERT INTO no_such_table VALUES (1)", [])?;
            }
            Ok(())
        })
    };
    assert!(writer
        .write(Write::Job(JobCell::new(insert("kept", false))))
        .is_ok());
    assert!(writer
        .write(Write::Job(JobCell::new(insert("undone", true))))
        .is_err());
    assert!(writer
        .write(Write::Job(JobCell::new(insert("after", false))))
        .is_ok());
    drop(writer);
    let reader = Connection::open(&path).unwrap();
    let names: Vec<String> = reader
        .prepare("SELECT name FROM users ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(names, ["kept", "after"]);
}

#[test]
fn the_checkpoint_thread_copies_the_log_into_the_database_file() {
    let (_dir, path, writer) = fresh();
    let size = || std::fs::metadata(&path).map_or(0, |m| m.len());
    let before = size();
    let game = Write::Game {
        id: "g".into(),
        created_ms: 0,
        setup: "{}".into(),
    };
    writer.write(game).unwrap();
    for i in 0..CHECKPOINT_EVERY * 2 {
        let change = Write::Change {
            id: "g".into(),
            kind: "move".into(),
            arg: format!("a{i}"),
        };
        writer.write(change).unwrap();
    }
    // Commits only append to the log; the database file grows when a checkpoint ran.
    let deadline = Instant::now() + Duration::from_secs(10);
    while size() <= before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(size() > before, "no checkpoint: {} bytes", size());
}

#[test]
fn the_log_is_started_again_under_steady_writes_instead_of_growing() {
    let (_dir, path, writer) = fresh();
    let log = path.with_extension("sqlite3-wal");
    let log_size = || std::fs::metadata(&log).map_or(0, |m| m.len());
    // Each write fills 64 KiB of pages and a page or two of the games table and its index,
    // so the writes together fill the log's restart length five times over. The restart
    // waits for the checkpoint thread's next look at the log, which a busy machine may delay
    // by a second or so: the log may pass the restart length by two lengths, not by the three
    // more it would without restarts.
    let page = usize::try_from(super::super::schema::PAGE_SIZE).unwrap();
    let pages_a_write = 64 * 1024 / page + 2;
    let writes = usize::try_from(RESTART_FROM_FRAMES).unwrap() * 5 / pages_a_write;
    let mut largest = 0;
    for i in 0..writes {
        let game = Write::Game {
            id: format!("g{i}"),
            created_ms: 0,
            setup: "x".repeat(64 * 1024),
        };
        writer.write(game).unwrap();
        largest = largest.max(log_size());
    }
    // A frame of the log is a page and its 24-byte header.
    let restart_length = u64::try_from(RESTART_FROM_FRAMES).unwrap() * (page as u64 + 24);
    assert!(
        largest < 3 * restart_length,
        "the log reached {largest} bytes for {writes} writes of 64 KiB"
    );
}

#[test]
fn a_game_keeps_its_last_chat_lines() {
    let (_dir, path, writer) = fresh();
    for (game, lines) in [("g", CHAT_KEPT + 5), ("h", 2)] {
        for i in 0..lines {
            let line = ChatLine {
                channel: crate::live::Channel::Players,
                from: "Ana".into(),
                seat: Some(1),
                text: format!("line {i}"),
                at_ms: i as u64,
            };
            let id = game.to_string();
            writer.write(Write::Chat { id, line }).unwrap();
        }
    }
    let reader = Connection::open(&path).unwrap();
    let lines = super::super::read::read_chat(&reader, "g").unwrap();
    assert_eq!(lines.len(), CHAT_KEPT);
    assert_eq!(lines[0].text, "line 5", "the oldest went");
    assert_eq!(
        lines.last().unwrap().text,
        format!("line {}", CHAT_KEPT + 4)
    );
    let rows: i64 = reader
        .query_row("SELECT count(*) FROM chat", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, CHAT_KEPT as i64 + 2, "another game's lines stay");
    writer.write(Write::Remove { id: "h".into() }).unwrap();
    assert!(super::super::read::read_chat(&reader, "h")
        .unwrap()
        .is_empty());
}

#[test]
fn a_checkpoint_after_the_last_write_leaves_every_row_in_the_database_file() {
    let (dir, path, writer) = fresh();
    let game = Write::Game {
        id: "g".into(),
        created_ms: 0,
        setup: "{}".into(),
    };
    writer.write(game).unwrap();
    let change = Write::Change {
        id: "g".into(),
        kind: "move".into(),
        arg: "a1".into(),
    };
    writer.write(change).unwrap();
    writer.checkpoint().unwrap();
    let wal = std::fs::metadata(dir.path().join("games.sqlite3-wal")).unwrap();
    assert_eq!(wal.len(), 0, "the log is emptied");
    // The database file alone, without its log, as a copy of it would be.
    let copy = dir.path().join("copy.sqlite3");
    std::fs::copy(&path, &copy).unwrap();
    let alone = Connection::open(&copy).unwrap();
    let changes: i64 = alone
        .query_row("SELECT count(*) FROM changes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(changes, 1);
}

#[test]
fn a_change_writes_when_its_game_changed_only_once_that_is_a_step_old() {
    let (_dir, path, writer) = fresh();
    let game = |id: &str| Write::Game {
        id: id.into(),
        created_ms: 1_000,
        setup: "{}".into(),
    };
    let change = |id: &str| Write::Change {
        id: id.into(),
        kind: "move".into(),
        arg: "a1".into(),
    };
    let reader = Connection::open(&path).unwrap();
    let changed_ms = |id: &str| -> Option<i64> {
        reader
            .query_row("SELECT changed_ms FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .unwrap()
    };
    let set = |id: &str, column: &str, ms: Option<i64>| {
        reader
            .execute(
                &format!("UPDATE games SET {column} = ?2 WHERE id = ?1"),
                params![id, ms],
            )
            .unwrap();
    };
    let now = crate::live::unix_ms() as i64;
    for id in ["fresh", "stale", "unknown", "ended"] {
        writer.write(game(id)).unwrap();
    }
    // Stored less than a step ago: left as it is, no page of the games table written.
    let recent = now - CHANGED_MS_STEP / 2;
    set("fresh", "changed_ms", Some(recent));
    // A step old, or never stored (a build before the column): written.
    set("stale", "changed_ms", Some(now - CHANGED_MS_STEP));
    set("unknown", "changed_ms", None);
    // Marked ended: always written, so that a start sees the change came after the mark.
    set("ended", "changed_ms", Some(recent));
    set("ended", "finished_ms", Some(recent));
    for id in ["fresh", "stale", "unknown", "ended"] {
        writer.write(change(id)).unwrap();
    }
    assert_eq!(changed_ms("fresh"), Some(recent));
    for id in ["stale", "unknown", "ended"] {
        let written = changed_ms(id).unwrap();
        assert!(written >= now, "{id}: {written} < {now}");
    }
}
