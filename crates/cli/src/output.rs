//! Standard output for every command, written so that a closed or full output is an error
//! the caller can return, never a panic (`println!` panics when stdout fails).
//!
//! Commands print with [`outln!`] and [`out!`] and pass failures up with `?`; `main` turns
//! them into the exit: a closed pipe (`ludus moves replica | head -1`) ends quietly with
//! status 0, because the reader has all it wanted; any other failure (`> /dev/full`) is one
//! error line and status 1.

use std::fmt;
use std::io::{self, Write};

/// Writing to standard output failed.
#[derive(Debug)]
pub struct StdoutError(pub io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

impl StdoutError {
    /// Whether the reader went away (a pipe closed): not a failure of ours.
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == io::ErrorKind::BrokenPipe
    }
}

/// Writes `args` to standard output.
pub fn write(args: fmt::Arguments<'_>) -> Result<(), StdoutError> {
    io::stdout().lock().write_fmt(args).map_err(StdoutError)
}

/// Sends what is buffered (a prompt without a newline, the last lines at exit).
pub fn flush() -> Result<(), StdoutError> {
    io::stdout().lock().flush().map_err(StdoutError)
}

/// Prints like `print!`, returning a [`StdoutError`] instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}

/// Prints like `println!`, returning a [`StdoutError`] instead of panicking.
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
