//! What the tests of `ludus serve` share: starting the binary on a free port with its games in
//! a test's own database, and reading the address it prints on its first line.
//!
//! Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `ludus serve` on `addr` with its games in `db` (tests never touch the user's data
/// directory) and `flags`; stdout and stderr piped.
pub fn serve_with(addr: &str, db: &Path, flags: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
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
