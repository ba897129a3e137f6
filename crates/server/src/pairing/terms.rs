//! The terms of a game people ask for (a seek, a challenge, a pool, a rematch): the game, its
//! rules options, the clock and whether it is rated; checked when asked for, so that a game
//! made from them later cannot fail on them.

use ludus_games::new_game;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::ApiError;
use crate::live::{check_clock, option_pair, ClockSetup};
use crate::people::ratings::ClockClass;

/// What a game will be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terms {
    /// The game's id.
    pub game: String,
    /// Rules options by key.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The clocks, the same for every seat; none for a game without clocks.
    #[serde(default)]
    pub clock: Option<ClockSetup>,
    /// Rated.
    #[serde(default)]
    pub rated: bool,
}

impl Terms {
    /// Checks the terms: a game of the registry with options its rules take, 2 to 4 seats, a
    /// clock within the limits. Answers the number of seats.
    pub fn check(&self) -> Result<usize, ApiError> {
        let pairs: Vec<String> = self
            .options
            .iter()
            .map(|(key, value)| option_pair(key, value))
            .collect::<Result<_, _>>()?;
        let game = new_game(&self.game, &pairs, None, 0)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        if let Some(clock) = self.clock {
            check_clock(clock)?;
        }
        Ok(game.seat_count())
    }

    /// The clock class the game is rated in.
    pub fn class(&self) -> ClockClass {
        ClockSetup::class_of(self.clock.as_ref())
    }
}
