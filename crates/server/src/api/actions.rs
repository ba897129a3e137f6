//! Routes that act on a game for a token holder: moves, undo, redo, resign, hint, control.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;

use super::guard::Client;
use super::json_response;
use crate::error::{ApiError, Body};
use crate::hub::Hub;
use crate::live::{self, Command, TableCommand};
use crate::protocol::{
    AbsentRequest, AnswerRequest, ControlRequest, HistoryRequest, MoveRequest, OfferRequest,
    TokenRequest,
};

async fn act(
    hub: &Arc<Hub>,
    id: &str,
    token: &str,
    command: Command,
) -> Result<Response, ApiError> {
    let game = hub.game(id)?;
    let snapshot = game.act(hub, token, command).await?;
    Ok(json_response(StatusCode::OK, snapshot.to_string()))
}

pub async fn moves(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<MoveRequest>,
) -> Result<Response, ApiError> {
    let command = Command::Move {
        notation: request.notation,
        seq: request.seq,
    };
    act(&hub, &id, &request.token, command).await
}

pub async fn undo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<HistoryRequest>,
) -> Result<Response, ApiError> {
    let command = Command::Table(TableCommand::Undo {
        seq: request.seq,
        scope: request.scope,
    });
    act(&hub, &id, &request.token, command).await
}

pub async fn redo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<HistoryRequest>,
) -> Result<Response, ApiError> {
    let command = Command::Table(TableCommand::Redo {
        seq: request.seq,
        scope: request.scope,
    });
    act(&hub, &id, &request.token, command).await
}

pub async fn resign(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    act(
        &hub,
        &id,
        &request.token,
        Command::Table(TableCommand::Resign),
    )
    .await
}

pub async fn control(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<ControlRequest>,
) -> Result<Response, ApiError> {
    act(
        &hub,
        &id,
        &request.token,
        Command::Table(TableCommand::Control(request.control())),
    )
    .await
}

pub async fn hint(
    State(hub): State<Arc<Hub>>,
    Extension(client): Extension<Client>,
    Path(id): Path<String>,
    Body(request): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    let game = hub.game(&id)?;
    let found = live::hint(&game, &hub, &request.token, client.charged).await?;
    Ok(json_response(StatusCode::OK, found.to_string()))
}

/// `POST /api/games/{id}/offer`: a takeback request or a draw offer to the other side.
pub async fn offer(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<OfferRequest>,
) -> Result<Response, ApiError> {
    let game = hub.game(&id)?;
    game.offer(&hub, &request.token, &request.kind).await?;
    Ok(json_response(StatusCode::OK, game.snapshot().to_string()))
}

/// `POST /api/games/{id}/answer`: the other side accepts or declines.
pub async fn answer(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<AnswerRequest>,
) -> Result<Response, ApiError> {
    let game = hub.game(&id)?;
    let body = game.answer(&hub, &request.token, request.accept).await?;
    Ok(json_response(StatusCode::OK, body.to_string()))
}

/// `POST /api/games/{id}/absent`: the win, or a computer for an absent person's seat.
pub async fn absent(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<AbsentRequest>,
) -> Result<Response, ApiError> {
    let game = hub.game(&id)?;
    game.claim_absent(&hub, request).await?;
    Ok(json_response(StatusCode::OK, game.snapshot().to_string()))
}
