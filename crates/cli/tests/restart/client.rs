//! A child `ludus serve` on a given database (no action limit: the client plays as fast as
//! it can) and a plain blocking HTTP/1.0 client for it
//! (no client library: each request is one short connection, as a crash test wants).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::support::Spawned;

/// A running `ludus serve` and the host it listens on.
pub struct Served {
    pub child: Spawned,
    pub host: String,
}

impl Served {
    /// Starts `ludus serve` on a free port with `db`; waits for its URL line.
    pub fn start(db: &Path) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--actions-per-second",
                "0",
                "--db",
            ])
            .arg(db)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map(Spawned)
            .expect("the binary runs");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let host = first
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line is the URL: {first:?}"))
            .to_string();
        Served { child, host }
    }

    /// `kill -9`, and the server's stderr.
    pub fn kill(mut self) -> String {
        self.child.kill().unwrap();
        let Output { stderr, .. } = self.child.wait_with_output().unwrap();
        String::from_utf8_lossy(&stderr).into_owned()
    }
}

/// `METHOD path` with an optional JSON body → status and JSON body; `None` when the
/// server did not answer (killed meanwhile).
pub fn request(host: &str, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(host).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .ok()?;
    let body = body.map_or_else(String::new, Value::to_string);
    let head = format!(
        "{method} {path} HTTP/1.0\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status = answer.get(9..12)?.parse().ok()?;
    let (_, json) = answer.split_once("\r\n\r\n")?;
    Some((status, serde_json::from_str(json).ok()?))
}

/// A small seeded generator (the engine's SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        let (state, value) = ludus_engine::splitmix64(self.0);
        self.0 = state;
        (value % n as u64) as usize
    }
}
