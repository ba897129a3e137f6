//! Outside engines' processes, each in a process group of its own, ended group and all.
//!
//! An engine may start helpers (a shell script that runs the real engine, a pool of worker
//! processes); killing the engine alone leaves those running after its game. So each engine
//! is started as the leader of a new process group, and ending it kills the whole group
//! (`killpg`) and reaps the leader. Every live group is also registered here, so that an
//! arena stopped from outside (Ctrl-C, SIGTERM) can end them all with [`end_all_engines`];
//! after that no new engine starts. A group started on its own also keeps the terminal's
//! Ctrl-C away from the engines: the arena decides when they end.

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The live engines' process group ids, and whether the arena is closing.
#[derive(Debug)]
struct Groups {
    live: BTreeSet<u32>,
    closing: bool,
}

static GROUPS: Mutex<Groups> = Mutex::new(Groups {
    live: BTreeSet::new(),
    closing: false,
});

/// The registry; a panic elsewhere while it was held does not make it unusable.
fn groups() -> MutexGuard<'static, Groups> {
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts `command` as the leader of a new process group and registers the group. Fails
/// once [`end_all_engines`] was called. The registry is held while spawning, so a group
/// cannot start unseen by a concurrent `end_all_engines`.
pub(crate) fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut groups = groups();
    if groups.closing {
        return Err(io::Error::other("the arena is stopping"));
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let child = command.spawn()?;
    groups.live.insert(child.id());
    Ok(child)
}

/// Kills `child`'s whole process group (the engine and everything it started that is still
/// in its group), then reaps the engine.
pub(crate) fn end(child: &mut Child) {
    kill_group(child.id());
    // Without process groups (not Unix) the engine alone is killed.
    #[cfg(not(unix))]
    let _ = child.kill();
    // Unregistered before it is reaped: once reaped, its id may be reused by a new engine.
    groups().live.remove(&child.id());
    let _ = child.wait();
}

/// Kills every live engine's process group, and refuses to start any more: for an arena
/// stopped from outside, just before the process exits.
pub fn end_all_engines() {
    let mut groups = groups();
    groups.closing = true;
    for &group in &groups.live {
        kill_group(group);
    }
}

#[cfg(unix)]
fn kill_group(group: u32) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    let Ok(id) = i32::try_from(group) else {
        return;
    };
    // ESRCH: the group has already ended, nothing left to do.
    let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
}

#[cfg(not(unix))]
fn kill_group(_group: u32) {}

#[cfg(all(test, unix))]
mod tests {
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    use super::*;

    /// Whether process `pid` still runs (a zombie waiting for its parent counts as ended).
    fn running(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim()
                .starts_with('Z')
        })
    }

    #[test]
    fn ending_an_engine_ends_the_children_it_started() {
        let mut command = Command::new("sh");
        command
            .args(["-c", "sleep 1000 & echo $!; exec sleep 1000"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped());
        let mut child = spawn(&mut command).unwrap();
        let mut line = String::new();
        io::BufRead::read_line(
            &mut io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let helper = line.trim().to_string();
        assert!(running(&helper), "the helper {helper} runs");
        end(&mut child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while running(&helper) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!running(&helper), "the helper {helper} was left running");
    }
}
