//! Pages of a list: `?limit=N&before=CURSOR`, newest change first. A cursor names the last
//! entry of a page (when it changed and its id), so the next page starts strictly after it:
//! no entry repeats and none is skipped, except a game that changed meanwhile, which moved to
//! the first page.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::Value;

use crate::error::ApiError;

/// Entries per page unless `limit` says otherwise.
pub const DEFAULT_LIMIT: usize = 50;

/// The most entries a page may hold.
pub const MAX_LIMIT: usize = 200;

/// Where an entry stands in a list: when it changed (microseconds from a fixed instant of
/// this process) and its id, newest first.
type Key = Reverse<(i128, String)>;

/// A page asked for.
#[derive(Clone, Debug)]
pub struct Page {
    limit: usize,
    after: Option<Key>,
}

impl Page {
    /// The page `limit` and `before` of `query` ask for, or a 400 naming the bad one.
    pub fn from_query(query: &HashMap<String, String>) -> Result<Page, ApiError> {
        let limit = match query.get("limit") {
            None => DEFAULT_LIMIT,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_LIMIT).contains(n))
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "limit '{text}': expected a whole number from 1 to {MAX_LIMIT}"
                    ))
                })?,
        };
        let after = query
            .get("before")
            .map(|text| parse_cursor(text))
            .transpose()?;
        Ok(Page { limit, after })
    }

    /// Whether the query asked for a later page.
    pub fn is_later(&self) -> bool {
        self.after.is_some()
    }

    /// This page of `entries` (each with when it changed and its id), and the cursor of the
    /// next page (`null` on the last one).
    pub fn of(&self, entries: Vec<(Instant, String, Value)>) -> (Vec<Value>, Value) {
        let mut keyed: Vec<(Key, Value)> = entries
            .into_iter()
            .map(|(at, id, entry)| (Reverse((micros(at), id)), entry))
            .filter(|(key, _)| self.after.as_ref().is_none_or(|after| key > after))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let more = keyed.len() > self.limit;
        keyed.truncate(self.limit);
        let next = match keyed.last() {
            Some((Reverse((at, id)), _)) if more => Value::String(format!("{at}.{id}")),
            _ => Value::Null,
        };
        (keyed.into_iter().map(|(_, entry)| entry).collect(), next)
    }
}

fn parse_cursor(text: &str) -> Result<Key, ApiError> {
    let bad = || {
        ApiError::bad_request(format!(
            "before '{text}': expected the `next` cursor of an earlier page"
        ))
    };
    let (at, id) = text.split_once('.').ok_or_else(bad)?;
    let at = at.parse::<i128>().map_err(|_| bad())?;
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(bad());
    }
    Ok(Reverse((at, id.to_string())))
}

/// `at` as microseconds from a fixed instant of this process: the same instant always gives
/// the same number, so cursors stay valid while the server runs.
fn micros(at: Instant) -> i128 {
    static ANCHOR: OnceLock<Instant> = OnceLock::new();
    let anchor = *ANCHOR.get_or_init(Instant::now);
    match at.checked_duration_since(anchor) {
        Some(since) => i128::try_from(since.as_micros()).unwrap_or(i128::MAX),
        None => -i128::try_from(anchor.duration_since(at).as_micros()).unwrap_or(i128::MAX),
    }
}
