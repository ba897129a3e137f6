//! A game between accounts: made from agreed terms with each account in its seat, each seat
//! held by its account, and each player told over the lobby socket (`started`, with the seat's
//! token) so that every page opens the game at once.

use std::sync::Arc;

use serde_json::{json, Value};

use super::terms::Terms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::live::{create_later, created, SeatAccount, Seating};
use crate::people::Account;
use crate::protocol::CreateGame;

/// Makes the game of `terms` with `seated[i]` in seat i + 1; answers the game's id and each
/// seat's token, in seat order, once the game and its held seats are stored (awaited with no
/// thread held).
pub async fn start(
    hub: &Arc<Hub>,
    terms: &Terms,
    seated: &[Account],
) -> Result<(String, Vec<String>), ApiError> {
    let class = terms.class();
    let accounts = seated
        .iter()
        .map(|account| {
            Ok(SeatAccount {
                id: account.id,
                name: account.name.clone(),
                bot: account.bot,
                rating: hub.people.rating(account.id, &terms.game, class)?,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let request = CreateGame {
        game: Some(terms.game.clone()),
        options: terms.options.clone(),
        players: vec!["human".to_string(); seated.len()],
        names: seated.iter().map(|a| a.name.clone()).collect(),
        seed: None,
        speed_ms: None,
        record: None,
        invite: Vec::new(),
        private: false,
        clock: terms.clock,
    };
    let seating = Seating {
        accounts,
        rated: terms.rated,
    };
    let (game, (body, commit)) = create_later(hub, &request, None, Some(seating))?;
    let body = created(hub, &game, body, commit).await?;
    let tokens: Vec<String> = seat_tokens(&body);
    let held: Vec<(usize, i64)> = seated
        .iter()
        .enumerate()
        .map(|(index, account)| (index + 1, account.id))
        .collect();
    hub.people.hold_seats(game.id(), &held).await?;
    for (index, (account, token)) in seated.iter().zip(&tokens).enumerate() {
        hub.pairing.events.to_account(
            account.id,
            &json!({"type": "started", "game": game.id(), "seat": index + 1, "token": token, "rated": terms.rated}),
        );
    }
    tracing::info!(game = game.id(), rated = terms.rated, "paired game started");
    Ok((game.id().to_string(), tokens))
}

fn seat_tokens(body: &Value) -> Vec<String> {
    body["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["token"].as_str().map(str::to_string))
        .collect()
}

/// The answer to the person whose action started the game.
pub fn started_body(game: &str, seat: usize, tokens: &[String], rated: bool) -> Value {
    json!({"game": game, "seat": seat, "token": tokens.get(seat - 1), "rated": rated})
}
