//! Every printing command meets a closed or full standard output without panicking: a pipe
//! whose reader has gone (`ludus moves replica | head -1`) ends quietly with status 0, a full
//! disk (`ludus games > /dev/full`) with one error line and status 1.

use std::process::{Command, Output, Stdio};

/// The commands that print, each with enough output to meet the closed end.
const PRINTING: [&[&str]; 6] = [
    &["games"],
    &["moves", "replica"],
    &["position", "qawale"],
    &["perft", "qawale", "--turns", "1", "--divide"],
    &["play", "yoxii", "--plain", "--p1", "ai:1", "--p2", "ai:1"],
    &["bench", "qawale", "--seconds", "0.01"],
];

fn run_with_stdout(args: &[&str], stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    for args in PRINTING {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader); // the reader is gone before the first line
        let output = run_with_stdout(args, writer.into());
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "{args:?}: {:?} {err}",
            output.status
        );
        assert!(err.is_empty(), "{args:?} printed: {err}");
    }
}

#[test]
fn a_full_disk_is_one_error_line() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not a Linux machine
    };
    for args in PRINTING {
        let output = run_with_stdout(args, full.try_clone().unwrap().into());
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err, "ludus: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}
