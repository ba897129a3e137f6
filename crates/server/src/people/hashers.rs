//! The threads that compute Argon2 hashes: a fixed few, for the server's whole life. Each
//! hash takes 19 MiB; on short-lived or many threads (a runtime's blocking pool) the
//! allocator keeps a heap per thread and memory grew by hundreds of MiB after a burst of
//! sign-ins. On these threads it stays at a few hashes' worth, and at most that many hashes
//! run at once.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};

/// Work for a hashing thread.
type Work = Box<dyn FnOnce() + Send>;

/// A handle to the hashing threads; they end when it is dropped.
#[derive(Debug)]
pub struct Hashers {
    work: Mutex<Sender<Work>>,
}

impl Hashers {
    /// Starts `threads` hashing threads (at least one).
    pub fn start(threads: usize) -> Hashers {
        let (work, queue) = mpsc::channel::<Work>();
        let queue = Arc::new(Mutex::new(queue));
        for number in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
            // A thread that cannot start leaves the others to do the work.
            let _ = std::thread::Builder::new()
                .name(format!("ludus-hash-{number}"))
                .spawn(move || serve(&queue));
        }
        Hashers {
            work: Mutex::new(work),
        }
    }

    /// Computes `work` on a hashing thread; `None` if none runs.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Work = Box::new(move || {
            // Nobody waits any more (the request was dropped): no hash for nobody.
            if !answer.is_closed() {
                let _ = answer.send(work());
            }
        });
        self.work
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(job)
            .ok()?;
        answered.await.ok()
    }
}

fn serve(queue: &Mutex<Receiver<Work>>) {
    loop {
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        match next {
            Ok(work) => work(),
            Err(_) => return,
        }
    }
}
