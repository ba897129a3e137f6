//! The clocks as a `clock` change stores them: the seats' remaining times, or a
//! correspondence clock's deadline. A typed value; the SQLite layer gives it its text form
//! (`sqlite/rows.rs`), and [`Clocks::restore`](super::clock::Clocks::restore) checks it
//! against the game it is read back into.

use ludus_engine::Seat;
use thiserror::Error;

/// A correspondence clock's deadline: the seat it runs for, in which turn (the completed
/// turns before it), and when it passes (Unix ms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The seat whose time runs.
    pub seat: Seat,
    /// The completed turns before the one it runs in.
    pub turn: u32,
    /// When it passes, Unix milliseconds.
    pub at_ms: u64,
}

/// The clocks after a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockRow {
    /// A timed game's remaining times, one per seat, in milliseconds (negative once a seat
    /// has overstepped).
    Remaining(Vec<i64>),
    /// A correspondence game's running deadline, or none (the game is over or waits for an
    /// invited player).
    Deadline(Option<Deadline>),
}

/// Why a stored clock row does not fit the game it is read back into.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ClockRowMismatch {
    /// Remaining times for a correspondence clock, or a deadline for a timed one.
    #[error("a {found} row for a {expected} clock")]
    Kind {
        /// What the row holds.
        found: &'static str,
        /// What the game's clock keeps.
        expected: &'static str,
    },
    /// Remaining times for another number of seats.
    #[error("{found} remaining times for a game of {seats} seats")]
    Seats {
        /// How many times the row holds.
        found: usize,
        /// How many seats play.
        seats: usize,
    },
    /// A deadline for a seat the game does not have.
    #[error("a deadline for seat {seat} in a game of {seats} seats")]
    DeadlineSeat {
        /// The row's seat (1-based).
        seat: usize,
        /// How many seats play.
        seats: usize,
    },
}

impl ClockRow {
    /// What the row holds, in words.
    pub fn kind(&self) -> &'static str {
        match self {
            ClockRow::Remaining(_) => "remaining times",
            ClockRow::Deadline(_) => "deadline",
        }
    }
}
