//! Record files on disk: reading with a size cap, and saving atomically.
//!
//! A record file is untrusted input and a save must never destroy anything but the save it
//! replaces. So reading stops at [`MAX_RECORD_BYTES`] (`/dev/zero` is refused, not read until
//! memory runs out), and saving:
//!
//! * follows symlinks to the file they name and replaces that file, keeping the link;
//! * refuses a target that exists and is not a regular file (a device, FIFO, socket or
//!   directory), which a rename would otherwise replace;
//! * writes to a temporary file with an unpredictable name, created exclusively in the
//!   target's directory (`tempfile`), so a planted symlink cannot redirect the write, then
//!   syncs it and renames it over the target: a crash leaves the old save or the new one;
//! * keeps the permissions of the file it replaces (a new file gets the usual `0666` minus
//!   the umask);
//! * removes temporary files of earlier saves of the same file that a kill left behind, once
//!   they are older than [`STALE_AFTER`] (so a save running at the same time is not touched).

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::RecordError;

/// The largest record file read: far above any real game (a long Splut! game is a few
/// kilobytes), small enough to refuse endless input quickly.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Age after which a left-over temporary file of a save is removed.
#[allow(clippy::duration_suboptimal_units)] // `from_mins` needs Rust 1.91; the crate keeps 1.85
pub const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

/// How many symlinks a save follows before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Length of the random part of temporary names (`tempfile`'s default).
const RANDOM_LEN: usize = 6;

fn io_error(path: &Path) -> impl Fn(io::Error) -> RecordError + '_ {
    move |reason| RecordError::Io {
        path: path.to_path_buf(),
        reason: without_temporary_name(reason),
    }
}

/// The system's reason alone: tempfile appends `at path ".NAME.XXXXXX.tmp"`, a name that
/// means nothing to the person who asked to save to the record's own path.
fn without_temporary_name(reason: io::Error) -> io::Error {
    let text = reason.to_string();
    match text.split_once(" at path ") {
        Some((alone, _)) if reason.raw_os_error().is_none() => {
            io::Error::new(reason.kind(), alone.to_string())
        }
        _ => reason,
    }
}

/// Reads a record file as UTF-8 text, refusing files over [`MAX_RECORD_BYTES`].
pub fn read_record_text(path: &Path) -> Result<String, RecordError> {
    let io = io_error(path);
    let file = fs::File::open(path).map_err(&io)?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(&io)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(io(io::Error::other(format!(
            "larger than {} MiB: expected a game record",
            MAX_RECORD_BYTES >> 20
        ))));
    }
    String::from_utf8(bytes)
        .map_err(|_| io(io::Error::other("not UTF-8 text: expected a game record")))
}

/// Writes `bytes` to `path` atomically (see the module doc).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    let io = io_error(path);
    let target = follow_links(path).map_err(&io)?;
    let existing = match fs::metadata(&target) {
        Ok(meta) if meta.is_file() => Some(meta),
        Ok(_) => {
            return Err(io(io::Error::other(
                "not a regular file (a directory, device, FIFO or socket): expected a file \
                 name to save the game in",
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io(io::Error::other("expected a file name to save the game in")))?;
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    remove_stale_temporaries(dir, name);
    let prefix = temp_prefix(name);
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(".tmp")
        .rand_bytes(RANDOM_LEN);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The mode `File::create` uses (tempfile's own is 0600); the umask applies as usual.
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir).map_err(&io)?;
    temp.write_all(bytes).map_err(&io)?;
    if let Some(meta) = existing {
        temp.as_file()
            .set_permissions(meta.permissions())
            .map_err(&io)?;
    }
    temp.as_file().sync_all().map_err(&io)?;
    temp.persist(&target).map_err(|e| io(e.error))?;
    // Make the rename itself durable; a directory that cannot be synced still holds the save.
    if let Ok(dir) = fs::File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// The file `path` names once every symlink on the way is followed (relative links are
/// relative to the link's directory). The file itself need not exist.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symlinks: expected a link that ends at a file"
    )))
}

/// `.NAME.` — temporary files are hidden and start with the name they will replace.
fn temp_prefix(name: &OsStr) -> std::ffi::OsString {
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    prefix
}

/// Removes `.NAME.XXXXXX.tmp` regular files in `dir` older than [`STALE_AFTER`]. Best effort:
/// whatever cannot be read or removed is left.
fn remove_stale_temporaries(dir: &Path, name: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = temp_prefix(name);
    let now = SystemTime::now();
    for entry in entries.flatten() {
        if !is_temporary_name(&entry.file_name(), &prefix) {
            continue;
        }
        // symlink_metadata: a link with a matching name is looked at, never followed.
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|time| now.duration_since(time).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if meta.is_file() && old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether `file` is `PREFIX` + six letters or digits + `.tmp`.
fn is_temporary_name(file: &OsStr, prefix: &OsStr) -> bool {
    let (Some(file), Some(prefix)) = (file.to_str(), prefix.to_str()) else {
        return false;
    };
    file.strip_prefix(prefix)
        .and_then(|rest| rest.strip_suffix(".tmp"))
        .is_some_and(|random| {
            random.len() == RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}
