//! Players as others see them: `GET /api/players/{name}` (profile: ratings with their
//! history, wins, draws and losses, recent games) and `GET /api/leaderboard` (the best
//! settled ratings of a game and clock class).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::json_response;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::people::ratings::ClockClass;

/// Recent games a profile lists.
const RECENT: usize = 20;

/// Lines of a leaderboard at most.
const LEADERS: usize = 100;

pub async fn profile(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let profile = hub.people.profile(&name)?.ok_or_else(|| {
        ApiError::not_found(format!(
            "no player '{name}': expected the name of an account here"
        ))
    })?;
    let held = hub.people.held_seats(profile.account.id, RECENT)?;
    let recent: Vec<Value> = held
        .iter()
        .filter_map(|seat| recent_entry(&hub, profile.account.id, seat))
        .collect();
    let mut body = serde_json::to_value(&profile).unwrap_or_default();
    body["recent"] = Value::Array(recent);
    Ok(json_response(StatusCode::OK, body.to_string()))
}

pub async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    if let Some(key) = query.keys().find(|k| *k != "game" && *k != "class") {
        return Err(ApiError::bad_request(format!(
            "unknown query parameter '{key}': expected game or class"
        )));
    }
    let game = query.get("game").ok_or_else(|| {
        ApiError::bad_request(
            "no game: expected ?game=ID (an id from GET /api/meta)&class=fast|slow|correspondence",
        )
    })?;
    if !ludus_games::GAMES.iter().any(|info| info.id == game) {
        return Err(ApiError::not_found(format!(
            "no game '{game}': expected an id from GET /api/meta"
        )));
    }
    let class: ClockClass = query
        .get("class")
        .map_or(Ok(ClockClass::Fast), |c| c.parse())
        .map_err(|e: crate::people::ratings::ClockClassError| {
            ApiError::bad_request(e.to_string())
        })?;
    let players = hub.people.leaderboard(game, class, LEADERS)?;
    Ok(json_response(
        StatusCode::OK,
        json!({"game": game, "class": class.as_str(), "players": players}).to_string(),
    ))
}

/// A recent game on a profile: from memory when the server holds it; a finished game kept on
/// disk only is described by its rating history (it is not replayed for a profile: a profile
/// is read by anyone, as often as they like), and left out if it was not rated.
fn recent_entry(hub: &Hub, user_id: i64, seat: &crate::people::HeldSeat) -> Option<Value> {
    let Some(game) = hub.store.get(&seat.game_id) else {
        let (game, score) = hub.people.rated_result(user_id, &seat.game_id).ok()??;
        let result = if score >= 1.0 {
            "won"
        } else if score > 0.0 {
            "drawn"
        } else {
            "lost"
        };
        return Some(
            json!({"id": seat.game_id, "game": game, "seat": seat.seat, "rated": true, "result": result}),
        );
    };
    let table = game.lock();
    let outcome = table
        .game
        .outcome()
        .map(|o| json!({"winner": o.winner().map(ludus_engine::Seat::number), "reason": o.reason}));
    Some(json!({
        "id": seat.game_id,
        "game": table.game.info().id,
        "seat": seat.seat,
        "rated": table.rated,
        "names": table.names(),
        "outcome": outcome,
    }))
}
