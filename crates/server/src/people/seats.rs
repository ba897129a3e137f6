//! The seats people hold: a seat taken by a signed-in person (at creation, by a claim, by
//! pairing) is written here, so that the person finds the game and its seat token from any
//! browser once signed in, and their profile lists it.

use rusqlite::params;
use serde::Serialize;

use super::People;
use crate::error::ApiError;
use crate::live::unix_ms;

/// A seat an account holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeldSeat {
    /// The game.
    pub game_id: String,
    /// The seat, 1-based.
    pub seat: usize,
}

impl People {
    /// Notes that account `user_id` holds `seat` (1-based) of `game_id`.
    pub async fn hold_seat(
        &self,
        game_id: &str,
        seat: usize,
        user_id: i64,
    ) -> Result<(), ApiError> {
        self.hold_seats(game_id, &[(seat, user_id)]).await
    }

    /// Notes that each `(seat, user_id)` of `seats` is held in `game_id`, in one transaction
    /// (one disk sync for the whole game, not one per seat), awaited with no thread held: it
    /// is written as a game starts, on the way of every game a signed-in person creates.
    pub async fn hold_seats(&self, game_id: &str, seats: &[(usize, i64)]) -> Result<(), ApiError> {
        let now = unix_ms() as i64;
        let (game_id, seats) = (game_id.to_string(), seats.to_vec());
        self.write(move |db| {
            for &(seat, user_id) in &seats {
                db.execute(
                    "INSERT OR REPLACE INTO game_seats (game_id, seat, user_id, created_ms) VALUES (?1, ?2, ?3, ?4)",
                    params![game_id, seat as i64, user_id, now],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// The seats account `user_id` holds, newest game first, at most `limit`.
    pub fn held_seats(&self, user_id: i64, limit: usize) -> Result<Vec<HeldSeat>, ApiError> {
        self.with_db(|db| {
            let mut query = db.prepare_cached(
                "SELECT game_id, seat FROM game_seats WHERE user_id = ?1
                 ORDER BY created_ms DESC, game_id LIMIT ?2",
            )?;
            let rows = query.query_map(params![user_id, limit as i64], |r| {
                Ok(HeldSeat {
                    game_id: r.get(0)?,
                    seat: usize::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                })
            })?;
            rows.collect()
        })
    }

    /// The account holding each seat of `game_id` (index 0 for seat 1), `None` where none.
    pub fn seat_holders(&self, game_id: &str, seats: usize) -> Result<Vec<Option<i64>>, ApiError> {
        let pairs: Vec<(i64, i64)> = self.with_db(|db| {
            let mut query =
                db.prepare_cached("SELECT seat, user_id FROM game_seats WHERE game_id = ?1")?;
            let rows = query.query_map([game_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        })?;
        let mut holders = vec![None; seats];
        for (seat, user) in pairs {
            if let Some(slot) = usize::try_from(seat - 1)
                .ok()
                .and_then(|i| holders.get_mut(i))
            {
                *slot = Some(user);
            }
        }
        Ok(holders)
    }
}
