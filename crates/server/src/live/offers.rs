//! Between people (a game with invited seats): a move is taken back only through a takeback
//! request the other side accepts; within an unfinished turn the mover may still take back
//! their own steps. An offer waits in the snapshot (`offer`) until it is answered or any
//! change to the game clears it.

use ludus_engine::{AnyGame, Seat};
use serde_json::{json, Value};

use super::{LiveGame, Table};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::Change;

/// A request waiting for the other side's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The seat that asks.
    pub from: Seat,
}

impl Offer {
    /// The snapshot's `offer`.
    pub fn json(self) -> Value {
        json!({"kind": "takeback", "from": self.from.number()})
    }
}

impl Table {
    /// Between people, undo and redo stay within the mover's own unfinished turn.
    pub fn check_own_steps(&self, token: &str) -> Result<(), ApiError> {
        if !self.between_people {
            return Ok(());
        }
        let own = self.seat_of(token).is_some_and(|seat| {
            self.game.to_move() == Some(seat)
                && self
                    .game
                    .history()
                    .last()
                    .is_some_and(|turn| !turn.complete && turn.seat == seat)
        });
        if own {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                "against a person a move is taken back only through an accepted takeback: expected POST /api/games/{id}/offer {\"token\":…,\"kind\":\"takeback\"}",
            ))
        }
    }
}

/// The game taken back to the start of `seat`'s last turn, and how many decisions that is.
fn taken_back(game: &AnyGame, seat: Seat) -> Option<(AnyGame, usize)> {
    let mut game = game.clone();
    let mut undone = 0;
    while game.undo() {
        undone += 1;
        let turn_start = game.history().last().is_none_or(|t| t.complete);
        if turn_start && game.to_move() == Some(seat) {
            return Some((game, undone));
        }
    }
    None
}

impl LiveGame {
    /// `token`'s seat asks to take back its last turn.
    pub fn offer(&self, token: &str, kind: &str) -> Result<(), ApiError> {
        if kind != "takeback" {
            return Err(ApiError::unprocessable(format!(
                "offer '{kind}': expected \"takeback\" (draw offers are not available yet)"
            )));
        }
        let mut table = self.lock();
        let seat = table.require_seat(token)?;
        if table.game.outcome().is_some() {
            return Err(ApiError::unprocessable(
                "the game is over: nothing to take back",
            ));
        }
        if taken_back(&table.game, seat).is_none() {
            return Err(ApiError::unprocessable(
                "nothing to take back: this seat has not played a turn yet",
            ));
        }
        table.offer = Some(Offer { from: seat });
        self.refresh(&mut table);
        Ok(())
    }

    /// Another seat accepts or declines the waiting request.
    pub fn answer(&self, hub: &Hub, token: &str, accept: bool) -> Result<Value, ApiError> {
        let mut table = self.lock();
        let seat = table.require_seat(token)?;
        let Some(offer) = table.offer else {
            return Err(ApiError::unprocessable(
                "no request is waiting for an answer",
            ));
        };
        if offer.from == seat {
            return Err(ApiError::forbidden(
                "a request is answered by the other side: expected another seat's token",
            ));
        }
        table.offer = None;
        if !accept {
            self.refresh(&mut table);
            return Ok(json!({"accepted": false}));
        }
        let (game, undone) = taken_back(&table.game, offer.from)
            .ok_or_else(|| ApiError::unprocessable("nothing left to take back"))?;
        hub.store
            .log(&self.id, Change::Undo(undone))
            .map_err(|e| ApiError::unavailable(format!("the game could not be stored: {e}")))?;
        table.stop_searches();
        table.game = game;
        table.analysis = None;
        let job = self.commit(&mut table, hub, &[]);
        debug_assert!(job.is_none(), "between people no computer is to move");
        Ok(json!({"accepted": true, "undone": undone}))
    }

    /// Shows a changed offer without a change to the game (`seq` stays).
    pub(super) fn refresh(&self, table: &mut Table) {
        table.rebuild_snapshot(&self.id);
        self.broadcast(table.snapshot_frame());
    }
}
