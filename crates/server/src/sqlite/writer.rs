//! The one thread that writes to the database. Callers send a write and wait for its answer
//! (blocked, or awaiting a future that holds no thread), so a decision is acknowledged only
//! once it is committed. Writes that queue up while a commit is under way are committed
//! together in the next transaction (a group commit): many games cost one disk sync, not one
//! each.
//!
//! Checkpoints (copying the write-ahead log into the database file, with an fsync) run on a
//! second thread with its own connection, every [`CHECKPOINT_EVERY`] commits: SQLite's
//! automatic checkpoint would run inside a commit and hold every waiting move for the
//! length of a disk sync.
//!
//! On a clean stop the writer finishes its queue and checkpoints the whole log into the
//! database file and empties it (TRUNCATE), so the `.sqlite3` file alone holds every game.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::Arc;

use rusqlite::{params, Connection};
use tokio::sync::oneshot;

use crate::live::{ChatLine, CHAT_KEPT};

/// How stale a game's stored `changed_ms` may grow before a change writes it again, in
/// milliseconds. Written at every move, it dirtied a page of the games table in every
/// commit, one more for each game that moved: about 8 KB written to the disk a move under
/// the load test where 5.8 KB do without (docs/SCALING.md, "What a move writes to the disk").
/// Only a start reads it (the abandoned games' clock, the lobby's order), and a start counts
/// from this much after the stored time, so no game is judged abandoned early.
pub(super) const CHANGED_MS_STEP: i64 = 60_000;

/// The most writes committed in one transaction.
const BATCH: usize = 512;

/// The writer's page cache, in KiB (the only writer: its cache stays valid). SQLite's 2 MiB
/// lost a thousand games' pages under load; reading them back was 5 % of the server's CPU.
const WRITER_CACHE_KIB: i64 = 32 * 1024;

/// Commits between two checkpoints (SQLite's automatic one runs every 1000 log pages; a
/// commit of a few small rows writes one to three). Under the load test, 64 keeps the log
/// at 33 MiB where 256 let it reach 78 MiB before the writer started it again (see
/// [`RESTART_FROM_FRAMES`]), for the same moves a second within the noise.
const CHECKPOINT_EVERY: u32 = 64;

/// The log's length, in frames (a page each), from which the writer starts the log again
/// from its beginning. A passive checkpoint under steady writes never reaches the log's end
/// (new frames keep coming while it copies), and SQLite starts the log again only after one
/// has: under the load test the log grew by 100 MiB a second (2.2 GiB in 20 s, for a 20 MiB
/// database), and extending the file made the kernel zero each new block (14 % of the
/// server's CPU). So when the checkpoint thread finds the log this long, the writer itself
/// runs a RESTART checkpoint between two commits (the moves arriving meanwhile join the next
/// group commit): on the checkpoint thread it had to win the write lock from a writer that
/// always wants it, and mostly did not (the log still reached 158 MiB, then 402 MiB). The
/// log's blocks are then written again instead of added.
const RESTART_FROM_FRAMES: i64 = 4096;

/// Work for the accounts (`people`) done on the games' connection, inside the writer's
/// transaction, so that it shares the games' group commit instead of being a second writer
/// that SQLite makes each side wait for.
pub type Job = Box<dyn FnOnce(&Connection) -> rusqlite::Result<()> + Send>;

/// A [`Job`], taken once when it runs.
pub struct JobCell(std::sync::Mutex<Option<Job>>);

impl JobCell {
    /// Holds `job` until it runs.
    pub fn new(job: Job) -> JobCell {
        JobCell(std::sync::Mutex::new(Some(job)))
    }

    fn take(&self) -> Option<Job> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

impl std::fmt::Debug for JobCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JobCell")
    }
}

/// One write.
#[derive(Debug)]
pub enum Write {
    /// The accounts' work, in a savepoint of its own: a failure undoes only its statements.
    Job(JobCell),
    /// A new game with its setup (JSON).
    Game {
        /// Its id.
        id: String,
        /// When it was created, Unix milliseconds.
        created_ms: u64,
        /// Its setup as JSON.
        setup: String,
    },
    /// A change to a game.
    Change {
        /// The game.
        id: String,
        /// `move`, `undo`, `redo`, `resign`.
        kind: String,
        /// Its argument.
        arg: String,
    },
    /// A line of a game's chat; the game's lines past the last [`CHAT_KEPT`] go.
    Chat {
        /// The game.
        id: String,
        /// The line.
        line: ChatLine,
    },
    /// A game deleted with its changes and its chat.
    Remove {
        /// The game.
        id: String,
    },
    /// A game ended (`Some`: when, Unix milliseconds) or came back into play (`None`).
    Finished {
        /// The game.
        id: String,
        /// When it ended.
        finished_ms: Option<u64>,
    },
}

/// Why a write or a checkpoint was not committed. `Clone` because a failed commit fails
/// every write of its batch with the same error; SQLite's own errors are kept as their
/// text for that reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The writer thread is gone (the server is stopping).
    #[error("the database writer has stopped")]
    Stopped,
    /// The writer thread went away with the write still queued.
    #[error("the database writer stopped before committing")]
    StoppedBeforeCommit,
    /// SQLite refused the checkpoint.
    #[error("the checkpoint failed: {0}")]
    Checkpoint(String),
    /// Readers kept the log busy for every try.
    #[error("the checkpoint could not finish: another connection was reading")]
    CheckpointBusy,
    /// SQLite refused the write or its transaction.
    #[error("{0}")]
    Sqlite(String),
}

impl From<rusqlite::Error> for WriteError {
    fn from(error: rusqlite::Error) -> WriteError {
        WriteError::Sqlite(error.to_string())
    }
}

/// Where a request's result goes: a thread waiting for it, or a task that awaits it.
#[derive(Debug)]
enum Reply {
    /// A thread blocked until the answer (see `sqlite::wait_for_commit`).
    Waiting(SyncSender<Result<(), WriteError>>),
    /// A future awaited by a task, which holds no thread meanwhile.
    Later(oneshot::Sender<Result<(), WriteError>>),
}

impl Reply {
    fn send(self, result: Result<(), WriteError>) {
        // A caller that stopped waiting (a dropped future) needs no answer.
        let _ = match self {
            Reply::Waiting(sender) => sender.send(result).map_err(drop),
            Reply::Later(sender) => sender.send(result).map_err(drop),
        };
    }
}

/// What the writer thread is asked, in the order asked.
#[derive(Debug)]
enum Request {
    /// A write to commit.
    Write(Write, Reply),
    /// Everything asked before committed, then the log copied into the database file and
    /// emptied.
    Checkpoint(Reply),
}

/// The handle to the writer thread; the thread ends when the handle is dropped.
#[derive(Debug)]
pub struct Writer {
    requests: Sender<Request>,
}

impl Writer {
    /// Starts the thread that owns `connection` (to the database at `path`) and the thread
    /// that checkpoints it.
    pub fn start(connection: Connection, path: &Path) -> std::io::Result<Writer> {
        // A failure leaves SQLite's default.
        let _ = connection.pragma_update(None, "cache_size", -WRITER_CACHE_KIB);
        let (requests, queue) = mpsc::channel();
        let checkpoints = start_checkpoints(&connection, path);
        std::thread::Builder::new()
            .name("ludus-db-writer".into())
            .spawn(move || serve(connection, &queue, checkpoints.as_ref()))?;
        Ok(Writer { requests })
    }

    /// Writes `write` and waits until it is committed.
    pub fn write(&self, write: Write) -> Result<(), WriteError> {
        self.ask(|reply| Request::Write(write, reply))
    }

    /// Sends `write` and answers at once: the answer resolves when it is committed. Writes
    /// are committed in the order sent, whichever way their callers wait.
    pub fn write_later(
        &self,
        write: Write,
    ) -> impl std::future::Future<Output = Result<(), WriteError>> + Send + 'static {
        let (reply, answer) = oneshot::channel();
        let sent = self
            .requests
            .send(Request::Write(write, Reply::Later(reply)))
            .is_ok();
        async move {
            if !sent {
                return Err(WriteError::Stopped);
            }
            answer.await.map_err(|_| WriteError::StoppedBeforeCommit)?
        }
    }

    /// Waits until every write sent before is committed, then copies the whole log into the
    /// database file and empties it: after it, the database file alone holds every game.
    pub fn checkpoint(&self) -> Result<(), WriteError> {
        self.ask(Request::Checkpoint)
    }

    fn ask(&self, request: impl FnOnce(Reply) -> Request) -> Result<(), WriteError> {
        let (reply, answer) = mpsc::sync_channel(1);
        if self.requests.send(request(Reply::Waiting(reply))).is_err() {
            return Err(WriteError::Stopped);
        }
        answer.recv().map_err(|_| WriteError::StoppedBeforeCommit)?
    }
}

/// The checkpoint thread's signals: a checkpoint is due, and the log is long enough for the
/// writer to start it again (see [`RESTART_FROM_FRAMES`]).
struct Checkpoints {
    due: SyncSender<()>,
    restart_due: Arc<AtomicBool>,
}

/// The checkpoint thread on its own connection, and the writer's automatic checkpoints
/// turned off; `None` (automatic checkpoints kept) if it cannot start.
fn start_checkpoints(writer: &Connection, path: &Path) -> Option<Checkpoints> {
    let connection = Connection::open(path).ok()?;
    connection
        .busy_timeout(std::time::Duration::from_secs(5))
        .ok()?;
    let (due, signals) = mpsc::sync_channel::<()>(1);
    let restart_due = Arc::new(AtomicBool::new(false));
    let long_log = Arc::clone(&restart_due);
    std::thread::Builder::new()
        .name("ludus-db-checkpoint".into())
        .spawn(move || {
            // PASSIVE never blocks the writer; a failed one is retried at the next signal.
            while signals.recv().is_ok() {
                let log_frames = connection
                    .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| row.get(1))
                    .unwrap_or(0i64);
                if log_frames >= RESTART_FROM_FRAMES {
                    long_log.store(true, Ordering::Relaxed);
                }
            }
        })
        .ok()?;
    writer.pragma_update(None, "wal_autocheckpoint", 0).ok()?;
    Some(Checkpoints { due, restart_due })
}

fn serve(mut connection: Connection, queue: &Receiver<Request>, checkpoints: Option<&Checkpoints>) {
    let mut commits = 0;
    let mut next = queue.recv().ok();
    while let Some(request) = next.take() {
        let (write, reply) = match request {
            Request::Checkpoint(reply) => {
                reply.send(checkpoint(&connection));
                next = queue.recv().ok();
                continue;
            }
            Request::Write(write, reply) => (write, reply),
        };
        let mut batch = vec![(write, reply)];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(Request::Write(write, reply)) => batch.push((write, reply)),
                // Asked after the batch's writes: it waits for their commit.
                Ok(other) => {
                    next = Some(other);
                    break;
                }
                Err(_) => break,
            }
        }
        let results = commit(&mut connection, &batch);
        for ((_, reply), result) in batch.into_iter().zip(results) {
            reply.send(result);
        }
        commits += 1;
        if let Some(checkpoints) = checkpoints {
            if commits % CHECKPOINT_EVERY == 0 {
                // Full means one is already due: the checkpoint thread catches up on its own.
                let _ = checkpoints.due.try_send(());
            }
            if checkpoints.restart_due.swap(false, Ordering::Relaxed) {
                // A failure leaves the log as long; the checkpoint thread asks again.
                let _ = connection.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()));
            }
        }
        if next.is_none() {
            next = queue.recv().ok();
        }
    }
}

/// A TRUNCATE checkpoint: every frame of the log copied into the database file, synced, and
/// the log cut to nothing. It waits (the busy timeout) for the checkpoint thread's own run,
/// and tries again for up to a second while another connection is still reading the log:
/// readers hold it only for one query, and SQLite answers "busy" at once rather than wait for
/// a reader that started during the checkpoint.
fn checkpoint(connection: &Connection) -> Result<(), WriteError> {
    const TRIES: u32 = 100;
    for _ in 0..TRIES {
        let busy: i64 = connection
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))
            .map_err(|e| WriteError::Checkpoint(e.to_string()))?;
        if busy == 0 {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Err(WriteError::CheckpointBusy)
}

/// Runs the batch in one transaction; each write gets its own result, and all fail if the
/// commit does. A failed statement changes nothing, so the others still commit.
fn commit(connection: &mut Connection, batch: &[(Write, Reply)]) -> Vec<Result<(), WriteError>> {
    let transaction = match connection.transaction() {
        Ok(transaction) => transaction,
        Err(error) => return vec![Err(error.into()); batch.len()],
    };
    let results: Vec<Result<(), WriteError>> = batch
        .iter()
        .map(|(write, _)| run(&transaction, write).map_err(WriteError::from))
        .collect();
    match transaction.commit() {
        Ok(()) => results,
        Err(error) => vec![Err(error.into()); batch.len()],
    }
}

/// Runs an accounts' job in a savepoint: its failure undoes its own statements only.
fn run_job(connection: &Connection, cell: &JobCell) -> rusqlite::Result<()> {
    let Some(job) = cell.take() else {
        return Ok(());
    };
    connection.execute_batch("SAVEPOINT job")?;
    match job(connection) {
        Ok(()) => connection.execute_batch("RELEASE job"),
        Err(error) => {
            let _ = connection.execute_batch("ROLLBACK TO job; RELEASE job");
            Err(error)
        }
    }
}

fn run(connection: &Connection, write: &Write) -> rusqlite::Result<()> {
    match write {
        Write::Job(cell) => run_job(connection, cell),
        Write::Game {
            id,
            created_ms,
            setup,
        } => connection
            .prepare_cached(
                "INSERT INTO games (id, created_ms, setup, changed_ms) VALUES (?1, ?2, ?3, ?2)",
            )?
            .execute(params![id, *created_ms as i64, setup])
            .map(drop),
        Write::Change { id, kind, arg } => {
            connection
                .prepare_cached("INSERT INTO changes (game_id, kind, arg) VALUES (?1, ?2, ?3)")?
                .execute(params![id, kind, arg])?;
            // When it last changed, to the minute (see `CHANGED_MS_STEP`); always in a game
            // marked ended, so that a start still finds it back in play if the mark that
            // says so was not stored.
            let now = crate::live::unix_ms() as i64;
            connection
                .prepare_cached(
                    "UPDATE games SET changed_ms = ?2 WHERE id = ?1 \
                     AND (changed_ms IS NULL OR changed_ms <= ?3 OR finished_ms IS NOT NULL)",
                )?
                .execute(params![id, now, now - CHANGED_MS_STEP])
                .map(drop)
        }
        Write::Chat { id, line } => {
            connection
                .prepare_cached(
                    "INSERT INTO chat (game_id, channel, sender, seat, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(params![
                    id,
                    line.channel.name(),
                    line.from,
                    line.seat.map(|seat| seat as i64),
                    line.text,
                    line.at_ms as i64
                ])?;
            connection
                .prepare_cached(
                    "DELETE FROM chat WHERE game_id = ?1 AND id <= (SELECT id FROM chat WHERE game_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
                )?
                .execute(params![id, CHAT_KEPT as i64])
                .map(drop)
        }
        Write::Remove { id } => {
            connection.execute("DELETE FROM changes WHERE game_id = ?1", [id])?;
            connection.execute("DELETE FROM chat WHERE game_id = ?1", [id])?;
            connection.execute("DELETE FROM games WHERE id = ?1", [id])?;
            Ok(())
        }
        Write::Finished { id, finished_ms } => connection
            .prepare_cached("UPDATE games SET finished_ms = ?2 WHERE id = ?1")?
            .execute(params![id, finished_ms.map(|ms| ms as i64)])
            .map(drop),
    }
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
