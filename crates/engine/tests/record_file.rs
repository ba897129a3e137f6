//! Saving and reading record files as a user meets them: symlinks, devices, FIFOs, modes,
//! planted links at temporary names, saves killed half-way, endless input.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::Path;
use std::time::SystemTime;

use ludus_engine::record::STALE_AFTER;
use ludus_engine::{read_record_text, write_atomically};

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_save_through_a_symlink_replaces_the_file_it_names_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("saves")).unwrap();
    let real = dir.path().join("saves/real.json");
    fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.json");
    symlink("saves/real.json", &link).unwrap();
    write_atomically(&link, b"new").unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(names_in(&dir.path().join("saves")), ["real.json"]);
}

#[test]
fn a_device_a_fifo_and_a_directory_are_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let error = write_atomically(&fifo, b"x").unwrap_err().to_string();
        assert!(error.contains("not a regular file"), "{error}");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
    let error = write_atomically(Path::new("/dev/null"), b"x")
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "cannot access '/dev/null': not a regular file (a directory, device, FIFO or socket): \
         expected a file name to save the game in"
    );
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    assert!(write_atomically(dir.path(), b"x").is_err());
    let link = dir.path().join("null-link");
    symlink("/dev/null", &link).unwrap();
    assert!(write_atomically(&link, b"x").is_err());
}

#[test]
fn the_mode_of_the_file_saved_over_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private.json");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    write_atomically(&path, b"new").unwrap();
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
}

#[test]
fn a_symlink_planted_at_a_guessable_temporary_name_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    fs::write(&victim, "precious").unwrap();
    let path = dir.path().join("game.json");
    // The names earlier versions used, and the obvious guesses.
    for guess in [
        format!("game.json.{}.tmp", std::process::id()),
        "game.json.tmp".to_string(),
        ".game.json.tmp".to_string(),
    ] {
        symlink(&victim, dir.path().join(guess)).unwrap();
    }
    write_atomically(&path, b"saved").unwrap();
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(fs::read_to_string(&path).unwrap(), "saved");
}

#[test]
fn temporaries_left_by_a_killed_save_are_removed_once_stale() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let stale = dir.path().join(".game.json.a1B2c3.tmp");
    let fresh = dir.path().join(".game.json.z9Y8x7.tmp");
    let other = dir.path().join(".other.json.a1B2c3.tmp");
    for file in [&stale, &fresh, &other] {
        fs::write(file, "half a save").unwrap();
    }
    let hour_ago = SystemTime::now() - STALE_AFTER * 6;
    for file in [&stale, &other] {
        fs::File::options()
            .write(true)
            .open(file)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    write_atomically(&path, b"saved").unwrap();
    // The stale one goes; a save in progress elsewhere and other files' temporaries stay.
    assert_eq!(
        names_in(dir.path()),
        [
            ".game.json.z9Y8x7.tmp",
            ".other.json.a1B2c3.tmp",
            "game.json"
        ]
    );
}

#[test]
fn endless_input_is_refused_at_the_cap() {
    let error = read_record_text(Path::new("/dev/zero"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "cannot access '/dev/zero': larger than 16 MiB: expected a game record"
    );
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("binary");
    fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let error = read_record_text(&binary).unwrap_err().to_string();
    assert!(
        error.ends_with("not UTF-8 text: expected a game record"),
        "{error}"
    );
}

#[test]
fn a_save_into_a_missing_directory_names_the_file_asked_for() {
    let error = write_atomically(Path::new("/nonexistent-ludus/game.json"), b"x")
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "cannot access '/nonexistent-ludus/game.json': No such file or directory (os error 2)"
    );
}
