//! The ratings' check (`--rated`): after the run, every rated game played to its end must
//! have exactly one rating history row per seat, and a rated game cut by the deadline none.
//! Read back through `GET /api/players/NAME` of every account that played: its ratings'
//! histories name the game of each row. A profile keeps the last 200 rows of each rating; a
//! game not found behind a full history is counted as unverifiable, not as missing.

use std::collections::HashMap;

use futures_util::{stream, StreamExt};
use serde::Serialize;
use serde_json::Value;

use super::client::Played;
use super::people::People;
use super::Plan;

/// Profiles fetched at once.
const FETCHES: usize = 16;

/// The most history rows a profile shows per rating (the server's `HISTORY`).
const HISTORY: usize = 200;

/// The ratings' counts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RatingCheck {
    /// Rated games played (finished or cut).
    pub games: u64,
    /// Of them, played to their end.
    pub finished: u64,
    /// History rows expected: two per finished rated game.
    pub rows_expected: u64,
    /// Of them, found exactly once.
    pub rows_found: u64,
    /// Seats of a finished rated game without a history row.
    pub missing: u64,
    /// Seats of a finished rated game with more than one row.
    pub doubled: u64,
    /// Rows of a rated game the clients saw cut by the deadline (not ended).
    pub unexpected: u64,
    /// Seats not found behind a full history (200 rows): not known.
    pub unverifiable: u64,
    /// Whether every profile was read.
    pub made: bool,
    /// Why the check could not be made, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_made: Option<String>,
}

impl RatingCheck {
    /// Made, and nothing missing, doubled or unexpected.
    pub fn passed(&self) -> bool {
        self.made && self.missing == 0 && self.doubled == 0 && self.unexpected == 0
    }
}

/// One account's history: rows per game, and whether one of its ratings is full.
#[derive(Default)]
struct History {
    rows: HashMap<String, u64>,
    full: bool,
}

/// Checks the rated games among `played`.
pub async fn check(plan: &Plan, people: &People, played: &[Played]) -> RatingCheck {
    let rated: Vec<(&Played, [usize; 2])> = played
        .iter()
        .filter_map(|game| game.seated.map(|seated| (game, seated)))
        .collect();
    let mut check = RatingCheck {
        games: rated.len() as u64,
        ..RatingCheck::default()
    };
    let mut members: Vec<usize> = rated.iter().flat_map(|(_, seated)| *seated).collect();
    members.sort_unstable();
    members.dedup();
    let read: Vec<_> = stream::iter(members)
        .map(|member| async move { (member, history(plan, &people.accounts[member].name).await) })
        .buffer_unordered(FETCHES)
        .collect()
        .await;
    let mut histories = HashMap::new();
    let mut unread = Vec::new();
    for (member, history) in read {
        match history {
            Ok(history) => {
                histories.insert(member, history);
            }
            Err(e) => unread.push(e),
        }
    }
    if let Some(first) = unread.first() {
        check.not_made = Some(format!(
            "{} profiles could not be read back (first: {first})",
            unread.len()
        ));
        return check;
    }
    for (game, seated) in rated {
        if game.finished {
            check.finished += 1;
        }
        for member in seated {
            let history = &histories[&member];
            let rows = history.rows.get(&game.id).copied().unwrap_or(0);
            if !game.finished {
                // A move sent and never answered may have ended the game after all.
                if !game.in_doubt {
                    check.unexpected += rows;
                }
                continue;
            }
            check.rows_expected += 1;
            match rows {
                1 => check.rows_found += 1,
                0 if history.full => check.unverifiable += 1,
                0 => check.missing += 1,
                _ => check.doubled += 1,
            }
        }
    }
    check.made = true;
    check
}

/// The rating history of player `name`, from its profile.
async fn history(plan: &Plan, name: &str) -> Result<History, String> {
    let url = format!("{}/api/players/{name}", plan.target.base);
    let failed = |e: &dyn std::fmt::Display| format!("cannot read the profile of {name}: {e}");
    let answer = plan.http.get(url).send().await.map_err(|e| failed(&e))?;
    let status = answer.status();
    let text = answer.text().await.map_err(|e| failed(&e))?;
    if !status.is_success() {
        return Err(failed(&format!("{status}: {text:.200}")));
    }
    let profile: Value = serde_json::from_str(&text).map_err(|e| failed(&e))?;
    let mut history = History::default();
    for rating in profile["ratings"].as_array().into_iter().flatten() {
        let points = rating["history"].as_array().map_or(&[][..], Vec::as_slice);
        history.full |= points.len() >= HISTORY;
        for point in points {
            let id = point["game_id"].as_str().unwrap_or_default().to_string();
            *history.rows.entry(id).or_default() += 1;
        }
    }
    Ok(history)
}
