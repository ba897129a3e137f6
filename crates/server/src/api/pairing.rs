//! Pairing routes: seeks, quick-pairing pools, challenges and rematches. Every route here
//! needs a signed-in person (a cookie from the page, or a bot's token); a game they start is
//! announced to every player's lobby socket (`started`) and answered to the one whose action
//! started it.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::json_response;
use super::person::Person;
use crate::client::ClientId;
use crate::error::{ApiError, Body, RequestBody};
use crate::hub::Hub;
use crate::live::ClockSetup;
use crate::pairing::seeks::Taken;
use crate::pairing::start::{start, started_body};
use crate::pairing::terms::Terms;
use crate::people::Account;
use crate::protocol::Nothing;

/// `POST /api/seeks`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    game: String,
    #[serde(default)]
    options: Map<String, Value>,
    clock: Option<ClockSetup>,
    #[serde(default)]
    rated: bool,
    range: Option<[f64; 2]>,
}

impl RequestBody for SeekRequest {
    const EXAMPLE: &'static str = r#"{"game":"<an id from GET /api/meta>","clock":{"initial_ms":300000,"increment_ms":3000},"rated":true,"range":[1300,1700]}"#;
}

/// `POST /api/challenges`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    to: String,
    game: String,
    #[serde(default)]
    options: Map<String, Value>,
    clock: Option<ClockSetup>,
    #[serde(default)]
    rated: bool,
}

impl RequestBody for ChallengeRequest {
    const EXAMPLE: &'static str = r#"{"to":"ana","game":"<an id from GET /api/meta>","clock":{"initial_ms":600000,"increment_ms":5000},"rated":false}"#;
}

pub async fn list_seeks(State(hub): State<Arc<Hub>>) -> Response {
    let seeks = hub.pairing.seeks().list();
    json_response(StatusCode::OK, json!({ "seeks": seeks }).to_string())
}

pub async fn post_seek(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Body(request): Body<SeekRequest>,
) -> Result<Response, ApiError> {
    let terms = Terms {
        game: request.game,
        options: request.options,
        clock: request.clock,
        rated: request.rated,
    };
    let seats = terms.check()?;
    let account = person.account;
    let rating = hub.people.rating(account.id, &terms.game, terms.class())?;
    let range = request.range.map(|[lo, hi]| (lo, hi));
    let seek = hub
        .pairing
        .seeks()
        .post(account, rating, terms, seats, range)?;
    let json = seek.json();
    hub.pairing
        .events
        .to_lobby(&json!({"type": "seek", "seek": json}));
    Ok(json_response(
        StatusCode::CREATED,
        json!({ "seek": json }).to_string(),
    ))
}

pub async fn cancel_seek(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    hub.pairing.seeks().cancel(&id, person.account.id)?;
    hub.pairing
        .events
        .to_lobby(&json!({"type": "unseek", "id": id}));
    Ok(json_response(
        StatusCode::OK,
        json!({ "canceled": id }).to_string(),
    ))
}

pub async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
    Body(_): Body<Nothing>,
) -> Result<Response, ApiError> {
    let game = {
        let seeks = hub.pairing.seeks();
        let terms = seeks_terms(&seeks, &id)?;
        drop(seeks);
        terms
    };
    let rating = hub.people.rating(person.account.id, &game.0, game.1)?;
    room_for_game(&hub, &person)?;
    let taken = hub.pairing.seeks().accept(&id, &person.account, rating)?;
    match taken {
        Taken::Joined(seek) => {
            hub.pairing
                .events
                .to_lobby(&json!({"type": "seek", "seek": seek.json()}));
            Ok(json_response(
                StatusCode::ACCEPTED,
                json!({"joined": true, "seek": seek.json()}).to_string(),
            ))
        }
        Taken::Full(players, terms) => {
            hub.pairing
                .events
                .to_lobby(&json!({"type": "unseek", "id": id}));
            started(&hub, &terms, &players, person.account.id).await
        }
    }
}

/// The game and clock class of seek `id`, for reading the acceptor's rating before the
/// seek is taken under its lock.
fn seeks_terms(
    seeks: &crate::pairing::seeks::Seeks,
    id: &str,
) -> Result<(String, crate::people::ratings::ClockClass), ApiError> {
    seeks
        .find(id)
        .map(|s| (s.terms.game.clone(), s.terms.class()))
        .ok_or_else(|| {
            ApiError::conflict(format!(
                "no open seek '{id}': it was taken, withdrawn or expired; expected one from GET /api/seeks"
            ))
        })
}

/// Starts the game of `terms` for `players` and answers `asker` with their seat and token.
async fn started(
    hub: &Arc<Hub>,
    terms: &Terms,
    players: &[Account],
    asker: i64,
) -> Result<Response, ApiError> {
    // Run to its end even if the request is dropped (its client gone): the seek or
    // challenge is taken already, so the players must still be told of their game.
    let (game, tokens) = {
        let (hub, terms, players) = (Arc::clone(hub), terms.clone(), players.to_vec());
        crate::live::to_the_end(async move {
            let (game, tokens) = start(&hub, &terms, &players).await?;
            // Checked before the offer was taken (`room_for_game`), counted now.
            hub.limits.count_game(ClientId::Person(asker), &game);
            Ok((game, tokens))
        })
        .await?
    };
    let seat = players
        .iter()
        .position(|a| a.id == asker)
        .map_or(1, |i| i + 1);
    let body = started_body(&game, seat, &tokens, terms.rated);
    Ok(json_response(StatusCode::CREATED, body.to_string()))
}

pub async fn list_pools(State(hub): State<Arc<Hub>>) -> Response {
    let pools = hub.pairing.pools().list();
    json_response(StatusCode::OK, json!({ "pools": pools }).to_string())
}

pub async fn join_pool(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
    Body(_): Body<Nothing>,
) -> Result<Response, ApiError> {
    let terms = hub.pairing.pools().terms(&id)?;
    let rating = hub
        .people
        .rating(person.account.id, &terms.game, terms.class())?;
    room_for_game(&hub, &person)?;
    let paired = hub
        .pairing
        .pools()
        .join(&id, person.account.clone(), rating)?;
    match paired {
        Some((players, terms)) => started(&hub, &terms, &players, person.account.id).await,
        None => Ok(json_response(
            StatusCode::OK,
            json!({"waiting": true, "pool": id}).to_string(),
        )),
    }
}

pub async fn leave_pool(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(_id): Path<String>,
    Body(_): Body<Nothing>,
) -> Response {
    let left = hub.pairing.pools().leave(person.account.id);
    json_response(StatusCode::OK, json!({"left": left}).to_string())
}

pub async fn list_challenges(State(hub): State<Arc<Hub>>, person: Person) -> Response {
    let (incoming, outgoing) = hub.pairing.challenges().of(person.account.id);
    json_response(
        StatusCode::OK,
        json!({"incoming": incoming, "outgoing": outgoing}).to_string(),
    )
}

pub async fn challenge(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Body(request): Body<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let terms = Terms {
        game: request.game,
        options: request.options,
        clock: request.clock,
        rated: request.rated,
    };
    if terms.check()? != 2 {
        return Err(ApiError::unprocessable(
            "a challenge is for a game of two seats: expected a seek for three or four players",
        ));
    }
    let to = hub.people.find(&request.to)?.ok_or_else(|| {
        ApiError::not_found(format!(
            "no player '{}': expected the name of an account here",
            request.to
        ))
    })?;
    let challenge = send_challenge(&hub, person.account, to, terms, None, None)?;
    Ok(json_response(
        StatusCode::CREATED,
        json!({ "challenge": challenge }).to_string(),
    ))
}

/// Opens a challenge and tells the one challenged; answers it as JSON.
fn send_challenge(
    hub: &Hub,
    from: Account,
    to: Account,
    terms: Terms,
    rematch_of: Option<String>,
    challenger_first: Option<bool>,
) -> Result<Value, ApiError> {
    let challenge = hub
        .pairing
        .challenges()
        .send(from, to, terms, rematch_of, challenger_first)?;
    let json = challenge.json();
    hub.pairing.events.to_account(
        challenge.to.id,
        &json!({"type": "challenge", "challenge": json}),
    );
    Ok(json)
}

pub async fn accept_challenge(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
    Body(_): Body<Nothing>,
) -> Result<Response, ApiError> {
    room_for_game(&hub, &person)?;
    let challenge = hub
        .pairing
        .challenges()
        .take(&id, person.account.id, false)?;
    started(
        &hub,
        &challenge.terms,
        &challenge.seated(),
        person.account.id,
    )
    .await
}

pub async fn decline_challenge(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
    Body(_): Body<Nothing>,
) -> Result<Response, ApiError> {
    let challenge = hub
        .pairing
        .challenges()
        .take(&id, person.account.id, false)?;
    hub.pairing.events.to_account(
        challenge.from.id,
        &json!({"type": "challenge_declined", "id": id, "by": person.account.name}),
    );
    Ok(json_response(
        StatusCode::OK,
        json!({ "declined": id }).to_string(),
    ))
}

pub async fn cancel_challenge(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let challenge = hub
        .pairing
        .challenges()
        .take(&id, person.account.id, true)?;
    hub.pairing.events.to_account(
        challenge.to.id,
        &json!({"type": "challenge_canceled", "id": id}),
    );
    Ok(json_response(
        StatusCode::OK,
        json!({ "canceled": id }).to_string(),
    ))
}

/// `POST /api/games/{id}/rematch`: the same game with the seats swapped, offered to the
/// other player; if they already offered it, it starts.
pub async fn rematch(
    State(hub): State<Arc<Hub>>,
    person: Person,
    Path(id): Path<String>,
    Body(_): Body<Nothing>,
) -> Result<Response, ApiError> {
    let game = hub.read_game(&id)?;
    let (terms, seated) = rematch_terms(&game)?;
    let Some(mine) = seated.iter().position(|a| a.id == person.account.id) else {
        return Err(ApiError::forbidden(
            "you did not play this game: expected one of its players",
        ));
    };
    let other = seated[1 - mine].clone();
    let waiting = hub
        .pairing
        .challenges()
        .rematch_from(&id, other.id)
        .map(|c| c.id.clone());
    if let Some(offered) = waiting {
        // Both asked: the other's offer is accepted.
        room_for_game(&hub, &person)?;
        let challenge = hub
            .pairing
            .challenges()
            .take(&offered, person.account.id, false)?;
        return started(
            &hub,
            &challenge.terms,
            &challenge.seated(),
            person.account.id,
        )
        .await;
    }
    // Swapped: whoever sat first now sits second.
    let challenge = send_challenge(
        &hub,
        person.account.clone(),
        other,
        terms,
        Some(id.clone()),
        Some(mine == 1),
    )?;
    game.broadcast(
        json!({"type": "rematch", "from": person.account.name, "game": id, "challenge": challenge["id"]})
            .to_string(),
    );
    Ok(json_response(
        StatusCode::CREATED,
        json!({ "challenge": challenge }).to_string(),
    ))
}

/// The terms and the players, in seat order, of a finished game to play again.
fn rematch_terms(game: &crate::live::LiveGame) -> Result<(Terms, Vec<Account>), ApiError> {
    let table = game.lock();
    if table.game.outcome().is_none() {
        return Err(ApiError::unprocessable(
            "the game is not over: expected a rematch after its end",
        ));
    }
    let seated: Option<Vec<Account>> = table
        .seats
        .iter()
        .map(|s| {
            s.account.as_ref().map(|a| Account {
                id: a.id,
                name: a.name.clone(),
                bot: a.bot,
            })
        })
        .collect();
    let Some(seated) = seated.filter(|s| s.len() == 2) else {
        return Err(ApiError::unprocessable(
            "a rematch is for a two-seat game between accounts: expected a game made by a seek, a pool or a challenge",
        ));
    };
    let terms = Terms {
        game: table.game.info().id.to_string(),
        options: table.options.as_object().cloned().unwrap_or_default(),
        clock: table.clocks.as_ref().map(|c| c.setup),
        rated: table.rated,
    };
    Ok((terms, seated))
}

/// Refuses an action that would start a game when the person has no room for one more.
fn room_for_game(hub: &Hub, person: &Person) -> Result<(), ApiError> {
    hub.limits
        .room_for_game(ClientId::Person(person.account.id), hub.store.as_ref())
}
