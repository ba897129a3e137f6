//! The full-screen app stopped from outside, in a real pseudo-terminal: after SIGTERM or SIGHUP
//! it leaves the alternate screen (the terminal is usable again) and saves the game it was
//! showing, instead of dying with the terminal in raw mode and the game lost.

use std::io::Read;
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

/// What the terminal received, read on a thread so the child never blocks on a full pty.
fn reader(mut from: Box<dyn Read + Send>) -> mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = from.read(&mut buffer) {
            if n == 0 || sender.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    receiver
}

/// Collects output until `done` holds for it or `limit` passes.
fn read_until(
    receiver: &mpsc::Receiver<Vec<u8>>,
    seen: &mut Vec<u8>,
    limit: Duration,
    done: impl Fn(&str) -> bool,
) {
    let start = Instant::now();
    while start.elapsed() < limit && !done(&String::from_utf8_lossy(seen)) {
        if let Ok(bytes) = receiver.recv_timeout(Duration::from_millis(50)) {
            seen.extend(bytes);
        }
    }
}

type App = (
    Box<dyn portable_pty::Child + Send + Sync>,
    mpsc::Receiver<Vec<u8>>,
    Box<dyn portable_pty::MasterPty + Send>,
);

/// Starts the app in a 140×45 pseudo-terminal in `dir`, two computers playing Replica.
fn start_app(dir: &std::path::Path) -> App {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 45,
            cols: 140,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_ludus"));
    command.args([
        "play", "replica", "--p1", "ai:1", "--p2", "ai:1", "--seed", "3",
    ]);
    command.cwd(dir);
    command.env("TERM", "xterm-256color");
    let child = pty.slave.spawn_command(command).unwrap();
    drop(pty.slave);
    let output = reader(pty.master.try_clone_reader().unwrap());
    (child, output, pty.master)
}

/// Sends `signal` to the child and waits (at most 20 s) for it to end; whether it succeeded.
fn signal_and_wait(child: &mut Box<dyn portable_pty::Child + Send + Sync>, signal: &str) -> bool {
    let pid = child.process_id().expect("the app runs").to_string();
    assert!(Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap()
        .success());
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stop_with(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, output, _master) = start_app(dir.path());
    let mut seen = Vec::new();
    // The app is up once it entered the alternate screen; then the computers play a while.
    read_until(&output, &mut seen, Duration::from_secs(20), |text| {
        text.contains("\u{1b}[?1049h")
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!signal_and_wait(&mut child, signal));
    read_until(&output, &mut seen, Duration::from_secs(2), |text| {
        text.contains("the game was saved to")
    });
    let text = String::from_utf8_lossy(&seen);
    let entered = text
        .find("\u{1b}[?1049h")
        .expect("entered the alternate screen");
    let left = text
        .rfind("\u{1b}[?1049l")
        .expect("left the alternate screen");
    assert!(left > entered, "{text}");
    assert!(text.contains(&format!("stopped by SIG{signal}")), "{text}");
    let saved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let name = saved[0].file_name().unwrap().to_string_lossy().to_string();
    assert!(name.starts_with("ludus-replica-stopped-"), "{name}");
    // The saved game replays (the record is whole), and it holds the moves played.
    let record = std::fs::read_to_string(&saved[0]).unwrap();
    let replay = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["replay", saved[0].to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(replay.status.success(), "{record}");
    assert!(record.contains("\"moves\""), "{record}");
}

#[test]
fn sigterm_gives_the_terminal_back_and_saves_the_game() {
    stop_with("TERM");
}

#[test]
fn sighup_gives_the_terminal_back_and_saves_the_game() {
    stop_with("HUP");
}
