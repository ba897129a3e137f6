//! Routes on games as a whole: create, list, read, delete, download the record, and look at
//! an earlier position.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use ludus_engine::GameRecord;
use ludus_games::{load_record, record_to_text};
use serde_json::{json, Value};

use super::guard::Client;
use super::json_response;
use super::page::Page;
use super::person::Person;
use crate::error::{ApiError, Body};
use crate::hub::Hub;
use crate::live::{self, Group, ViewJson};
use crate::protocol::{ClaimRequest, CreateGame, TokenRequest};

pub async fn create(
    State(hub): State<Arc<Hub>>,
    Extension(client): Extension<Client>,
    person: Option<Person>,
    headers: axum::http::HeaderMap,
    Body(request): Body<CreateGame>,
) -> Result<Response, ApiError> {
    let store = hub.store.as_ref();
    let (game, (body, commit)) = hub.limits.create_game(client.charged, store, || {
        live::create_later(&hub, &request, client.charged, None)
    })?;
    // Awaited outside the limits' lock, holding no thread: other requests go on meanwhile;
    // and to the end, the creator's seats included, even if the request is dropped.
    let holder = person.map(|person| person.account.id);
    let mut body = live::to_the_end({
        let hub = Arc::clone(&hub);
        async move {
            let body = live::created(&hub, &game, body, commit).await?;
            if let Some(holder) = holder {
                // The seats given to the creator (not those kept for invited people) are theirs.
                let seats: Vec<(usize, i64)> = body["seats"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|seat| seat["seat"].as_u64().and_then(|s| usize::try_from(s).ok()))
                    .map(|seat| (seat, holder))
                    .collect();
                hub.people.hold_seats(game.id(), &seats).await?;
            }
            Ok(body)
        }
    })
    .await?;
    // Each invitation also as a whole address a friend elsewhere can open.
    let base = super::links::base(&hub.config, &headers);
    for invite in body["invites"].as_array_mut().into_iter().flatten() {
        let link = invite["link"].as_str().unwrap_or_default().to_string();
        invite["url"] = Value::String(format!("{base}{link}"));
    }
    Ok(json_response(StatusCode::CREATED, body.to_string()))
}

/// `GET /api/games?limit=N&before=CURSOR`: a page of the listed games, newest change first.
pub async fn list(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    only_keys(&query, &["limit", "before"])?;
    let page = Page::from_query(&query)?;
    let entries = live::listed(&hub.store.games())
        .into_iter()
        .map(|listed| (listed.at, listed.id, listed.entry))
        .collect();
    let (games, next) = page.of(entries);
    Ok(json_response(
        StatusCode::OK,
        json!({ "games": games, "next": next }).to_string(),
    ))
}

/// `GET /api/lobby?group=G&limit=N&before=CURSOR`: a page of each group, or of group `G`.
pub async fn lobby(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    only_keys(&query, &["group", "limit", "before"])?;
    let page = Page::from_query(&query)?;
    let groups = match query.get("group") {
        Some(key) => vec![Group::from_key(key).ok_or_else(|| {
            ApiError::bad_request(format!(
                "group '{key}': expected waiting, in_progress or finished"
            ))
        })?],
        None if page.is_later() => {
            return Err(ApiError::bad_request(
                "before without group: expected group=waiting, in_progress or finished with the cursor of that group's next",
            ))
        }
        None => Group::ALL.to_vec(),
    };
    let listed = live::listed(&hub.store.games());
    let mut body = json!({ "next": {} });
    for group in groups {
        let entries = listed
            .iter()
            .filter(|l| l.group == group)
            .map(|l| l.clone().lobby_entry())
            .collect();
        let (games, next) = page.of(entries);
        body[group.key()] = Value::Array(games);
        body["next"][group.key()] = next;
    }
    Ok(json_response(StatusCode::OK, body.to_string()))
}

/// `POST /api/games/{id}/claim`: a seat for the holder of its invitation.
pub async fn claim(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    person: Option<Person>,
    Body(request): Body<ClaimRequest>,
) -> Result<Response, ApiError> {
    let game = hub.game(&id)?;
    let holder = person.map(|person| person.account.id);
    // To the end, the seat's holder included, even if the request is dropped.
    let body = live::to_the_end({
        let hub = Arc::clone(&hub);
        async move {
            let body = game.claim(&hub, request.seat, &request.invite).await?;
            if let Some(holder) = holder {
                hub.people.hold_seat(&id, request.seat, holder).await?;
            }
            Ok(body)
        }
    })
    .await?;
    Ok(json_response(StatusCode::OK, body.to_string()))
}

pub async fn snapshot(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = hub.read_game(&id)?;
    Ok(json_response(StatusCode::OK, game.snapshot().to_string()))
}

/// `GET /api/games/{id}/work`: the work the game cost the server, counted (replays of its
/// history, snapshots and deltas built): the proof that a move's work does not grow with the
/// game's length, for tests and operators.
pub async fn work(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = hub.read_game(&id)?;
    Ok(json_response(StatusCode::OK, game.work().to_string()))
}

pub async fn delete(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    // A finished game kept on disk only is deleted as one in memory would be.
    let game = hub.read_game(&id)?;
    let aborted = game.lock().require_deletable(&request.token, &id)?;
    hub.store.remove(&id);
    game.stop_searches();
    // "type" first: the game's sockets close on a frame that starts so.
    game.broadcast(format!(
        "{{\"type\":\"deleted\",\"id\":{},\"aborted\":{aborted}}}",
        Value::String(id.clone())
    ));
    if aborted {
        tracing::info!(game = id, "game aborted by a player");
    }
    Ok(json_response(
        StatusCode::OK,
        json!({ "deleted": id, "aborted": aborted }).to_string(),
    ))
}

pub async fn record(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let game = hub.read_game(&id)?;
    only_keys(&query, &["format"])?;
    let record = game.lock().game.record();
    let (body, mime, extension) = match query.get("format").map_or("json", String::as_str) {
        "json" => (record.to_json(), "application/json", "json"),
        "text" => (
            record_to_text(&record).map_err(|e| ApiError::unprocessable(e.to_string()))?,
            "text/plain; charset=utf-8",
            "txt",
        ),
        other => {
            return Err(ApiError::bad_request(format!(
                "format '{other}': expected json or text"
            )))
        }
    };
    let disposition = format!(
        "attachment; filename=\"ludus-{}-{id}.{extension}\"",
        record.game
    );
    Ok((
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

pub async fn view(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let game = hub.read_game(&id)?;
    only_keys(&query, &["ply"])?;
    let record = game.lock().game.record();
    let turns = record.moves.len();
    let ply = match query.get("ply").map(|p| p.parse::<usize>()) {
        Some(Ok(ply)) if ply <= turns => ply,
        Some(_) => {
            return Err(ApiError::bad_request(format!(
                "ply '{}': expected a whole number 0..={turns}",
                query.get("ply").map_or("", String::as_str)
            )))
        }
        None => turns,
    };
    let earlier = GameRecord {
        moves: record.moves[..ply].to_vec(),
        result: None,
        ..record
    };
    let replayed = load_record(&earlier).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let view = replayed.view();
    let body = json!({"ply": ply, "position": replayed.position(), "view": ViewJson::of(&view)});
    Ok(json_response(StatusCode::OK, body.to_string()))
}

fn only_keys(query: &HashMap<String, String>, known: &[&str]) -> Result<(), ApiError> {
    match query.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(ApiError::bad_request(format!(
            "unknown query parameter '{key}': expected {}",
            known.join(" or ")
        ))),
        None => Ok(()),
    }
}
