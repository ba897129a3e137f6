//! Two-step Nim, the engine's demo game ([`ludus_engine::demo`]), registered as a sixth,
//! throwaway game only with the `extra-game` feature: CI runs the whole test suite with it, so
//! that a test written for the five games that does not take its games from the registry, or
//! skips one it does not know, fails. It is also the smallest example of what a registered
//! game adds beside its rules: a record format and the option sets the tests play.
//!
//! ```
//! use ludus_engine::{Notation, Rules};
//!
//! let mut game = ludus_games::new_game("nim", &["pile=4".to_string()], None, 0).unwrap();
//! game.play("2+1").unwrap();
//! assert_eq!(game.position(), "1 2 0");
//! ```

mod record;

pub(crate) use record::RECORD;

pub use ludus_engine::demo::{Nim, NimOptions};

use crate::TestData;

/// What the tests that run over every game play: a small pile and the largest.
pub(crate) static TESTS: TestData = TestData {
    variants: &[&["pile=3"], &["pile=60"]],
    // Three stones at the start of a turn: 1+2 and 2+1 take the last stone, 1+1 does not.
    win_in_one: "3 1 0",
};
