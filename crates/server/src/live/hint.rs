//! Hints: a short level-4 search for the seat to move, run like a computer's move (a worker
//! thread, a search slot charged to the client who asked, a stop flag that undo, resignation
//! and deletion raise). Not in a game between people, where the computer would be playing for
//! one of them. A client with `max_queued_hints` hints already waiting for a slot gets a 429.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use axum::http::StatusCode;
use ludus_ai::{AnyAnalysis, StopFlag, LEVEL_FIVE_WITHIN};
use ludus_engine::{AnyGame, Seat};
use serde_json::{json, Value};

use super::agents;
use super::analysis::analysis_view;
use super::LiveGame;
use crate::client::ClientId;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::scheduler::{Purpose, Refusal};

/// A hint about to be searched: the position, the seat, and the flag that stops it.
struct Asked {
    position: AnyGame,
    seat: Seat,
    seq: u64,
    stop: StopFlag,
    cell_names: Vec<String>,
}

/// The hint for the seat to move, asked by the holder of `token` from `client`.
pub async fn hint(
    game: &Arc<LiveGame>,
    hub: &Arc<Hub>,
    token: &str,
    client: Option<ClientId>,
) -> Result<Value, ApiError> {
    let asked = ask(game, hub, token)?;
    // However this ends (answered, refused, or the asker gone), the table forgets the hint.
    let done = Done(asked.stop.clone());
    // Level 4 with the exact solver level 5 uses near the end: a proved position reads
    // "wins in 3 turns" rather than a score.
    let spec = format!(
        "ai:4:time={},solve={LEVEL_FIVE_WITHIN}",
        hub.config.hint_seconds
    );
    let slot = hub
        .searches
        .acquire(client, Purpose::Hint, 1, &asked.stop)
        .await
        .map_err(|refusal| match refusal {
            Refusal::TooManyHints(max) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many hints waiting from this client: expected at most {max} at once; try again when one is answered"),
            ),
            Refusal::Cancelled => {
                ApiError::conflict("no hint: the game changed while the hint waited for a search")
            }
        })?;
    let (position, stop, seq) = (asked.position.clone(), asked.stop.clone(), asked.seq);
    let found = tokio::task::spawn_blocking(move || {
        let result = search(&position, &spec, seq, &stop);
        drop(slot); // charges the search to the client and passes the slot on
        result
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()))
    .map_err(|e| ApiError::unprocessable(format!("no hint: {e}")))?;
    drop(done);
    Ok(answer(&asked, &found))
}

/// Raises a hint's stop flag when dropped: the table forgets raised flags, so a hint that
/// ends in any way no longer counts against the game's hints at once.
struct Done(StopFlag);

impl Drop for Done {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// Checks the token and the game, and registers the hint's stop flag.
fn ask(game: &LiveGame, hub: &Hub, token: &str) -> Result<Asked, ApiError> {
    let mut table = game.lock();
    let refuse = |error: ApiError, snapshot| Err(ApiError::with_snapshot(error, snapshot));
    if let Err(error) = table.require_member(token) {
        return refuse(error, table.snapshot());
    }
    if table.between_people {
        // The server is the referee of a game between people: a hint would let the computer
        // play for one of them.
        return refuse(
            ApiError::unprocessable(
                "no hint: hints are off in a game between people; expected a game against the computer or on one screen",
            ),
            table.snapshot(),
        );
    }
    let Some(seat) = table.game.to_move() else {
        return refuse(
            ApiError::unprocessable("no hint: the game is over"),
            table.snapshot(),
        );
    };
    table.hint_stops.retain(|s| !s.is_raised());
    if table.hint_stops.len() >= hub.config.max_hints {
        let busy = ApiError::unavailable(
            "hints are already being searched for this game: expected one at a time",
        );
        return refuse(busy, table.snapshot());
    }
    let stop = StopFlag::default();
    table.hint_stops.push(stop.clone());
    Ok(Asked {
        position: table.game.clone(),
        seat,
        seq: table.seq,
        stop,
        cell_names: table.cell_names.clone(),
    })
}

/// The search, on a worker thread; a panic in it becomes an error.
fn search(
    position: &AnyGame,
    spec: &str,
    seed: u64,
    stop: &StopFlag,
) -> Result<AnyAnalysis, String> {
    let run = || {
        let mut agent = agents::build(position.info().id, spec, seed).map_err(|e| e.to_string())?;
        agent
            .analyse(position, stop)
            .ok_or_else(|| "no move found".to_string())
    };
    panic::catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|_| Err("the search crashed".to_string()))
}

/// The hint as the API answers it, with the cells to click.
fn answer(asked: &Asked, found: &AnyAnalysis) -> Value {
    let legal = asked.position.legal_moves();
    let cells: Vec<&str> = legal
        .iter()
        .find(|m| m.notation == found.notation)
        .map(|m| {
            m.input
                .cells
                .iter()
                .map(|c| {
                    asked
                        .cell_names
                        .get(c.to_usize())
                        .map_or("", String::as_str)
                })
                .collect()
        })
        .unwrap_or_default();
    let view = analysis_view(found, asked.seat, asked.position.seat_count(), "hint");
    json!({
        "move": found.notation, "cells": cells, "pv": view.pv, "score_text": view.score_text,
        "bar": view.bar, "bar_seat": view.bar_seat, "depth": view.depth, "seq": asked.seq,
    })
}
