//! `ludus arena` ends its outside engines' whole process groups: an engine that started a
//! child (a wrapper script's `sleep 1000 &`) leaves nothing running after its games, nor
//! after the arena is stopped with SIGTERM in the middle of a game.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{temp_dir, Spawned};

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// An `--engine` value: the random Python engine in `mode`, wrapped by `with_child.sh`,
/// which writes its own pid and its child's to `pidfile`.
fn engine_with_child(pidfile: &Path, mode: &str) -> String {
    let engines = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    format!(
        "wrapped=sh {} {} python3 {} {LUDUS} replica {mode}",
        engines.join("with_child.sh").display(),
        pidfile.display(),
        engines.join("random_ugi.py").display()
    )
}

/// The pids every started engine wrote: its background child's and its own.
fn pids(pidfile: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pidfile).unwrap_or_default();
    text.split_whitespace().map(str::to_string).collect()
}

/// Whether process `pid` still runs (a zombie waiting to be reaped counts as ended).
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

/// The pids of `pidfile` still running a moment after the arena ended (the kernel may take
/// a few milliseconds to finish a killed process); the leftovers are killed so a failing
/// test leaves nothing behind either.
fn left_running(pidfile: &Path) -> Vec<String> {
    let all = pids(pidfile);
    let deadline = Instant::now() + Duration::from_secs(5);
    while all.iter().any(|p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<String> = all.into_iter().filter(|p| running(p)).collect();
    for pid in &left {
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    left
}

#[test]
fn an_engines_children_end_with_each_game() {
    let dir = temp_dir("groups", "games");
    let pidfile = dir.path().join("pids");
    let output = Command::new(LUDUS)
        .args(["arena", "replica", "--ai", "ai:1", "--games", "2", "--json"])
        .args(["--engine", &engine_with_child(&pidfile, "random")])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(pids(&pidfile).len(), 4, "two games, two pids each");
    assert_eq!(left_running(&pidfile), Vec::<String>::new());
}

#[test]
fn an_arena_stopped_by_sigterm_ends_its_engines_groups() {
    let dir = temp_dir("groups", "sigterm");
    let pidfile = dir.path().join("pids");
    // The engine hangs on its first `go`, and its move time is long: the game is in progress
    // when SIGTERM comes.
    let mut arena = Command::new(LUDUS)
        .args(["arena", "replica", "--ai", "ai:1", "--games", "2"])
        .args(["--movetime", "60000"])
        .args(["--engine", &engine_with_child(&pidfile, "hang")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(Spawned)
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while pids(&pidfile).len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // Games may run on several threads: one engine or more has started.
    assert!(pids(&pidfile).len() >= 2, "the engine started");
    // A moment for the handshake, so the engine is past its start and waiting in `go`.
    std::thread::sleep(Duration::from_millis(500));
    let term = Command::new("kill")
        .args(["-TERM", &arena.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let status = arena.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status}");
    assert_eq!(left_running(&pidfile), Vec::<String>::new());
}
