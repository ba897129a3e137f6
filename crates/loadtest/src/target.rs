//! The server under load: a running one at `--url`, or `ludus serve` started by the tool
//! (`--spawn`) on a free local port and a temporary database; and what `/proc` says about
//! its process (resident memory, CPU time) when it runs on this machine.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{anyhow, bail, Context, Result};
use tempfile::TempDir;

/// Flags that lift the server's per-client limits (games, actions per second, connections,
/// WebSockets; per address, and per account for signed-in players), its caps on connections
/// and WebSockets in all, and its limit on sign-ups per address: the load test is one client
/// signing up to 10,000 accounts and playing up to 10,000 games (20,000 sockets) as fast as
/// it can.
const UNLIMITED: [&str; 16] = [
    "--games-per-client",
    "0",
    "--actions-per-second",
    "0",
    "--games-per-client-per-day",
    "0",
    "--connections-per-client",
    "0",
    "--websockets-per-client",
    "0",
    "--max-connections",
    "0",
    "--max-websockets",
    "0",
    "--signups-per-hour",
    "0",
];

/// The server being loaded.
#[derive(Debug)]
pub struct Target {
    /// `http://HOST:PORT`, without a trailing slash.
    pub base: String,
    /// Its process, when it runs here (spawned, or `--pid`).
    pub pid: Option<u32>,
    /// The child and its database, when the tool started it.
    spawned: Option<Spawned>,
}

/// A `ludus serve` child, killed (and its database removed) when dropped.
#[derive(Debug)]
struct Spawned {
    child: Child,
    _dir: TempDir,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Target {
    /// A running server at `url` (`http://HOST:PORT`), whose process is `pid` if given.
    pub fn at(url: &str, pid: Option<u32>) -> Result<Target> {
        let base = url.trim().trim_end_matches('/');
        let rest = base
            .strip_prefix("http://")
            .or_else(|| base.strip_prefix("https://"));
        if rest.is_none_or(|host| host.is_empty() || host.contains('/')) {
            bail!("bad --url '{url}': expected http://HOST:PORT");
        }
        Ok(Target {
            base: base.to_string(),
            pid,
            spawned: None,
        })
    }

    /// Starts `ludus serve --addr 127.0.0.1:0 --db TMP` with the `ludus` binary `server_bin`
    /// names (else [`server_binary`]'s) and waits for the URL it prints first.
    pub fn spawn(server_bin: Option<&Path>) -> Result<Target> {
        let exe = server_bin.map_or_else(server_binary, Path::to_path_buf);
        let dir = tempfile::tempdir().context("cannot create a temporary database directory")?;
        let db = dir.path().join("loadtest.sqlite3");
        let mut command = Command::new(&exe);
        command.args(["serve", "--addr", "127.0.0.1:0", "--db"]);
        command.arg(&db).args(UNLIMITED);
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| {
                format!(
                    "cannot start '{} serve': expected the ludus binary beside this one, on the PATH or named by --server-bin",
                    exe.display()
                )
            })?;
        let url = first_line(&mut child);
        let spawned = Spawned { child, _dir: dir };
        let url = url?;
        let mut target = Target::at(&url, Some(spawned.child.id()))?;
        target.spawned = Some(spawned);
        Ok(target)
    }

    /// Whether the tool started the server.
    pub fn is_spawned(&self) -> bool {
        self.spawned.is_some()
    }

    /// The WebSocket address of `path` (`/api/games/ID/ws?token=...`).
    pub fn ws_url(&self, path: &str) -> String {
        format!("ws{}{path}", &self.base[4..])
    }

    /// The server's resident memory, in KiB.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid?)).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// The CPU time the server has used (user and system), in seconds.
    pub fn cpu_seconds(&self) -> Option<f64> {
        cpu_seconds(&self.pid?.to_string())
    }
}

/// The CPU time process `pid` (or `self`) has used, user and system, in seconds.
pub fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: count fields after the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux reports these in USER_HZ, 100 per second on every mainstream configuration.
    Some(ticks as f64 / 100.0)
}

/// The `ludus` binary beside this one (both are built into the same folder, and installed
/// side by side), else the one on the `PATH`.
fn server_binary() -> PathBuf {
    let name = format!("ludus{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(&name)))
        .filter(|beside| beside.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// The URL the spawned server prints as its first line; its later output is drained.
fn first_line(child: &mut Child) -> Result<String> {
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| anyhow!("the spawned server has no standard output"))?;
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .context("cannot read the spawned server's address")?;
    if line.trim().is_empty() {
        bail!("the spawned server exited before printing its address (see its error above)");
    }
    // A full pipe would stop the server; nobody reads what it prints later.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    Ok(line.trim().to_string())
}
