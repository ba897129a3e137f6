//! Computer players' moves: a search per move on a blocking worker thread, at most one search
//! per core (a slot of the fair [`Scheduler`](crate::scheduler::Scheduler), charged to the
//! game's creator; levels 1 and 2 decide at once without one), each with a stop flag; the
//! watching delay of games without people;
//! progress frames while searching; the result applied only if its search is still the current
//! one (undo, resignation, pause, deletion and shutdown cancel it).

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ludus_ai::{AnyAnalysis, StopFlag};
use ludus_engine::{AnyGame, Seat};
use serde_json::json;

use super::agents::{Caps, Computer};
use super::analysis::analysis_view;
use super::{LiveGame, Table};
use crate::hub::Hub;
use crate::scheduler::{Payer, Purpose};

/// A search in progress.
#[derive(Debug)]
pub struct Thinking {
    /// Tells this search from any later one.
    pub id: u64,
    /// The seat it decides for.
    pub seat: Seat,
    /// When it started, in Unix milliseconds.
    pub since_ms: u64,
    /// Raised to cancel it.
    pub stop: StopFlag,
}

/// A search to run.
#[derive(Debug)]
pub struct Job {
    id: u64,
    seat: Seat,
    seq: u64,
    game: AnyGame,
    computer: Computer,
    stop: StopFlag,
    delay: Duration,
    payer: Payer,
}

/// Milliseconds since the Unix epoch: a reading of the clock for times shown and stored, never
/// a seed or a secret (those come from [`crate::tokens`]).
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Table {
    /// Starts the search of the computer to move, if one is due: the game goes on, the seat
    /// is a computer's, no search runs, and the game is not paused (or may step once).
    pub fn prepare_search(&mut self, hub: &Hub) -> Option<Job> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        if hub.is_closing() || self.thinking.is_some() || (self.paused && !self.step) {
            return None;
        }
        let seat = self.game.to_move()?;
        let computer = self.seats.get(seat.to_usize())?.computer.clone()?;
        self.step = false;
        let stop = StopFlag::default();
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        self.thinking = Some(Thinking {
            id,
            seat,
            since_ms: unix_ms(),
            stop: stop.clone(),
        });
        let delay = if self.has_human() { 0 } else { self.speed_ms };
        Some(Job {
            id,
            seat,
            seq: self.seq,
            game: self.game.clone(),
            computer,
            stop,
            delay: Duration::from_millis(delay),
            payer: self.payer,
        })
    }
}

/// Runs `job` for `game` in the background.
pub fn spawn(game: Arc<LiveGame>, hub: Arc<Hub>, job: Job) {
    tokio::spawn(run(game, hub, job));
}

async fn run(game: Arc<LiveGame>, hub: Arc<Hub>, job: Job) {
    if !job.delay.is_zero() {
        tokio::time::sleep(job.delay).await;
    }
    if job.stop.is_raised() {
        return;
    }
    // A slot per search thread, so that level 5 on every core waits for the others rather
    // than crowding them; levels 1 and 2 take none and never wait behind deep searches.
    let slot = if job.computer.is_cheap() {
        None
    } else {
        let threads = job.computer.threads();
        let searches = &hub.searches;
        match searches
            .acquire(job.payer, Purpose::Move, threads, &job.stop)
            .await
        {
            Ok(slot) => Some(slot),
            Err(_) => return, // cancelled while waiting: its position is gone
        }
    };
    if job.stop.is_raised() {
        return;
    }
    let (id, seat, stop) = (job.id, job.seat, job.stop.clone());
    let watcher = Arc::clone(&game);
    let caps = Caps::of(&hub.config);
    let scheduler = Arc::clone(&hub.searches);
    let mut search = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let found = search(&job, &watcher, caps);
        match slot {
            // Dropping the slot charges its time to the client and passes it on.
            Some(slot) => drop(slot),
            None => scheduler.charge(job.payer, started.elapsed()),
        }
        found
    });
    // No spec may hold a core longer than the server allows: then the search is stopped and
    // plays the best decision it found.
    let limit = Duration::from_secs_f64(hub.config.max_search_seconds.clamp(0.0, 86_400.0));
    let joined = tokio::select! {
        joined = &mut search => joined,
        () = tokio::time::sleep(limit) => {
            stop.raise();
            search.await
        }
    };
    let result = joined.unwrap_or_else(|e| Err(format!("the search failed: {e}")));
    game.finish_search(&hub, id, seat, result).await;
}

/// The search itself, on a worker thread; a panic in it becomes an error.
fn search(job: &Job, game: &LiveGame, caps: Caps) -> Result<AnyAnalysis, String> {
    let seat_count = job.game.seat_count();
    let mut progress = |found: &AnyAnalysis| {
        let view = analysis_view(found, job.seat, seat_count, "");
        let mut frame = json!({"type": "thinking", "seq": job.seq});
        if let (Ok(serde_json::Value::Object(fields)), Some(map)) =
            (serde_json::to_value(&view), frame.as_object_mut())
        {
            map.extend(fields.into_iter().filter(|(k, _)| k != "by"));
        }
        game.broadcast(frame.to_string());
    };
    let run = || {
        let mut agent = job
            .computer
            .build_within(job.game.entry_count(), caps)
            .map_err(|e| e.to_string())?;
        agent
            .analyse_with(&job.game, &job.stop, &mut progress)
            .ok_or_else(|| "the computer player found no move".to_string())
    };
    match panic::catch_unwind(AssertUnwindSafe(run)) {
        Ok(result) => result,
        Err(_) => Err("the computer player crashed".to_string()),
    }
}

impl LiveGame {
    /// A search's answer: played if the search is still the current one, else dropped.
    async fn finish_search(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        id: u64,
        seat: Seat,
        result: Result<AnyAnalysis, String>,
    ) {
        let _turn = self.turn().await;
        let checked = {
            let mut table = self.lock();
            if table.thinking.as_ref().map(|t| t.id) != Some(id) {
                return; // cancelled by a change: its position is gone
            }
            table.thinking = None;
            result.and_then(|found| {
                let decisions = table
                    .check_notation(&found.notation)
                    .map_err(|e| e.message)?;
                Ok((found, decisions))
            })
        };
        // In a block of its own: the played move's table guard must be gone before what
        // follows is awaited.
        let played = {
            let played = match checked {
                Ok((found, decisions)) => self
                    .store_then_play(hub, &found.notation, decisions, "ai")
                    .await
                    .map(|(table, events)| (found, table, events))
                    .map_err(|e| e.message),
                Err(message) => Err(message),
            };
            played.map(|(found, mut table, events)| {
                let by = table.seats[seat.to_usize()].kind.clone();
                let seat_count = table.game.seat_count();
                table.analysis = Some(analysis_view(&found, seat, seat_count, &by));
                self.commit(&mut table, hub, &events)
            })
        };
        match played {
            Ok(job) => self.after_change(hub, job).await,
            Err(message) => self.pause_after_failure(hub, seat, &message).await,
        }
    }

    /// The computer of `seat` failed (`message`): the game is paused and everyone told. The
    /// caller holds the game's turn.
    async fn pause_after_failure(self: &Arc<Self>, hub: &Arc<Hub>, seat: Seat, message: &str) {
        // Stored like the owner's pause, so a restart keeps the game paused and its seq; the
        // game is paused even if that write fails.
        let pause = crate::store::Change::Control(crate::protocol::Control {
            paused: Some(true),
            ..Default::default()
        });
        let _ = hub.store.send(&self.id, pause).committed().await;
        let job = {
            let mut table = self.lock();
            table.paused = true;
            let label = table.seat_label(seat);
            self.broadcast(
                json!({"type": "error", "error": format!("the computer player of {label} failed: {message}; the game is paused")})
                    .to_string(),
            );
            self.commit(&mut table, hub, &[])
        };
        self.after_change(hub, job).await;
    }
}
