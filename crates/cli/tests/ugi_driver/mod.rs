//! `ludus ugi` started as a tournament manager starts it, with its lines arriving on a
//! channel; shared by the tests that drive it over a pipe (each also declares `mod support`).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use crate::support::Spawned;

/// A running `ludus ugi GAME` with its lines arriving on a channel.
pub struct Engine {
    pub child: Spawned,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start(game: &str, options: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .arg("ugi")
            .arg(game)
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map(Spawned)
            .expect("ludus starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in output.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).expect("the engine reads");
    }

    /// The next line, within `seconds`.
    pub fn next(&self, seconds: u64) -> Option<String> {
        self.lines.recv_timeout(Duration::from_secs(seconds)).ok()
    }

    /// Every line up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .next(60)
                .unwrap_or_else(|| panic!("no '{prefix}' line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The answer to `query WHAT`.
    pub fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.until("response ").pop().unwrap();
        line["response ".len()..].to_string()
    }

    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("the engine ends");
        assert!(status.success(), "{status}");
    }
}

/// The ids of the games, as `ludus games` lists them (tests outside a game's folder name none).
pub fn game_ids() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("games")
        .output()
        .expect("ludus runs");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with(' ') && !line.is_empty())
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}
