//! Outside engines in the arena (and for `ludus-bot`): a process that speaks UGI over its
//! stdin and stdout.
//!
//! The arena starts a fresh process for every game an engine plays (so a crash or a hang
//! costs one game, never the tournament), does the handshake (`ugi` … `ugiok`, the rules
//! options as `setoption`, `isready` … `readyok`), and for each decision sends `position` and
//! `go movetime MS` (or the clocks, `go wtime W btime B winc I binc I`) and waits for
//! `bestmove` until the move time (or the seat's clock) plus a margin. Every failure
//! is a [`Forfeit`] with a reason a person can read; the engine's whole process group is killed
//! when the game ends (see `engine_process`), whether it ended, failed or timed out.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::engine_process;

/// An outside engine as given on the command line: `NAME=COMMAND ARGS...` (arguments are
/// separated by spaces; no shell quoting).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSpec {
    /// The name shown in tables and records.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
}

/// Text that is not `NAME=COMMAND ARGS`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "bad engine '{0}': expected NAME=COMMAND ARGS (a name without spaces or '=', then the program)"
)]
pub struct EngineSpecError(pub String);

impl FromStr for EngineSpec {
    type Err = EngineSpecError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || EngineSpecError(text.chars().take(80).collect());
        let (name, command) = text.split_once('=').ok_or_else(bad)?;
        let name = name.trim();
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if name.is_empty() || name.contains(char::is_whitespace) || command.is_empty() {
            return Err(bad());
        }
        Ok(EngineSpec {
            name: name.to_string(),
            command,
        })
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.command.join(" "))
    }
}

/// Why an engine lost a game without the rules deciding it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Forfeit(pub String);

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// One running engine process.
#[derive(Debug)]
pub struct UgiClient {
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Whether the engine answered the last request: only then is it known to read its input,
    /// so that writing `quit` cannot block on a full pipe.
    answered: bool,
    /// The score of the last `info` line of the last search that had one (`cp 20`).
    score: Option<String>,
}

impl UgiClient {
    /// Starts `spec` and does the handshake, setting each rules option.
    pub fn start(spec: &EngineSpec, options: &[(String, String)]) -> Result<Self, Forfeit> {
        let name = spec.name.clone();
        let mut command = Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = engine_process::spawn(&mut command)
            .map_err(|e| Forfeit(format!("{name} did not start: {e}")))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            engine_process::end(&mut child);
            return Err(Forfeit(format!("{name} did not start: no pipes")));
        };
        let (send, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut line = Vec::new();
            // Lines are read as bytes: an engine's invalid UTF-8 is its garbage, not our error.
            // A line is cut at 1 MiB, so an engine cannot fill the memory with one line.
            while (&mut reader)
                .take(1 << 20)
                .read_until(b'\n', &mut line)
                .is_ok_and(|n| n > 0)
            {
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                if send.send(text).is_err() {
                    break;
                }
                line.clear();
            }
        });
        let mut client = UgiClient {
            name,
            child,
            input,
            lines,
            answered: false,
            score: None,
        };
        client.send("ugi")?;
        client.wait_for("ugiok", HANDSHAKE, true)?;
        for (key, value) in options {
            client.send(&format!("setoption name {key} value {value}"))?;
        }
        client.send("uginewgame")?;
        client.send("isready")?;
        client.wait_for("readyok", HANDSHAKE, true)?;
        client.answered = true;
        Ok(client)
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|_| self.crashed())
    }

    /// The engine's end, with its exit status if it has one yet.
    fn crashed(&mut self) -> Forfeit {
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => break None,
            }
        };
        let status = status.map_or_else(String::new, |s| format!(" ({s})"));
        Forfeit(format!("{} crashed or closed its pipe{status}", self.name))
    }

    /// Reads lines until one that is `word` or starts with `word `; returns the rest of it.
    /// With `lenient`, other lines are skipped (the handshake's `id` and `option` lines);
    /// otherwise only `info` lines and blank lines may come first.
    fn wait_for(&mut self, word: &str, limit: Duration, lenient: bool) -> Result<String, Forfeit> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix(word) {
                        if rest.is_empty() || rest.starts_with(' ') {
                            return Ok(rest.trim().to_string());
                        }
                    }
                    let expected = line.is_empty() || line == "info" || line.starts_with("info ");
                    if let Some(score) = info_score(&line) {
                        self.score = Some(score);
                    }
                    if !lenient && !expected {
                        let shown: String = line
                            .chars()
                            .take(40)
                            .map(|c| if c.is_control() { '?' } else { c })
                            .collect();
                        return Err(Forfeit(format!(
                            "{} sent garbage '{shown}' (expected info or {word})",
                            self.name
                        )));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Forfeit(format!(
                        "{} exceeded its time: no {word} within {} ms",
                        self.name,
                        limit.as_millis()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    /// Sends `position` (a `position ...` command) and `go` (a `go ...` command with any
    /// limits: a move time, clocks) and returns the `bestmove` text, waiting at most `limit`.
    pub fn search(&mut self, position: &str, go: &str, limit: Duration) -> Result<String, Forfeit> {
        self.answered = false;
        self.score = None;
        self.send(position)?;
        self.send(go)?;
        let best = self.wait_for("bestmove", limit, false)?;
        self.answered = true;
        match best.split_whitespace().next() {
            Some(word) => Ok(word.to_string()),
            None => Err(Forfeit(format!("{} sent an empty bestmove", self.name))),
        }
    }
}

impl UgiClient {
    /// The score the engine's last `info` line with one reported in the last search, as it
    /// wrote it after `score` (`cp 20`, `mate -3`).
    pub fn last_score(&self) -> Option<&str> {
        self.score.as_deref()
    }
}

/// `cp 20` from `info depth 3 score cp 20 nodes ...`: the two words after `score`.
fn info_score(line: &str) -> Option<String> {
    let mut words = line.strip_prefix("info ")?.split_whitespace();
    // An `info string` is free text, whatever words it holds.
    if line.split_whitespace().nth(1) == Some("string") {
        return None;
    }
    words.find(|&w| w == "score")?;
    let (kind, value) = (words.next()?, words.next()?);
    let known = matches!(kind, "cp" | "mate") && value.parse::<i64>().is_ok();
    known.then(|| format!("{kind} {value}"))
}

impl Drop for UgiClient {
    fn drop(&mut self) {
        // A polite `quit` to an engine that answers, a moment to exit; a hung one is not
        // waited for. Then its whole group is killed: what it started must not outlive it.
        if self.answered {
            let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
            let deadline = Instant::now() + Duration::from_millis(100);
            while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        engine_process::end(&mut self.child);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_name_a_program_and_its_arguments() {
        let spec: EngineSpec = "mine=python3 engine.py --fast".parse().unwrap();
        assert_eq!(spec.name, "mine");
        assert_eq!(spec.command, ["python3", "engine.py", "--fast"]);
        assert_eq!(spec.to_string(), "mine=python3 engine.py --fast");
        for bad in ["noequals", "=prog", "two words=prog", "name=  "] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn info_lines_give_their_score() {
        let line = "info depth 3 score cp -20 nodes 47 pv d4";
        assert_eq!(info_score(line).as_deref(), Some("cp -20"));
        assert_eq!(info_score("info score mate 3").as_deref(), Some("mate 3"));
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("info depth 1 nodes 5"), None);
    }

    #[test]
    fn a_missing_program_forfeits_with_its_name() {
        let spec: EngineSpec = "ghost=/nonexistent/engine".parse().unwrap();
        let err = UgiClient::start(&spec, &[]).unwrap_err();
        assert!(err.0.starts_with("ghost did not start"), "{}", err.0);
    }
}
