//! Messages and commands: everything that happens to the app arrives as one [`Msg`]; every
//! side effect `update` wants (start a search, write a file) leaves as a [`Cmd`] the loop runs.

use std::path::PathBuf;

use ludus_ai::{AnyAnalysis, StopFlag};
use ludus_engine::{AnyGame, GameRecord};
use ratatui::crossterm::event::{KeyEvent, MouseEvent};

use super::worker::Job;

/// One input to `update`.
#[derive(Debug)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event (only left clicks matter).
    Mouse(MouseEvent),
    /// The terminal's new size (columns, rows).
    Resize(u16, u16),
    /// Time passes: spinners turn, computer-move delays count down.
    Tick,
    /// A computer player's decision (with its evaluation), or why there is none.
    AiMove {
        /// The job it answers.
        job: u64,
        /// What the search found.
        result: Result<AnyAnalysis, String>,
    },
    /// A search's progress: the best found so far after an iteration.
    AiInfo {
        /// The job it belongs to.
        job: u64,
        /// The best found so far.
        analysis: AnyAnalysis,
    },
    /// A hint: the decision a strong computer player would make.
    Hint {
        /// The job it answers.
        job: u64,
        /// What the search found.
        result: Result<AnyAnalysis, String>,
    },
    /// A save finished.
    Saved {
        /// Where.
        path: PathBuf,
        /// What went wrong, if anything.
        result: Result<(), String>,
    },
    /// The saved games found for the load prompt, newest first.
    SavesFound(Vec<String>),
    /// The theme could not be remembered, and why.
    ThemeNotRemembered(String),
    /// A saved game was read and replayed through the rules.
    Loaded {
        /// From where.
        path: PathBuf,
        /// The game, or why it could not be loaded.
        result: Result<AnyGame, String>,
    },
}

/// A side effect for the loop to run.
#[derive(Debug)]
pub enum Cmd {
    /// Start a computer search.
    Think(Job),
    /// Make a running search return at once.
    Stop(StopFlag),
    /// Write a record (atomically).
    Save {
        /// Where.
        path: PathBuf,
        /// What.
        record: Box<GameRecord>,
    },
    /// Read a record and replay it.
    Load(PathBuf),
    /// List the saved games (`.json`, `.txt`) in the current directory for the load prompt.
    ListSaves,
    /// Remember the theme (by index) for the next run.
    RememberTheme(usize),
    /// Leave the app.
    Quit,
    /// Several effects in order.
    Batch(Vec<Cmd>),
}

impl Cmd {
    /// Both effects, in order.
    pub fn then(first: Option<Cmd>, second: Option<Cmd>) -> Option<Cmd> {
        match (first, second) {
            (None, c) | (c, None) => c,
            (Some(Cmd::Batch(mut a)), Some(b)) => {
                a.push(b);
                Some(Cmd::Batch(a))
            }
            (Some(a), Some(b)) => Some(Cmd::Batch(vec![a, b])),
        }
    }
}
