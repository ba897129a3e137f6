//! Hints: a short level-4 search for the seat to move, run like a computer's move (a worker
//! thread, a search permit, a stop flag that undo, resignation and deletion raise).

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use ludus_ai::StopFlag;
use serde_json::{json, Value};

use super::agents;
use super::analysis::analysis_view;
use super::LiveGame;
use crate::error::ApiError;
use crate::hub::Hub;

/// The hint for the seat to move, asked by the holder of `token`.
pub async fn hint(game: &Arc<LiveGame>, hub: &Arc<Hub>, token: &str) -> Result<Value, ApiError> {
    let (position, stop, seq, seat, cell_names) = {
        let mut table = game.lock();
        table
            .require_member(token)
            .map_err(|e| e.with_snapshot(table.snapshot()))?;
        let Some(seat) = table.game.to_move() else {
            return Err(ApiError::unprocessable("no hint: the game is over")
                .with_snapshot(table.snapshot()));
        };
        table.hint_stops.retain(|s| !s.is_raised());
        if table.hint_stops.len() >= hub.config.max_hints {
            return Err(ApiError::unavailable(
                "hints are already being searched for this game: expected one at a time",
            )
            .with_snapshot(table.snapshot()));
        }
        let stop = StopFlag::default();
        table.hint_stops.push(stop.clone());
        (
            table.game.clone(),
            stop,
            table.seq,
            seat,
            table.cell_names.clone(),
        )
    };
    let spec = format!("ai:4:time={}", hub.config.hint_seconds);
    let permit = Arc::clone(&hub.searches)
        .acquire_owned()
        .await
        .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
    let searched = position.clone();
    let found = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let run = || {
            let mut agent = agents::build(searched.info().id, &spec, seq)?;
            agent
                .analyse(&searched, &stop)
                .ok_or_else(|| "no move found".to_string())
        };
        let result = panic::catch_unwind(AssertUnwindSafe(run))
            .unwrap_or_else(|_| Err("the search crashed".to_string()));
        stop.raise(); // done: the table drops raised flags
        result
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()))
    .map_err(|e| ApiError::unprocessable(format!("no hint: {e}")))?;
    let cells: Vec<&str> = position
        .legal_moves()
        .iter()
        .find(|m| m.notation == found.notation)
        .map(|m| {
            m.input
                .cells
                .iter()
                .map(|c| cell_names.get(c.to_usize()).map_or("", String::as_str))
                .collect()
        })
        .unwrap_or_default();
    let view = analysis_view(&found, seat, position.seat_count(), "hint");
    Ok(json!({
        "move": found.notation, "cells": cells, "pv": view.pv, "score_text": view.score_text,
        "bar": view.bar, "bar_seat": view.bar_seat, "depth": view.depth, "seq": seq,
    }))
}
