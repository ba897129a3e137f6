//! SQLite's write-ahead log read by hand, before SQLite opens the database: SQLite's own
//! recovery keeps the frames up to the last valid commit and drops a torn or damaged tail
//! without a word, so the tail is found here first, to be kept and reported.
//!
//! The format (sqlite.org/fileformat2.html, "The Write-Ahead Log"): a 32-byte header (magic,
//! version, page size, checkpoint sequence, two salts, a checksum of its first 24 bytes),
//! then frames of a 24-byte header (page number, the database size in pages for a commit
//! frame or 0, the header's salts, a checksum) and one page. Each frame's checksum runs on
//! from the one before (the header's for the first), over the frame header's first 8 bytes
//! and the page. A log reused after a checkpoint starts again at the beginning with new
//! salts, so frames of an older use may follow the current ones: those are not torn.

use std::ops::Range;

/// The magic number of a log whose checksums read the data as little-endian words.
const MAGIC_LITTLE_ENDIAN: u32 = 0x377f_0682;
/// The magic number of a log whose checksums read the data as big-endian words.
const MAGIC_BIG_ENDIAN: u32 = 0x377f_0683;
/// The only log format version.
const VERSION: u32 = 3_007_000;
const HEADER: usize = 32;
const FRAME_HEADER: usize = 24;

/// A log whose tail SQLite would drop: what was lost, and where it lies in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornLog {
    /// Why the tail is not valid, one lowercase phrase.
    pub cause: String,
    /// Transactions in the lost tail (commit frames in it, plus one it was cut in).
    pub lost_transactions: usize,
    /// Frames in the lost tail, a partial one included.
    pub lost_frames: usize,
    /// The bytes of the lost frames in the log.
    pub lost: Range<usize>,
}

/// The valid header's fields the frames are checked against.
struct Header {
    big_endian: bool,
    page_size: usize,
    salts: [u8; 8],
    checksum: (u32, u32),
}

/// Reads the log `wal` as SQLite's recovery would; `Some` when it would drop frames that
/// belong to the log's current use (a torn or damaged tail), `None` for a sound log.
pub fn check(wal: &[u8]) -> Option<TornLog> {
    if wal.is_empty() {
        return None;
    }
    let header = match parse_header(wal) {
        Ok(header) => header,
        Err(cause) => return Some(damaged_header(wal, cause)),
    };
    let frame_size = FRAME_HEADER + header.page_size;
    let mut checksum = header.checksum;
    let mut kept_end = HEADER;
    let mut offset = HEADER;
    // The first frame SQLite refuses (bad checksum, cut short), if any.
    let mut refused = None;
    while offset < wal.len() {
        let frame = &wal[offset..wal.len().min(offset + frame_size)];
        if frame.len() >= 16 && frame[8..16] != header.salts {
            // An older use of the log: SQLite stops here and so nothing is lost.
            break;
        }
        if frame.len() < frame_size {
            refused = Some(format!(
                "its last frame is cut short at {} of {frame_size} bytes",
                frame.len()
            ));
            break;
        }
        checksum = frame_checksum(checksum, frame, header.big_endian);
        if word(frame, 0) == 0 || (word(frame, 16), word(frame, 20)) != checksum {
            refused = Some(format!(
                "frame {} does not match its checksum",
                (offset - HEADER) / frame_size + 1
            ));
            break;
        }
        offset += frame_size;
        if word(frame, 4) != 0 {
            kept_end = offset;
        }
    }
    let cause = refused?;
    let lost = kept_end..current_use_end(wal, offset, frame_size, header.salts);
    Some(TornLog {
        cause,
        lost_transactions: lost_transactions(&wal[lost.clone()], frame_size),
        lost_frames: lost.len().div_ceil(frame_size),
        lost,
    })
}

/// The end of the frames of the log's current use from `offset` on: those with the
/// header's salts (or too short to show any).
fn current_use_end(wal: &[u8], mut offset: usize, frame_size: usize, salts: [u8; 8]) -> usize {
    while offset < wal.len() {
        let frame = &wal[offset..wal.len().min(offset + frame_size)];
        if frame.len() >= 16 && frame[8..16] != salts {
            break;
        }
        offset += frame.len();
    }
    offset
}

/// The transactions in `frames`: each commit frame ends one, and frames after the last
/// commit belong to one cut short.
fn lost_transactions(frames: &[u8], frame_size: usize) -> usize {
    let mut transactions = 0;
    let mut open = false;
    for frame in frames.chunks(frame_size) {
        let commit = frame.len() >= 8 && word(frame, 4) != 0;
        if commit {
            transactions += 1;
        }
        open = !commit;
    }
    transactions + usize::from(open)
}

/// A log whose header SQLite refuses: it ignores every frame.
fn damaged_header(wal: &[u8], cause: String) -> TornLog {
    // Without a valid page size the frames cannot be told apart: the default's is a guess.
    let page_size = if wal.len() >= 12 {
        usize::try_from(word(wal, 8)).unwrap_or(0)
    } else {
        0
    };
    let frame_size = FRAME_HEADER
        + if valid_page_size(page_size) {
            page_size
        } else {
            4096
        };
    let lost = HEADER.min(wal.len())..wal.len();
    TornLog {
        cause,
        lost_transactions: lost_transactions(&wal[lost.clone()], frame_size).max(1),
        lost_frames: lost.len().div_ceil(frame_size),
        lost,
    }
}

fn parse_header(wal: &[u8]) -> Result<Header, String> {
    if wal.len() < HEADER {
        return Err(format!(
            "it is cut short in its header at {} of {HEADER} bytes",
            wal.len()
        ));
    }
    let big_endian = match word(wal, 0) {
        MAGIC_LITTLE_ENDIAN => false,
        MAGIC_BIG_ENDIAN => true,
        other => return Err(format!("its header has the magic number {other:#010x}")),
    };
    let version = word(wal, 4);
    if version != VERSION {
        return Err(format!("its header has the format version {version}"));
    }
    let page_size = usize::try_from(word(wal, 8)).unwrap_or(0);
    if !valid_page_size(page_size) {
        return Err(format!("its header has the page size {page_size}"));
    }
    let checksum = checksum((0, 0), &wal[..24], big_endian);
    if (word(wal, 24), word(wal, 28)) != checksum {
        return Err("its header does not match its checksum".to_string());
    }
    let mut salts = [0; 8];
    salts.copy_from_slice(&wal[16..24]);
    Ok(Header {
        big_endian,
        page_size,
        salts,
        checksum,
    })
}

fn valid_page_size(size: usize) -> bool {
    (512..=65_536).contains(&size) && size.is_power_of_two()
}

/// The checksum after a whole frame: its header's first 8 bytes, then its page.
fn frame_checksum(from: (u32, u32), frame: &[u8], big_endian: bool) -> (u32, u32) {
    let after_header = checksum(from, &frame[..8], big_endian);
    checksum(after_header, &frame[FRAME_HEADER..], big_endian)
}

/// SQLite's log checksum: over pairs of 32-bit words `x`, `s0 += x[i] + s1; s1 += x[i+1] + s0`,
/// wrapping, the words read in the byte order the magic number names. `data.len()` is a
/// multiple of 8 (a header's 24 bytes, a frame header's 8, a page).
fn checksum((mut s0, mut s1): (u32, u32), data: &[u8], big_endian: bool) -> (u32, u32) {
    let read = |bytes: &[u8]| {
        let bytes = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if big_endian {
            u32::from_be_bytes(bytes)
        } else {
            u32::from_le_bytes(bytes)
        }
    };
    for pair in data.chunks_exact(8) {
        s0 = s0.wrapping_add(read(&pair[..4])).wrapping_add(s1);
        s1 = s1.wrapping_add(read(&pair[4..])).wrapping_add(s0);
    }
    (s0, s1)
}

/// The big-endian 32-bit field at `at` (the log's fields are always big-endian).
fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use rusqlite::Connection;

    use super::*;

    const PAGE: usize = 4096;
    const FRAME: usize = FRAME_HEADER + PAGE;

    /// A database in WAL mode with `rows` rows committed one by one, its log never
    /// checkpointed; the connection stays open (closing it would empty the log).
    fn logged(rows: usize) -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let connection = Connection::open(dir.path().join("g.sqlite3")).unwrap();
        connection.pragma_update(None, "page_size", 4096).unwrap();
        connection
            .pragma_update(None, "journal_mode", "WAL")
            .unwrap();
        connection
            .pragma_update(None, "wal_autocheckpoint", 0)
            .unwrap();
        connection
            .execute_batch("CREATE TABLE t (id TEXT, body TEXT)")
            .unwrap();
        // The table in the database file: the log then holds one page per row's commit.
        connection
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
        insert(&connection, 0..rows);
        (dir, connection)
    }

    fn insert(connection: &Connection, rows: Range<usize>) {
        for i in rows {
            connection
                .execute(
                    "INSERT INTO t VALUES (?1, ?2)",
                    [format!("game{i:04}"), "x".repeat(100)],
                )
                .unwrap();
        }
    }

    fn log(dir: &Path) -> Vec<u8> {
        std::fs::read(dir.join("g.sqlite3-wal")).unwrap()
    }

    /// The rows SQLite finds in a copy of the database with `wal` as its log.
    fn rows_with(dir: &Path, wal: &[u8]) -> usize {
        let copy: PathBuf = dir.join("copy.sqlite3");
        std::fs::copy(dir.join("g.sqlite3"), &copy).unwrap();
        std::fs::write(dir.join("copy.sqlite3-wal"), wal).unwrap();
        let connection = Connection::open(&copy).unwrap();
        let rows: i64 = connection
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        usize::try_from(rows).unwrap()
    }

    #[test]
    fn a_sound_log_reports_nothing() {
        let (dir, _open) = logged(30);
        let wal = log(dir.path());
        assert_eq!(check(&wal), None);
        assert_eq!(check(&[]), None, "an empty log is a checkpointed one");
        assert_eq!(rows_with(dir.path(), &wal), 30);
    }

    #[test]
    fn a_log_cut_by_100_bytes_loses_its_last_transaction_and_says_so() {
        let (dir, _open) = logged(30);
        let mut wal = log(dir.path());
        wal.truncate(wal.len() - 100);
        let torn = check(&wal).expect("a torn tail");
        assert!(torn.cause.contains("cut short"), "{}", torn.cause);
        assert_eq!(torn.lost_transactions, 1);
        assert_eq!(torn.lost_frames, 1);
        assert_eq!(torn.lost, wal.len() + 100 - FRAME..wal.len());
        let lost = &wal[torn.lost.clone()];
        assert!(
            lost.windows(8).any(|w| w == b"game0029"),
            "the lost page holds the row"
        );
        assert_eq!(rows_with(dir.path(), &wal), 30 - torn.lost_transactions);
    }

    #[test]
    fn a_checksum_flipped_mid_file_loses_everything_after_it() {
        let (dir, _open) = logged(30);
        let mut wal = log(dir.path());
        let frames = (wal.len() - HEADER) / FRAME;
        let tenth = HEADER + 9 * FRAME;
        wal[tenth + FRAME_HEADER + 200] ^= 0x40;
        let torn = check(&wal).expect("a damaged frame");
        assert!(torn.cause.contains("frame 10 "), "{}", torn.cause);
        assert_eq!(torn.lost.end, wal.len());
        assert!(torn.lost.start <= tenth);
        assert_eq!(torn.lost_frames, (wal.len() - torn.lost.start) / FRAME);
        assert_eq!(torn.lost_frames, frames - 9);
        // SQLite agrees on what it keeps: one row per lost transaction is gone.
        assert_eq!(rows_with(dir.path(), &wal), 30 - torn.lost_transactions);
    }

    #[test]
    fn a_log_reused_after_a_checkpoint_with_older_frames_after_it_is_not_torn() {
        let (dir, open) = logged(30);
        let before = log(dir.path()).len();
        open.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .unwrap();
        insert(&open, 30..32);
        let wal = log(dir.path());
        assert_eq!(
            wal.len(),
            before,
            "the new frames overwrote the start of the log"
        );
        let second = &wal[HEADER + FRAME + 8..HEADER + FRAME + 16];
        let last = &wal[wal.len() - FRAME + 8..wal.len() - FRAME + 16];
        assert_ne!(
            second, last,
            "older frames with older salts follow the new ones"
        );
        assert_eq!(check(&wal), None);
        assert_eq!(rows_with(dir.path(), &wal), 32);
    }

    #[test]
    fn a_damaged_header_loses_every_frame() {
        let (dir, _open) = logged(5);
        let mut wal = log(dir.path());
        wal[20] ^= 1;
        let torn = check(&wal).expect("a damaged header");
        assert!(torn.cause.contains("header"), "{}", torn.cause);
        assert_eq!(torn.lost, HEADER..wal.len());
        assert_eq!(
            rows_with(dir.path(), &wal),
            0,
            "SQLite ignores the whole log"
        );
        let short = check(&wal[..10]).expect("a header cut short");
        assert!(short.cause.contains("cut short"), "{}", short.cause);
        assert_eq!(check(&[0; 40]).map(|t| t.lost_frames), Some(1));
    }
}
