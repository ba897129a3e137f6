//! The worker thread: answers carry their job id, progress comes before the answer, a raised
//! stop flag ends a search early, and a panicking search becomes an error message.

use std::sync::mpsc;
use std::time::Duration;

use ludus_ai::{AnyAgent, AnyAnalysis, StopFlag};
use ludus_engine::AnyGame;

use crate::msg::Msg;
use crate::players::Player;
use crate::worker::{AiRunner, Job, SharedAgent, Task, Worker};

fn agent(spec: &str) -> SharedAgent {
    match Player::parse(spec, "replica", 5).unwrap() {
        Player::Computer(agent) => SharedAgent::new(agent),
        Player::Human => unreachable!("a computer spec"),
    }
}

fn job(id: u64, agent: SharedAgent, stop: StopFlag) -> Job {
    Job {
        id,
        game: ludus_games::new_game("replica", &[], None, 0).unwrap(),
        agent,
        task: Task::Move,
        stop,
    }
}

#[test]
fn the_thread_answers_with_the_job_id_and_stops_on_the_flag() {
    let (sender, inbox) = mpsc::channel();
    let mut worker = Worker::spawn(sender);
    assert!(worker
        .start(job(7, agent("ai:1"), StopFlag::default()))
        .is_none());
    match inbox.recv_timeout(Duration::from_secs(30)).unwrap() {
        Msg::AiInfo { job, .. } => assert_eq!(job, 7),
        other => panic!("expected progress first, got {other:?}"),
    }
    match inbox.recv_timeout(Duration::from_secs(30)).unwrap() {
        Msg::AiMove { job, result } => {
            assert_eq!(job, 7);
            assert!(!result.unwrap().notation.is_empty());
        }
        other => panic!("expected a move, got {other:?}"),
    }
    // A level-4 search with a ten-minute budget returns within the 30 s waited for only if
    // its raised flag ends it.
    let stop = StopFlag::default();
    stop.raise();
    worker.start(job(8, agent("ai:4:time=600"), stop));
    loop {
        if let Msg::AiMove { job, result } = inbox.recv_timeout(Duration::from_secs(30)).unwrap() {
            assert_eq!(job, 8);
            assert!(result.is_ok());
            break;
        }
    }
}

struct Broken;

impl AnyAgent for Broken {
    fn choose(&mut self, _: &AnyGame, _: &StopFlag) -> Option<String> {
        panic!("broken agent")
    }
    fn analyse_with(
        &mut self,
        _: &AnyGame,
        _: &StopFlag,
        _: &mut dyn FnMut(&AnyAnalysis),
    ) -> Option<AnyAnalysis> {
        panic!("broken agent")
    }
    fn spec(&self) -> String {
        "broken".into()
    }
}

#[test]
fn a_panicking_search_becomes_an_error_message() {
    let (sender, inbox) = mpsc::channel();
    let mut worker = Worker::spawn(sender);
    worker.start(job(
        3,
        SharedAgent::new(Box::new(Broken)),
        StopFlag::default(),
    ));
    match inbox.recv_timeout(Duration::from_secs(30)).unwrap() {
        Msg::AiMove { job, result } => {
            assert_eq!(job, 3);
            assert!(result.unwrap_err().contains("broken agent"));
        }
        other => panic!("expected an error, got {other:?}"),
    }
    // The thread is still there for the next job.
    worker.start(job(4, agent("ai:1"), StopFlag::default()));
    let answered = (0..3).any(|_| {
        matches!(
            inbox.recv_timeout(Duration::from_secs(30)),
            Ok(Msg::AiMove {
                job: 4,
                result: Ok(_)
            })
        )
    });
    assert!(answered);
}
