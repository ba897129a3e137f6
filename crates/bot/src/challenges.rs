//! Answering challenges: each incoming challenge (a lobby event, or listed by `GET
//! /api/challenges` after a connection) is answered once. It is accepted when the engine plays
//! its game (`--games`), its rated or casual kind is accepted (`--accept-challenges`) and the
//! bot has room for another game (`--max-games`, a place kept while the acceptance is on its
//! way); otherwise it is declined. An accepted challenge's game starts at once.

use std::sync::Arc;

use serde_json::{json, Value};

use super::api::safe_id;
use super::report::notice;
use super::Bot;

/// The name in a challenge's `from` (a name, or an object with `name`).
fn name(value: &Value) -> String {
    value
        .as_str()
        .or_else(|| value["name"].as_str())
        .unwrap_or("?")
        .to_string()
}

/// Answers `challenge` in a task of its own, unless it was answered already.
pub fn answer(bot: &Arc<Bot>, challenge: &Value) {
    let Some(id) = challenge["id"].as_str().and_then(safe_id) else {
        return;
    };
    if !bot.first_sight(id) {
        return;
    }
    let bot = Arc::clone(bot);
    let id = id.to_string();
    let challenge = challenge.clone();
    tokio::spawn(async move { decide(&bot, &id, &challenge).await });
}

async fn decide(bot: &Arc<Bot>, id: &str, challenge: &Value) {
    let from = name(&challenge["from"]);
    let game = challenge["game"].as_str().unwrap_or("").to_string();
    let rated = challenge["rated"].as_bool().unwrap_or(false);
    let kind = if rated { "rated" } else { "casual" };
    let settings = &bot.settings;
    let promise = if !settings.plays(&game) {
        Err(format!("{game} is not one of the games this bot plays"))
    } else if !settings.accepts(rated) {
        Err(format!("this bot accepts no {kind} challenges"))
    } else {
        bot.pool.promise().ok_or_else(|| {
            let n = settings.max_games;
            let games = if n == 1 { "game" } else { "games" };
            format!("this bot is busy: it plays at most {n} {games} at once")
        })
    };
    let event = |accepted: bool, reason: Option<&str>| {
        json!({"event": "challenge", "id": id, "from": from, "game": game, "rated": rated,
               "accepted": accepted, "reason": reason})
    };
    match promise {
        Ok(promise) => match bot.api.accept_challenge(id).await {
            Ok(seat) => {
                bot.report.event(&event(true, None), || {
                    format!("challenge from {from} ({game}, {kind}): accepted")
                });
                bot.play(seat, Some(promise), false);
            }
            Err(e) => notice(&format!(
                "challenge from {from} ({game}): accepting it failed: {e}"
            )),
        },
        Err(reason) => match bot.api.decline_challenge(id).await {
            Ok(()) => bot.report.event(&event(false, Some(&reason)), || {
                format!("challenge from {from} ({game}, {kind}): declined: {reason}")
            }),
            Err(e) => notice(&format!(
                "challenge from {from} ({game}): declining it failed: {e}"
            )),
        },
    }
}
