//! What the database files hold when the server stops, cleanly or not: every acknowledged
//! decision is in the files a power cut leaves (the log is synced at each commit), a clean
//! stop leaves everything in the `.sqlite3` file alone, a torn log is kept and reported with
//! the games it held, and a start on a bad file says what is wrong with it.

use std::path::{Path, PathBuf};

use ludus_server::{BindError, Config, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{Api, Created, Dice};

fn on(db: &Path) -> Config {
    Config {
        db: Some(db.to_path_buf()),
        ..Config::default()
    }
}

/// `path` with `suffix` after its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A game between two people with `decisions` random legal moves, each acknowledged (200);
/// the game and its last acknowledged snapshot.
async fn played(api: &Api, game: &str, decisions: usize, dice: &mut Dice) -> (Created, Value) {
    let created = api.create(&json!({"game": game})).await;
    let mut snapshot = api.snapshot(&created.id).await;
    for _ in 0..decisions {
        if !snapshot["outcome"].is_null() {
            break;
        }
        let notation = dice.legal(&snapshot);
        let (status, answer) = api.play(&created, &snapshot, &notation).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        snapshot = api.snapshot(&created.id).await;
    }
    (created, snapshot)
}

/// Each game's snapshot on a server started on `db` equals the one last acknowledged.
async fn assert_restored(db: &Path, games: &[(Created, Value)]) {
    let api = Api::with(on(db));
    for (game, told) in games {
        let back = api.snapshot(&game.id).await;
        assert_eq!(back["seq"], told["seq"], "game {}", game.id);
        assert_eq!(back["position"], told["position"], "game {}", game.id);
    }
}

#[tokio::test]
async fn acknowledged_decisions_are_in_the_files_a_power_cut_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let api = Api::with(on(&db));
    let mut dice = Dice(7);
    let mut games = Vec::new();
    for game in ["replica", "qawale", "yoxii"] {
        games.push(played(&api, game, 12, &mut dice).await);
    }
    // The files as they are while the server runs, as a disk holds them when the power
    // goes: the log without the server's memory, and no shared-memory index.
    let cut = tempfile::tempdir().unwrap();
    let copy = cut.path().join("games.sqlite3");
    std::fs::copy(&db, &copy).unwrap();
    std::fs::copy(beside(&db, "-wal"), beside(&copy, "-wal")).unwrap();
    drop(api);
    assert_restored(&copy, &games).await;
}

#[tokio::test]
async fn a_clean_stop_leaves_every_game_in_the_database_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let api = Api::with(on(&db));
    let mut dice = Dice(11);
    let mut games = Vec::new();
    for game in ["replica", "qawale"] {
        games.push(played(&api, game, 8, &mut dice).await);
    }
    drop(api);
    let log = std::fs::metadata(beside(&db, "-wal")).map_or(0, |m| m.len());
    assert_eq!(log, 0, "the log was checkpointed into the database file");
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("games.sqlite3");
    std::fs::copy(&db, &copy).unwrap();
    assert_restored(&copy, &games).await;
}

#[tokio::test]
async fn a_torn_log_is_kept_and_reported_with_the_games_it_held() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let api = Api::with(on(&db));
    let mut dice = Dice(3);
    let first = played(&api, "replica", 4, &mut dice).await;
    let (last, told) = played(&api, "replica", 4, &mut dice).await;
    let cut = tempfile::tempdir().unwrap();
    let copy = cut.path().join("games.sqlite3");
    std::fs::copy(&db, &copy).unwrap();
    let mut wal = std::fs::read(beside(&db, "-wal")).unwrap();
    drop(api);
    let whole = wal.len();
    wal.truncate(whole - 100);
    std::fs::write(beside(&copy, "-wal"), &wal).unwrap();

    let server = Server::bind("127.0.0.1:0", on(&copy)).await.unwrap();
    let warnings = server.warnings().to_vec();
    drop(server);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let warning = &warnings[0];
    assert!(warning.contains(&copy.display().to_string()), "{warning}");
    assert!(warning.contains("torn"), "{warning}");
    assert!(warning.contains("1 transaction(s)"), "{warning}");
    let named = warning
        .split("may have lost their last decisions: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no game named: {warning}"));
    assert!(named.contains(&last.id), "{warning}");
    let kept: Vec<_> = std::fs::read_dir(cut.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().contains("-wal.torn-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        wal,
        "kept as it was found"
    );
    assert!(
        warning.contains(&kept[0].display().to_string()),
        "{warning}"
    );

    let again = Server::bind("127.0.0.1:0", on(&copy)).await.unwrap();
    assert_eq!(again.warnings(), &[] as &[String], "reported once");
    drop(again);
    // The cut transaction was the last decision: the game is one decision short.
    let api = Api::with(on(&copy));
    let back = api.snapshot(&last.id).await;
    assert_eq!(back["seq"].as_u64(), told["seq"].as_u64().map(|s| s - 1));
    assert_eq!(api.snapshot(&first.0.id).await["seq"], first.1["seq"]);
}

#[tokio::test]
async fn a_start_on_a_bad_database_names_the_file_and_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("notes.sqlite3");
    std::fs::write(&garbage, "a shopping list, not a database\n").unwrap();
    let newer = dir.path().join("newer.sqlite3");
    Api::with(on(&newer));
    let connection = rusqlite::Connection::open(&newer).unwrap();
    connection
        .execute("UPDATE schema_version SET version = 999", [])
        .unwrap();
    drop(connection);
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let nowhere = dir.path().join("missing").join("games.sqlite3");
    let cases = [
        (&garbage, "is not a database"),
        (&newer, "newer than this build"),
        (&folder, "is a directory"),
        (&nowhere, "cannot be opened for writing"),
    ];
    for (path, cause) in cases {
        let error = match Server::bind("127.0.0.1:0", on(path)).await {
            Err(BindError::Database(error)) => error,
            other => panic!("{}: {other:?}", path.display()),
        };
        assert!(!error.contains('\n'), "one line: {error}");
        assert!(error.contains(&path.display().to_string()), "{error}");
        assert!(error.contains(cause), "{error}");
    }
    assert_eq!(
        std::fs::read_to_string(&garbage).unwrap(),
        "a shopping list, not a database\n",
        "left as it was"
    );
    let taken = Server::bind("127.0.0.1:0", Config::default())
        .await
        .unwrap();
    let addr = taken.local_addr().unwrap();
    assert!(matches!(
        Server::bind(addr, Config::default()).await,
        Err(BindError::Listen(_))
    ));
}
