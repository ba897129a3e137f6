//! What the tests of the `ludus` binary share: running it to the end with no input, a fresh
//! folder per test, a started child process that is killed and reaped when the test ends
//! (also when it fails), and for `ludus serve` starting it on a free port with its games in
//! a test's own database and reading the address it prints on its first line.
//!
//! Each test file is its own crate and uses a part of this module; the tests of the crates
//! that meet a server (`crates/bot`, `crates/loadtest`) and the browser tests of
//! `crates/server` (for chromedriver's guard) include it by path.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::ops::{Deref, DerefMut};
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

/// A started child process, killed and waited for when dropped: a test that fails before it
/// stops its child leaves nothing running (an orphan `ludus serve` would keep its port, and
/// the pipe of whoever ran the tests open). It reads as the `Child` it holds
/// (`.spawn().map(Spawned)`); a child the test stopped and waited for itself is left as it is.
pub struct Spawned(pub Child);

impl Spawned {
    /// As [`Child::wait_with_output`], which takes the child out of its guard: here the child
    /// stays in the guard until it has ended, so a failed read still kills it.
    pub fn wait_with_output(mut self) -> std::io::Result<Output> {
        drop(self.0.stdin.take());
        // Both pipes are read at once: a child that filled the unread one would never end.
        let stderr = self.0.stderr.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                pipe.read_to_end(&mut bytes).map(|_| bytes)
            })
        });
        let mut stdout = Vec::new();
        if let Some(mut pipe) = self.0.stdout.take() {
            pipe.read_to_end(&mut stdout)?;
        }
        let stderr = match stderr {
            Some(reader) => reader.join().expect("the stderr reader does not panic")?,
            None => Vec::new(),
        };
        let status = self.0.wait()?;
        Ok(Output {
            status,
            stdout,
            stderr,
        })
    }
}

impl Deref for Spawned {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for Spawned {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        // An error only says the child had already ended; the wait then reaps it (or finds it
        // reaped by the test).
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `ludus serve` on `addr` with its games in `db` (tests never touch the user's data
/// directory) and `flags`; stdout and stderr piped.
pub fn serve_with(addr: &str, db: &Path, flags: &[&str]) -> Spawned {
    Command::new(ludus_bin())
        .args(["serve", "--addr", addr, "--db"])
        .arg(db)
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Spawned)
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
