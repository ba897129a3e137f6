//! `POST /api/games`: a new game from the registry, or a game loaded from a record, with its
//! players (people get a token, computers are checked), names and the owner's token.

use std::sync::Arc;

use ludus_engine::{AnyGame, GameRecord, PlayerRecord, Seat};
use ludus_games::{load_record, new_game, record_from_text};
use serde_json::{json, Value};

use super::agents::{label, Caps, Computer, ComputerError};
use super::clock::DAYS_PER_MOVE;
use super::commands::MAX_SPEED_MS;
use super::invitations;
use super::table::{SeatAccount, SeatPlayer};
use super::{LiveGame, Table};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::protocol::CreateGame;
use crate::store::Pending;
use crate::tokens;

/// The longest clock time, a week in milliseconds.
const MAX_CLOCK_MS: u64 = 7 * 24 * 3600 * 1000;

/// The longest name a player may have, in characters.
pub const MAX_NAME: usize = 40;

/// Accounts seated by pairing, one per seat in seat order, and whether the game is rated.
#[derive(Clone, Debug)]
pub struct Seating {
    /// One per seat.
    pub accounts: Vec<SeatAccount>,
    /// Rated.
    pub rated: bool,
}

/// Creates the game `request` describes for `client` (charged for its computer players'
/// searches), with `seating`'s accounts in the seats if given (a game between people, whose
/// setup keeps the accounts and whether it is rated); answers the game and the `201` body
/// once the game is stored, waiting for it on this thread. The server's requests await the
/// commit instead ([`create_later`]); the tests that set a game up use this.
#[cfg(test)]
pub async fn create_seated(
    hub: &Arc<Hub>,
    request: &CreateGame,
    client: Option<crate::client::ClientId>,
    seating: Option<Seating>,
) -> Result<(Arc<LiveGame>, Value), ApiError> {
    let (live, body) = prepare(hub, request, client, seating)?;
    hub.store
        .insert(Arc::clone(&live))
        .map_err(|e| ApiError::unavailable(e.to_string()))?;
    let body = start(hub, &live, body).await?;
    Ok((live, body))
}

/// Creates the game `request` describes for `client` (charged for its computer players'
/// searches), with `seating`'s accounts in the seats if given (a game between people, whose
/// setup keeps the accounts and whether it is rated); answers at once with the game held
/// but not yet stored: the caller then awaits [`created`], which holds no thread while the
/// game is stored.
pub fn create_later(
    hub: &Arc<Hub>,
    request: &CreateGame,
    client: Option<crate::client::ClientId>,
    seating: Option<Seating>,
) -> Result<(Arc<LiveGame>, (Value, Pending)), ApiError> {
    let (live, body) = prepare(hub, request, client, seating)?;
    let commit = hub
        .store
        .insert_later(Arc::clone(&live))
        .map_err(|e| ApiError::unavailable(e.to_string()))?;
    Ok((live, (body, commit)))
}

/// The game of [`create_later`] once `commit` resolved: started, with its `201` body; or
/// removed again, with the store's error. The commit is awaited in a task of its own, so a
/// request dropped meanwhile (its client gone) still leaves the game started or removed,
/// never held and idle.
pub async fn created(
    hub: &Arc<Hub>,
    live: &Arc<LiveGame>,
    body: Value,
    commit: Pending,
) -> Result<Value, ApiError> {
    let (hub, live) = (Arc::clone(hub), Arc::clone(live));
    let settled = tokio::spawn(async move {
        if let Err(error) = commit.committed().await {
            hub.store.remove(live.id());
            return Err(ApiError::unavailable(error.to_string()));
        }
        start(&hub, &live, body).await
    });
    settled.await.unwrap_or_else(|error| {
        Err(ApiError::unavailable(format!(
            "the game could not be started: {error}"
        )))
    })
}

/// The game `request` describes, with the body of its answer, not yet in the store.
fn prepare(
    hub: &Arc<Hub>,
    request: &CreateGame,
    client: Option<crate::client::ClientId>,
    seating: Option<Seating>,
) -> Result<(Arc<LiveGame>, Value), ApiError> {
    if hub.is_closing() {
        return Err(ApiError::unavailable("the server is shutting down"));
    }
    let seed = request.seed.unwrap_or_else(tokens::seed);
    let (mut game, loaded) = match &request.record {
        Some(record) => (loaded_game(request, record)?, true),
        None => (fresh_game(request, seed)?, false),
    };
    let kinds = player_kinds(request, &game)?;
    let names = player_names(request, &game, &kinds, loaded)?;
    let mut seats = seat_players(&game, &kinds, seed, Caps::of(&hub.config))?;
    invitations::invite(&mut seats, &request.invite)?;
    game.set_players(
        kinds
            .iter()
            .zip(&names)
            .map(|(kind, name)| PlayerRecord {
                name: name.clone(),
                kind: kind.clone(),
            })
            .collect(),
    );
    let speed_ms = speed(request, &seats)?;
    let body = created_body(&seats)?;
    let owner = body["owner"].as_str().unwrap_or_default().to_string();
    if let Some(seating) = &seating {
        for (seat, account) in seats.iter_mut().zip(&seating.accounts) {
            seat.account = Some(account.clone());
        }
    }
    let mut table = Table::new(game, seats, owner, speed_ms);
    table.private = request.private;
    table.between_people = !request.invite.is_empty() || seating.is_some();
    table.rated = seating.is_some_and(|s| s.rated);
    table.payer = client;
    if let Some(clock) = request.clock {
        check_clock(clock)?;
        table.clocks = Some(super::clock::Clocks::new(clock, table.seats.len()));
        table.settle_clocks();
    }
    Ok((LiveGame::new(unused_id(hub)?, table), body))
}

/// Starts the stored game `live` (its first deadline stored, its computer players set
/// going); answers its `201` body.
async fn start(hub: &Arc<Hub>, live: &Arc<LiveGame>, mut body: Value) -> Result<Value, ApiError> {
    store_deadline(hub, live).await?;
    live.start(hub).await;
    body["id"] = Value::String(live.id().to_string());
    body["invites"] = invitations::links(live);
    Ok(body)
}

/// A correspondence clock's first deadline is stored with the game, so that a restart
/// before the first move keeps it too (later ones are stored with each change).
async fn store_deadline(hub: &Hub, live: &LiveGame) -> Result<(), ApiError> {
    let row = {
        let table = live.lock();
        match &table.clocks {
            Some(clocks) if clocks.is_correspondence() => clocks.stored(),
            _ => return Ok(()),
        }
    };
    hub.store
        .send(live.id(), crate::store::Change::Clock(row))
        .committed()
        .await
        .map_err(|e| {
            hub.store.remove(live.id());
            ApiError::unavailable(format!("the game could not be stored: {e}"))
        })
}

/// Refuses a clock without time or longer than a week, and days per move other than
/// [`DAYS_PER_MOVE`].
pub fn check_clock(clock: super::ClockSetup) -> Result<(), ApiError> {
    if let Some(days) = clock.days_per_move {
        let allowed = DAYS_PER_MOVE.map(|d| d.to_string()).join(", ");
        if clock.initial_ms != 0 || clock.increment_ms != 0 {
            return Err(ApiError::unprocessable(format!(
                "a clock of days per move with initial_ms or increment_ms: expected either {{\"days_per_move\":N}} (N one of {allowed}) or {{\"initial_ms\",\"increment_ms\"}}"
            )));
        }
        if !DAYS_PER_MOVE.contains(&days) {
            let given = if days == 0 {
                "no whole number of days from 1".to_string()
            } else {
                days.to_string()
            };
            return Err(ApiError::unprocessable(format!(
                "clock days_per_move {given}: expected one of {allowed}"
            )));
        }
        return Ok(());
    }
    if clock.initial_ms == 0 || clock.initial_ms > MAX_CLOCK_MS || clock.increment_ms > MAX_CLOCK_MS
    {
        return Err(ApiError::unprocessable(format!(
            "clock {} ms + {} ms: expected an initial time from 1 ms and both at most {MAX_CLOCK_MS} ms (a week)",
            clock.initial_ms, clock.increment_ms
        )));
    }
    Ok(())
}

fn unused_id(hub: &Hub) -> Result<String, tokens::NoRandomSource> {
    loop {
        let id = tokens::game_id()?;
        if hub.store.get(&id).is_none() {
            return Ok(id);
        }
    }
}

fn fresh_game(request: &CreateGame, seed: u64) -> Result<AnyGame, ApiError> {
    let Some(id) = request.game.as_deref() else {
        return Err(ApiError::bad_request(
            "no game: expected \"game\" (a game id from GET /api/meta) or \"record\"",
        ));
    };
    let pairs = request
        .options
        .iter()
        .map(|(key, value)| option_pair(key, value))
        .collect::<Result<Vec<_>, _>>()?;
    new_game(id, &pairs, None, seed).map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// `key=value` as the registry reads options, from one entry of a request's `options`.
pub fn option_pair(key: &str, value: &Value) -> Result<String, ApiError> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => {
            return Err(ApiError::unprocessable(format!(
                "option '{key}' is {value}: expected a string, a number or a boolean"
            )))
        }
    };
    Ok(format!("{key}={text}"))
}

fn loaded_game(request: &CreateGame, record: &Value) -> Result<AnyGame, ApiError> {
    if request.game.is_some() || !request.options.is_empty() {
        return Err(ApiError::bad_request(
            "both a record and a game: expected either \"record\" or \"game\" with \"options\"",
        ));
    }
    let bad = |e: &dyn std::fmt::Display| ApiError::unprocessable(format!("bad record: {e}"));
    let record =
        match record {
            Value::String(text) if text.trim_start().starts_with('{') => {
                GameRecord::from_json(text).map_err(|e| bad(&e))?
            }
            Value::String(text) => record_from_text(text).map_err(|e| bad(&e))?,
            Value::Object(_) => GameRecord::from_json(&record.to_string()).map_err(|e| bad(&e))?,
            _ => return Err(ApiError::unprocessable(
                "bad record: expected a JSON record object, or a JSON or text record as a string",
            )),
        };
    load_record(&record).map_err(|e| bad(&e))
}

/// `human` or a computer spec per seat: as asked, else as recorded, else all people.
fn player_kinds(request: &CreateGame, game: &AnyGame) -> Result<Vec<String>, ApiError> {
    let seats = game.seat_count();
    if request.players.is_empty() {
        return Ok(Seat::all(seats)
            .map(|seat| {
                game.players()
                    .get(seat.to_usize())
                    .map_or_else(|| "human".to_string(), |p| p.kind.clone())
            })
            .collect());
    }
    if request.players.len() != seats {
        let info = game.info();
        let range = if info.min_seats == info.max_seats {
            String::new()
        } else {
            format!(
                " (this game seats {} to {}, set by its options)",
                info.min_seats, info.max_seats
            )
        };
        return Err(ApiError::unprocessable(format!(
            "{} players for {seats} seats: expected one entry per seat{range}",
            request.players.len()
        )));
    }
    Ok(request
        .players
        .iter()
        .map(|p| p.trim().to_string())
        .collect())
}

fn is_human(kind: &str) -> bool {
    kind.eq_ignore_ascii_case("human")
}

fn player_names(
    request: &CreateGame,
    game: &AnyGame,
    kinds: &[String],
    loaded: bool,
) -> Result<Vec<String>, ApiError> {
    if request.names.len() > kinds.len() {
        return Err(ApiError::unprocessable(format!(
            "{} names for {} seats: expected at most one name per seat",
            request.names.len(),
            kinds.len()
        )));
    }
    Seat::all(kinds.len())
        .map(|seat| {
            let index = seat.to_usize();
            let given = request.names.get(index).map_or("", |n| n.trim());
            check_name(seat, given)?;
            Ok(if !given.is_empty() {
                given.to_string()
            } else if loaded {
                game.players()
                    .get(index)
                    .map_or_else(String::new, |p| p.name.clone())
            } else if is_human(&kinds[index]) {
                game.seat_name(seat).to_string()
            } else {
                label(&kinds[index])
            })
        })
        .collect()
}

fn check_name(seat: Seat, name: &str) -> Result<(), ApiError> {
    let length = name.chars().count();
    if length > MAX_NAME {
        return Err(ApiError::unprocessable(format!(
            "the name of seat {} has {length} characters: expected at most {MAX_NAME}",
            seat.number()
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(format!(
            "the name of seat {} holds a control character: expected printable text",
            seat.number()
        )));
    }
    Ok(())
}

fn seat_players(
    game: &AnyGame,
    kinds: &[String],
    seed: u64,
    caps: Caps,
) -> Result<Vec<SeatPlayer>, ApiError> {
    kinds
        .iter()
        .enumerate()
        .map(|(index, kind)| {
            if is_human(kind) {
                return Ok(SeatPlayer {
                    kind: "human".to_string(),
                    token: Some(tokens::token()?),
                    computer: None,
                    invite: None,
                    account: None,
                });
            }
            let computer = caps
                .check(kind)
                .map_err(ComputerError::from)
                .and_then(|()| Computer::new(game.info().id, kind, seed.wrapping_add(index as u64)))
                .map_err(|e| {
                    ApiError::unprocessable(format!("player {} '{kind}': {e}", index + 1))
                })?;
            Ok(SeatPlayer {
                kind: computer.spec.clone(),
                token: None,
                computer: Some(computer),
                invite: None,
                account: None,
            })
        })
        .collect()
}

fn speed(request: &CreateGame, seats: &[SeatPlayer]) -> Result<u64, ApiError> {
    let watched = seats.iter().all(|s| s.computer.is_some());
    match request.speed_ms {
        Some(ms) if ms > MAX_SPEED_MS => Err(ApiError::unprocessable(format!(
            "speed_ms {ms} is too long: expected 0..={MAX_SPEED_MS}"
        ))),
        Some(ms) => Ok(ms),
        None if watched => Ok(400),
        None => Ok(0),
    }
}

fn created_body(seats: &[SeatPlayer]) -> Result<Value, tokens::NoRandomSource> {
    let tokens: Vec<Value> = seats
        .iter()
        .enumerate()
        .filter_map(|(index, s)| {
            if s.invite.is_some() {
                return None; // given only to whoever claims the invitation
            }
            let token = s.token.as_ref()?;
            Some(json!({"seat": index + 1, "token": token}))
        })
        .collect();
    Ok(json!({"id": "", "owner": tokens::token()?, "seats": tokens}))
}
