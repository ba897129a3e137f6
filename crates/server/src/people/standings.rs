//! Ratings as stored: one Glicko-2 rating per account, game and clock class, changed once per
//! rated game (the game's id is unique in the history, so a game is never rated twice), with
//! the wins, draws and losses; and what profiles and leaderboards read.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::ratings::{rate_game, ClockClass, Rating};
use super::People;
use crate::error::ApiError;
use crate::live::unix_ms;

/// A seat's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingChange {
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The player's name.
    pub name: String,
    /// A bot.
    pub bot: bool,
    /// The rating, unrounded.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// As shown ("1623").
    pub shown: String,
    /// Rated games played.
    pub games: i64,
}

impl People {
    /// The rating of account `user_id` in `game` and `class` (the starting rating if none).
    pub fn rating(&self, user_id: i64, game: &str, class: ClockClass) -> Result<Rating, ApiError> {
        self.with_db(|db| read_rating(db, user_id, game, class))
    }

    /// Rates the finished game `game_id` of `game` in `class`: `holders[i]` held seat i and
    /// scored `scores[i]` (the rules' reward). Every seat is rated against the others'
    /// ratings before the game, in one transaction. A game already rated answers the changes
    /// stored then.
    pub async fn rate(
        &self,
        game_id: &str,
        game: &str,
        class: ClockClass,
        holders: &[i64],
        scores: &[f64],
    ) -> Result<Vec<RatingChange>, ApiError> {
        let (game_id, game, holders, scores) = (
            game_id.to_string(),
            game.to_string(),
            holders.to_vec(),
            scores.to_vec(),
        );
        // One job of the games' writer: the ratings are read and written in its transaction,
        // so nothing else writes between the read and the write.
        self.write(move |db| {
            let befores = holders
                .iter()
                .map(|&user| read_rating(db, user, &game, class))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let done: Option<i64> = db
                .query_row("SELECT 1 FROM rating_history WHERE game_id = ?1 LIMIT 1", [&game_id], |r| r.get(0))
                .optional()?;
            if done.is_some() {
                return Ok(Vec::new());
            }
            let afters = rate_game(&befores, &scores);
            for (index, (&user, after)) in holders.iter().zip(&afters).enumerate() {
                write_rating(db, user, &game, class, after, &scores, index)?;
                db.execute(
                    "INSERT INTO rating_history (user_id, game, class, game_id, rating, deviation, score, at_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![user, game, class.as_str(), game_id, after.rating, after.deviation, scores[index], unix_ms() as i64],
                )?;
            }
            Ok(befores
                .into_iter()
                .zip(afters)
                .map(|(before, after)| RatingChange { before, after })
                .collect())
        })
        .await
    }

    /// The best-rated players of `game` in `class` whose rating is no longer provisional.
    pub fn leaderboard(
        &self,
        game: &str,
        class: ClockClass,
        limit: usize,
    ) -> Result<Vec<Standing>, ApiError> {
        self.with_db(|db| {
            let mut query = db.prepare_cached(
                "SELECT u.name, u.bot, r.rating, r.deviation, r.wins + r.draws + r.losses
                 FROM ratings r JOIN users u ON u.id = r.user_id
                 WHERE r.game = ?1 AND r.class = ?2 AND u.banned = 0 AND r.deviation <= ?3
                 ORDER BY r.rating DESC LIMIT ?4",
            )?;
            let rows = query.query_map(
                params![
                    game,
                    class.as_str(),
                    super::ratings::PROVISIONAL_DEVIATION,
                    limit as i64
                ],
                |r| {
                    let rating = Rating {
                        rating: r.get(2)?,
                        deviation: r.get(3)?,
                        volatility: 0.06,
                    };
                    Ok(Standing {
                        name: r.get(0)?,
                        bot: r.get(1)?,
                        rating: rating.rating,
                        deviation: rating.deviation,
                        shown: rating.shown(),
                        games: r.get(4)?,
                    })
                },
            )?;
            rows.collect()
        })
    }
}

fn read_rating(
    db: &rusqlite::Connection,
    user_id: i64,
    game: &str,
    class: ClockClass,
) -> rusqlite::Result<Rating> {
    let stored = db
        .query_row(
            "SELECT rating, deviation, volatility FROM ratings WHERE user_id = ?1 AND game = ?2 AND class = ?3",
            params![user_id, game, class.as_str()],
            |r| Ok(Rating { rating: r.get(0)?, deviation: r.get(1)?, volatility: r.get(2)? }),
        )
        .optional()?;
    Ok(stored.unwrap_or_default())
}

fn write_rating(
    transaction: &rusqlite::Connection,
    user_id: i64,
    game: &str,
    class: ClockClass,
    after: &Rating,
    scores: &[f64],
    seat: usize,
) -> rusqlite::Result<()> {
    // Win, draw or loss as a person reads it: the best score wins; a shared best is a draw.
    let best = scores.iter().copied().fold(0.0_f64, f64::max);
    let sharing = scores.iter().filter(|&&s| s >= best).count();
    let (win, draw, loss) = match scores[seat] {
        s if s >= best && sharing == 1 => (1, 0, 0),
        s if s >= best => (0, 1, 0),
        _ => (0, 0, 1),
    };
    transaction.execute(
        "INSERT INTO ratings (user_id, game, class, rating, deviation, volatility, wins, draws, losses)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (user_id, game, class) DO UPDATE SET
             rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,
             wins = wins + excluded.wins, draws = draws + excluded.draws, losses = losses + excluded.losses",
        params![user_id, game, class.as_str(), after.rating, after.deviation, after.volatility, win, draw, loss],
    )?;
    Ok(())
}
