//! What the bot tells its operator: each event (connected, a challenge answered, a seek
//! posted, a game started, a move played, a game over) as one JSON object per line on stdout
//! with `--json`, or as a short line on stderr; notices (a lost connection and its retry, an
//! engine's failure) always as a line on stderr. Text from the server is escaped before it
//! reaches a terminal.

use std::io::Write;

use serde_json::Value;

use ludus_engine::printable::printable;

/// Where events go.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    json: bool,
}

impl Reporter {
    /// JSON lines on stdout with `json`, human lines on stderr otherwise.
    pub fn new(json: bool) -> Reporter {
        Reporter { json }
    }

    /// An event: `json` (an object with `"event"`) on stdout, or `human` on stderr. A
    /// closed stdout does not stop the bot.
    pub fn event(self, json: &Value, human: impl FnOnce() -> String) {
        if self.json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{json}").and_then(|()| out.flush());
        } else {
            notice(&human());
        }
    }
}

/// A line on stderr (`ludus-bot: TEXT`), control characters escaped.
pub fn notice(text: &str) {
    let _ = writeln!(std::io::stderr(), "ludus-bot: {}", printable(text));
}
