//! The computer players' thread: searches run here, never in the loop.
//!
//! The loop sends a [`Job`] (an id, a clone of the game, the agent to ask and a fresh
//! [`StopFlag`]); the worker answers with a [`Msg`] carrying the same id. `update` keeps the id
//! of the job it waits for and drops any other answer, so a search made stale by an undo is
//! simply ignored; raising the job's flag makes it return early. Tests run the same jobs
//! synchronously with [`run_job`], so they stay deterministic.

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use ludus_ai::{AnyAgent, AnyAnalysis, StopFlag};
use ludus_engine::AnyGame;

use super::msg::Msg;

/// The worker thread's name; the app's panic hook leaves panics there to the worker.
pub const THREAD_NAME: &str = "ludus-ai";

/// A computer player shared between the app (which owns it) and the worker (which asks it).
#[derive(Clone)]
pub struct SharedAgent(Arc<Mutex<Box<dyn AnyAgent>>>);

impl SharedAgent {
    /// Shares `agent`.
    pub fn new(agent: Box<dyn AnyAgent>) -> SharedAgent {
        SharedAgent(Arc::new(Mutex::new(agent)))
    }
}

impl fmt::Debug for SharedAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.try_lock() {
            Ok(agent) => write!(f, "{}", agent.spec()),
            Err(_) => write!(f, "(searching)"),
        }
    }
}

/// What a job asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// The decision of the seat to move.
    Move,
    /// A hint for a person.
    Hint,
}

/// One search to run.
pub struct Job {
    /// The id the answer carries.
    pub id: u64,
    /// The position to search, with its history.
    pub game: AnyGame,
    /// Who searches.
    pub agent: SharedAgent,
    /// Move or hint.
    pub task: Task,
    /// Raised to make the search return at once.
    pub stop: StopFlag,
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("id", &self.id)
            .field("task", &self.task)
            .field("position", &self.game.position())
            .finish_non_exhaustive()
    }
}

/// Runs a job on the calling thread and returns the answer; progress reports of the search
/// (one per completed iteration) go to `progress` as [`Msg::AiInfo`].
pub fn run_job(job: &Job, progress: &mut dyn FnMut(Msg)) -> Msg {
    let result = match job.agent.0.lock() {
        Ok(mut agent) => {
            let id = job.id;
            let mut report = |found: &AnyAnalysis| {
                progress(Msg::AiInfo {
                    job: id,
                    analysis: found.clone(),
                });
            };
            agent
                .analyse_with(&job.game, &job.stop, &mut report)
                .ok_or_else(|| "the computer player found no move".to_string())
        }
        Err(_) => Err("the computer player crashed earlier".to_string()),
    };
    match job.task {
        Task::Move => Msg::AiMove {
            job: job.id,
            result,
        },
        Task::Hint => Msg::Hint {
            job: job.id,
            result,
        },
    }
}

/// The answer of a job that could not run.
fn failed(id: u64, task: Task, text: String) -> Msg {
    match task {
        Task::Move => Msg::AiMove {
            job: id,
            result: Err(text),
        },
        Task::Hint => Msg::Hint {
            job: id,
            result: Err(text),
        },
    }
}

/// Where jobs go: a thread in the app, the caller itself in tests.
pub trait AiRunner {
    /// Starts `job`; returns the answer at once when it ran synchronously.
    fn start(&mut self, job: Job) -> Option<Msg>;
}

/// Runs jobs synchronously, for tests.
#[cfg(test)]
#[derive(Debug, Default)]
pub struct Inline;

#[cfg(test)]
impl AiRunner for Inline {
    fn start(&mut self, job: Job) -> Option<Msg> {
        Some(run_job(&job, &mut |_| {}))
    }
}

enum Order {
    Start(Job),
    Quit,
}

/// The worker thread: runs jobs one after another and sends each answer to the loop.
#[derive(Debug)]
pub struct Worker {
    orders: Sender<Order>,
    handle: Option<JoinHandle<()>>,
}

impl fmt::Debug for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Start(job) => write!(f, "Start({job:?})"),
            Order::Quit => write!(f, "Quit"),
        }
    }
}

impl Worker {
    /// Starts the thread; answers go to `answers`.
    pub fn spawn(answers: Sender<Msg>) -> Worker {
        let (orders, inbox) = mpsc::channel::<Order>();
        let handle = thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                while let Ok(Order::Start(job)) = inbox.recv() {
                    let mut progress = |msg| {
                        let _ = answers.send(msg);
                    };
                    // A search that panics becomes an error message; the app goes on.
                    let answer =
                        panic::catch_unwind(AssertUnwindSafe(|| run_job(&job, &mut progress)))
                            .unwrap_or_else(|payload| {
                                let text = payload
                                    .downcast_ref::<&str>()
                                    .map(ToString::to_string)
                                    .or_else(|| payload.downcast_ref::<String>().cloned())
                                    .unwrap_or_default();
                                failed(
                                    job.id,
                                    job.task,
                                    format!("the computer player failed: {text}"),
                                )
                            });
                    if answers.send(answer).is_err() {
                        break;
                    }
                }
            })
            .ok();
        Worker { orders, handle }
    }
}

impl AiRunner for Worker {
    fn start(&mut self, job: Job) -> Option<Msg> {
        let id = job.id;
        let task = job.task;
        if self.orders.send(Order::Start(job)).is_err() {
            let text = "the computer players' thread has stopped".to_string();
            return Some(failed(id, task, text));
        }
        None
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.orders.send(Order::Quit);
        // A search that ignores its stop flag must not keep the app from closing: the thread is
        // detached unless it already finished.
        if let Some(handle) = self.handle.take() {
            if handle.is_finished() {
                let _ = handle.join();
            }
        }
    }
}
