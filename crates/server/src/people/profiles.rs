//! A player's profile as `GET /api/players/NAME` answers it: the name, whether a bot, the
//! profile's text, and per game and clock class the rating with its wins, draws and losses
//! and its history (at most the last [`HISTORY`] points), plus the last seats held.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::ratings::Rating;
use super::{Account, People};
use crate::error::ApiError;

/// The most rating points per game and class a profile carries.
const HISTORY: i64 = 200;

/// One point of a rating's history.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// When the game that changed it ended.
    pub at_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// That game.
    pub game_id: String,
}

/// A rating on a profile.
#[derive(Clone, Debug, Serialize)]
pub struct RatingLine {
    /// The game's id.
    pub game: String,
    /// `fast`, `slow` or `correspondence`.
    pub class: String,
    /// The rating, unrounded.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Still provisional.
    pub provisional: bool,
    /// As shown ("1500?", "1623").
    pub shown: String,
    /// Rated wins.
    pub wins: i64,
    /// Rated draws.
    pub draws: i64,
    /// Rated losses.
    pub losses: i64,
    /// Oldest first.
    pub history: Vec<Point>,
}

/// A player's profile, without the games (the route adds them from the live games).
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    /// Name, bot.
    #[serde(flatten)]
    pub account: Account,
    /// The profile's text, to be shown as text.
    pub about: String,
    /// When the account was made.
    pub created_ms: i64,
    /// One per game and class played rated.
    pub ratings: Vec<RatingLine>,
}

impl People {
    /// The profile of `name`, `None` for no such (open) account.
    pub fn profile(&self, name: &str) -> Result<Option<Profile>, ApiError> {
        let Some(account) = self.find(name)? else {
            return Ok(None);
        };
        let id = account.id;
        self.with_db(|db| {
            let (about, created_ms) = db.query_row(
                "SELECT about, created_ms FROM users WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let mut query = db.prepare_cached(
                "SELECT game, class, rating, deviation, volatility, wins, draws, losses
                 FROM ratings WHERE user_id = ?1 ORDER BY game, class",
            )?;
            let mut ratings = query
                .query_map([id], |r| {
                    let rating = Rating {
                        rating: r.get(2)?,
                        deviation: r.get(3)?,
                        volatility: r.get(4)?,
                    };
                    Ok(RatingLine {
                        game: r.get(0)?,
                        class: r.get(1)?,
                        rating: rating.rating,
                        deviation: rating.deviation,
                        volatility: rating.volatility,
                        provisional: rating.provisional(),
                        shown: rating.shown(),
                        wins: r.get(5)?,
                        draws: r.get(6)?,
                        losses: r.get(7)?,
                        history: Vec::new(),
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            for line in &mut ratings {
                let mut points = db.prepare_cached(
                    "SELECT at_ms, rating, game_id FROM rating_history
                     WHERE user_id = ?1 AND game = ?2 AND class = ?3 ORDER BY id DESC LIMIT ?4",
                )?;
                line.history = points
                    .query_map(params![id, line.game, line.class, HISTORY], |r| {
                        Ok(Point {
                            at_ms: r.get(0)?,
                            rating: r.get(1)?,
                            game_id: r.get(2)?,
                        })
                    })?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                line.history.reverse();
            }
            Ok(Some(Profile {
                account,
                about,
                created_ms,
                ratings,
            }))
        })
    }

    /// The game (registry id) and the score account `user_id` got in the rated game
    /// `game_id` (the rules' reward: 1 for a win), `None` if that game was not rated.
    pub fn rated_result(
        &self,
        user_id: i64,
        game_id: &str,
    ) -> Result<Option<(String, f64)>, ApiError> {
        self.with_db(|db| {
            db.query_row(
                "SELECT game, score FROM rating_history WHERE user_id = ?1 AND game_id = ?2",
                params![user_id, game_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
    }
}
