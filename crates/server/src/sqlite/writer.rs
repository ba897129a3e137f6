//! The one thread that writes to the database. Callers send a write and wait for its answer,
//! so a decision is acknowledged only once it is committed. Writes that queue up while a
//! commit is under way are committed together in the next transaction (a group commit): many
//! games cost one disk sync, not one each.

use std::sync::mpsc::{self, Receiver, Sender, SyncSender};

use rusqlite::{params, Connection};

/// The most writes committed in one transaction.
const BATCH: usize = 512;

/// One write.
#[derive(Debug)]
pub enum Write {
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
    /// A game deleted with its changes.
    Remove {
        /// The game.
        id: String,
    },
}

type Reply = SyncSender<Result<(), String>>;

/// The handle to the writer thread; the thread ends when the handle is dropped.
#[derive(Debug)]
pub struct Writer {
    requests: Sender<(Write, Reply)>,
}

impl Writer {
    /// Starts the thread that owns `connection`.
    pub fn start(connection: Connection) -> std::io::Result<Writer> {
        let (requests, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("ludus-db-writer".into())
            .spawn(move || serve(connection, &queue))?;
        Ok(Writer { requests })
    }

    /// Writes `write` and waits until it is committed.
    pub fn write(&self, write: Write) -> Result<(), String> {
        let (reply, answer) = mpsc::sync_channel(1);
        if self.requests.send((write, reply)).is_err() {
            return Err("the database writer has stopped".to_string());
        }
        answer
            .recv()
            .map_err(|_| "the database writer stopped before committing".to_string())?
    }
}

fn serve(mut connection: Connection, queue: &Receiver<(Write, Reply)>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let results = commit(&mut connection, &batch);
        for ((_, reply), result) in batch.into_iter().zip(results) {
            let _ = reply.send(result);
        }
    }
}

/// Runs the batch in one transaction; each write gets its own result, and all fail if the
/// commit does. A failed statement changes nothing, so the others still commit.
fn commit(connection: &mut Connection, batch: &[(Write, Reply)]) -> Vec<Result<(), String>> {
    let transaction = match connection.transaction() {
        Ok(transaction) => transaction,
        Err(error) => return vec![Err(error.to_string()); batch.len()],
    };
    let results: Vec<Result<(), String>> = batch
        .iter()
        .map(|(write, _)| run(&transaction, write).map_err(|e| e.to_string()))
        .collect();
    match transaction.commit() {
        Ok(()) => results,
        Err(error) => vec![Err(error.to_string()); batch.len()],
    }
}

fn run(connection: &Connection, write: &Write) -> rusqlite::Result<()> {
    match write {
        Write::Game {
            id,
            created_ms,
            setup,
        } => connection
            .prepare_cached("INSERT INTO games (id, created_ms, setup) VALUES (?1, ?2, ?3)")?
            .execute(params![id, *created_ms as i64, setup])
            .map(drop),
        Write::Change { id, kind, arg } => connection
            .prepare_cached("INSERT INTO changes (game_id, kind, arg) VALUES (?1, ?2, ?3)")?
            .execute(params![id, kind, arg])
            .map(drop),
        Write::Remove { id } => {
            connection.execute("DELETE FROM changes WHERE game_id = ?1", [id])?;
            connection.execute("DELETE FROM games WHERE id = ?1", [id])?;
            Ok(())
        }
    }
}
