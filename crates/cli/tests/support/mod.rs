//! What the tests of the `ludus` binary share: running it to the end with no input, a fresh
//! folder per test, and for `ludus serve` starting it on a free port with its games in a
//! test's own database and reading the address it prints on its first line.
//!
//! Each test file is its own crate and uses a part of this module; the tests of the crates
//! that meet a server (`crates/bot`) include it by path.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The `ludus` binary: cargo's own path to it in this crate's tests, else the one in the
/// target folder the calling test was built into (`cargo test --workspace` builds it; a
/// crate's tests alone need `cargo build -p ludus` first).
pub fn ludus_bin() -> PathBuf {
    if let Some(path) = option_env!("CARGO_BIN_EXE_ludus") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("the test knows its path");
    // target/debug/deps/TEST: the binaries are two folders up.
    let folder = exe
        .parent()
        .and_then(Path::parent)
        .expect("a target folder");
    let ludus = folder.join(format!("ludus{}", std::env::consts::EXE_SUFFIX));
    assert!(
        ludus.is_file(),
        "{} is missing: build it first (cargo build -p ludus)",
        ludus.display()
    );
    ludus
}

/// Runs `ludus ARGS` with no input and without colours, to the end.
pub fn ludus(args: &[&str]) -> Output {
    Command::new(ludus_bin())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// An empty folder of the test's own under the system's temporary one
/// (`ludus-TAG-NAME-` and random letters), removed with all in it when the guard drops, also
/// when the test fails: the test keeps the guard in a variable to its end, and waits for the
/// processes that write into the folder first.
pub fn temp_dir(tag: &str, name: &str) -> tempfile::TempDir {
    tempfile::TempDir::with_prefix(format!("ludus-{tag}-{name}-")).unwrap()
}

/// `ludus serve` on `addr` with its games in `db` (tests never touch the user's data
/// directory) and `flags`; stdout and stderr piped.
pub fn serve_with(addr: &str, db: &Path, flags: &[&str]) -> Child {
    Command::new(ludus_bin())
        .args(["serve", "--addr", addr, "--db"])
        .arg(db)
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// The `HOST:PORT` a started server prints on its first line (its URL).
pub fn host_of(child: &mut Child) -> String {
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut first)
        .unwrap();
    let Some(host) = first
        .trim()
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
    else {
        // The server stopped before its URL: what it said is the reason.
        let mut said = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut stderr, &mut said);
        }
        panic!("first line is the URL: {first:?}; the server said: {said}");
    };
    host.to_string()
}
