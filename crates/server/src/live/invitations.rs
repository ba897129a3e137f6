//! Seats kept for other people: an invitation per seat, given as a link
//! (`/g/{id}?seat=2&invite=...`); claiming it once hands over the seat's token, after which
//! the invitation is spent. Whoever opens the plain game link only watches.

use std::sync::Arc;

use serde_json::{json, Value};

use super::table::SeatPlayer;
use super::LiveGame;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::Change;
use crate::tokens;

/// Gives each seat of `invited` (1-based, human seats only) an invitation.
pub fn invite(seats: &mut [SeatPlayer], invited: &[usize]) -> Result<(), ApiError> {
    for &number in invited {
        let count = seats.len();
        let Some(seat) = number.checked_sub(1).and_then(|i| seats.get_mut(i)) else {
            return Err(ApiError::unprocessable(format!(
                "invite seat {number}: expected a seat number from 1 to {count}"
            )));
        };
        if seat.computer.is_some() {
            return Err(ApiError::unprocessable(format!(
                "invite seat {number}: it is a computer's; expected a human seat"
            )));
        }
        if seat.invite.is_some() {
            return Err(ApiError::unprocessable(format!(
                "invite seat {number} twice: expected each seat at most once"
            )));
        }
        seat.invite = Some(tokens::token()?);
    }
    Ok(())
}

/// The invitations of a new game: seat, invite and the link to share.
pub fn links(game: &LiveGame) -> Value {
    let table = game.lock();
    let links: Vec<Value> = table
        .seats
        .iter()
        .enumerate()
        .filter_map(|(index, s)| {
            let invite = s.invite.as_ref()?;
            let seat = index + 1;
            Some(json!({"seat": seat, "invite": invite,
                        "link": format!("/g/{}?seat={seat}&invite={invite}", game.id())}))
        })
        .collect();
    Value::Array(links)
}

impl LiveGame {
    /// Claims seat `seat` with `invite`: answers the seat's token; the invitation is spent.
    /// The claim runs to its end whatever becomes of the caller ([`to_the_end`](super::to_the_end)).
    pub async fn claim(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        seat: usize,
        invite: &str,
    ) -> Result<Value, ApiError> {
        let (game, hub, invite) = (Arc::clone(self), Arc::clone(hub), invite.to_string());
        super::to_the_end(async move { game.claim_now(&hub, seat, &invite).await }).await
    }

    async fn claim_now(&self, hub: &Hub, seat: usize, invite: &str) -> Result<Value, ApiError> {
        let _turn = self.turn().await;
        let token = self.invited_token(seat, invite)?;
        // Stored first, its commit awaited with the table unlocked and no thread held; the
        // turn keeps every other change (another claim of the seat) out meanwhile.
        hub.store
            .send(&self.id, Change::Claim(seat))
            .committed()
            .await
            .map_err(|e| ApiError::unavailable(format!("the game could not be stored: {e}")))?;
        let mut table = self.lock();
        table.seats[seat - 1].invite = None;
        table.seat_claimed(seat - 1, hub.config.grace_seconds);
        let job = self.commit(&mut table, hub, &[]);
        debug_assert!(job.is_none(), "a claim never starts a computer's search");
        Ok(json!({"seat": seat, "token": token}))
    }

    /// The token of seat `seat` (1-based) if `invite` is its open invitation.
    fn invited_token(&self, seat: usize, invite: &str) -> Result<String, ApiError> {
        let table = self.lock();
        let slot = seat.checked_sub(1).and_then(|i| table.seats.get(i));
        let Some(slot) = slot.filter(|s| s.invite.as_deref() == Some(invite)) else {
            return Err(ApiError::forbidden(format!(
                "no open invitation for seat {seat} with this code: it was already used, or expected the link the game's creator shared"
            )));
        };
        Ok(slot.token.clone().unwrap_or_default())
    }
}
