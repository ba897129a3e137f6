//! The final check: every game's stored moves against what its clients saw. For each game
//! played, the server's record (`GET /api/games/{id}/record`) is read back; the decisions
//! acknowledged to the clients are replayed through the rules from the record's start, and
//! the turns they make must be exactly the stored turns. A shorter store lost decisions, a
//! longer one applied some twice (or applied one nobody acknowledged).
//!
//! A check that could not read the games back (the server died, answered errors, or no game
//! was played) proves nothing: it is reported as not made, never as "0 lost".

use std::sync::Arc;

use futures_util::{stream, StreamExt};
use ludus_engine::GameRecord;
use serde::Serialize;

use super::client::Played;
use super::tally::Tally;
use super::Plan;

/// Records fetched at once.
const FETCHES: usize = 16;

/// The check's counts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Check {
    /// Games checked.
    pub games: u64,
    /// Decisions acknowledged to the clients, over every game.
    pub decisions: u64,
    /// Acknowledged decisions missing from the store.
    pub lost: u64,
    /// Decisions stored beyond those acknowledged.
    pub doubled: u64,
    /// Games whose stored turns differ from the acknowledged decisions of the same length.
    pub mismatched: u64,
    /// Games the server no longer holds (it drops finished games past its limit).
    pub missing: u64,
    /// Games whose record could not be read back (the server gone, an error answer).
    pub unread: u64,
    /// Whether the check was made: at least one game compared, and every record read.
    pub made: bool,
    /// Why the check could not be made, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_made: Option<String>,
}

impl Check {
    /// Whether the check was made and nothing was lost, doubled or changed.
    pub fn passed(&self) -> bool {
        self.made && self.lost == 0 && self.doubled == 0 && self.mismatched == 0
    }

    /// Decides whether the check was made; `first_error` is the first unreadable record's.
    fn conclude(&mut self, first_error: Option<String>) {
        let compared = self.games - self.missing - self.unread;
        self.not_made = if self.unread > 0 {
            Some(format!(
                "{} of {} games' records could not be read back (first: {})",
                self.unread,
                self.games,
                first_error.unwrap_or_default()
            ))
        } else if self.games == 0 {
            Some("no game was played".to_string())
        } else if compared == 0 {
            Some(format!(
                "the server holds none of the {} games played",
                self.games
            ))
        } else {
            None
        };
        self.made = self.not_made.is_none();
    }
}

/// How one game compares.
enum Verdict {
    Same,
    Lost(u64),
    Doubled(u64),
    Mismatched,
    Missing,
}

/// Checks every game in `played`; errors reading a record go to `tally`.
pub async fn check(plan: &Arc<Plan>, played: &[Played], tally: &mut Tally) -> Check {
    let verdicts: Vec<_> = stream::iter(played)
        .map(|game| async move {
            let verdict = match fetch(plan, &game.id).await {
                Ok(Some(record)) => compare(&record, game),
                Ok(None) => Ok(Verdict::Missing),
                Err(e) => Err(e),
            };
            (game.acked.len() as u64, verdict)
        })
        .buffer_unordered(FETCHES)
        .collect()
        .await;
    let mut check = Check::default();
    let mut first_error = None;
    for (decisions, verdict) in verdicts {
        check.games += 1;
        check.decisions += decisions;
        match verdict {
            Ok(Verdict::Same) => {}
            Ok(Verdict::Lost(n)) => check.lost += n,
            Ok(Verdict::Doubled(n)) => check.doubled += n,
            Ok(Verdict::Mismatched) => check.mismatched += 1,
            Ok(Verdict::Missing) => check.missing += 1,
            Err(message) => {
                check.unread += 1;
                first_error.get_or_insert_with(|| message.clone());
                tally.error("record", message);
            }
        }
    }
    check.conclude(first_error);
    check
}

/// The stored record of game `id`; `None` when the server does not hold it.
async fn fetch(plan: &Plan, id: &str) -> Result<Option<GameRecord>, String> {
    let url = format!("{}/api/games/{id}/record?format=json", plan.target.base);
    let failed = |e: &dyn std::fmt::Display| format!("cannot read the record of game {id}: {e}");
    let response = plan.http.get(url).send().await.map_err(|e| failed(&e))?;
    if response.status() == reqwest::StatusCode::NOT_FOUND {
        return Ok(None);
    }
    let status = response.status();
    let text = response.text().await.map_err(|e| failed(&e))?;
    if !status.is_success() {
        return Err(failed(&format!("{status}: {text}")));
    }
    GameRecord::from_json(&text)
        .map(Some)
        .map_err(|e| failed(&e))
}

/// Replays `game`'s acknowledged decisions from `record`'s start and compares the turns.
fn compare(record: &GameRecord, game: &Played) -> Result<Verdict, String> {
    let unreadable =
        |e: &dyn std::fmt::Display| format!("stored game {} is unreadable: {e}", game.id);
    let stored = ludus_games::load_record(record).map_err(|e| unreadable(&e))?;
    let mut start = record.clone();
    start.moves.clear();
    start.result = None;
    let mut replayed = ludus_games::load_record(&start).map_err(|e| unreadable(&e))?;
    let mut replays = true;
    for decision in &game.acked {
        replays = replays && replayed.play(decision).is_ok();
    }
    let acked = game.acked.len() as u64;
    let held = stored.entry_count() as u64;
    Ok(if replays && replayed.record().moves == record.moves {
        Verdict::Same
    } else if held < acked {
        Verdict::Lost(acked - held)
    } else if held > acked + u64::from(game.in_doubt) {
        Verdict::Doubled(held - acked)
    } else if held == acked + 1 && replays {
        // The unanswered move may have been stored: fine if the rest is what was seen.
        let mut before = stored;
        let same = before.undo() && before.record().moves == replayed.record().moves;
        if same {
            Verdict::Same
        } else {
            Verdict::Mismatched
        }
    } else {
        Verdict::Mismatched
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game whose turns take several decisions, since the check must handle partial turns:
    /// the first registered game in which the first seat decides twice in a row.
    fn several_decisions_a_turn() -> &'static str {
        let found = ludus_games::GAMES.iter().map(|info| info.id).find(|id| {
            let mut game = ludus_games::new_game(id, &[], None, 0).unwrap();
            let first = game.to_move();
            let decision = game.legal_moves()[0].notation.clone();
            game.play(&decision).is_ok() && game.to_move() == first
        });
        found.expect("a game whose turns take several decisions")
    }

    /// That game's record after `decisions` (single decisions, as the clients send them).
    fn stored(decisions: &[&str]) -> GameRecord {
        let mut game = ludus_games::new_game(several_decisions_a_turn(), &[], None, 0).unwrap();
        for decision in decisions {
            game.play(decision).unwrap();
        }
        game.record()
    }

    fn verdict(stored_decisions: &[&str], acked: &[&str], in_doubt: bool) -> Verdict {
        let played = Played {
            id: "test".to_string(),
            acked: acked.iter().map(ToString::to_string).collect(),
            in_doubt,
            seated: None,
            finished: false,
        };
        compare(&stored(stored_decisions), &played).unwrap()
    }

    /// That game's first six decisions (for example a stack, then its sowing steps).
    fn opening() -> Vec<String> {
        let mut game = ludus_games::new_game(several_decisions_a_turn(), &[], None, 0).unwrap();
        let mut decisions = Vec::new();
        while decisions.len() < 6 {
            let decision = game.legal_moves()[0].notation.clone();
            game.play(&decision).unwrap();
            decisions.push(decision);
        }
        decisions
    }

    #[test]
    fn the_store_must_hold_exactly_the_acknowledged_decisions() {
        let turn = opening();
        let all: Vec<&str> = turn.iter().map(String::as_str).collect();
        assert!(all.len() > 2, "{all:?}");
        let short = &all[..all.len() - 1];
        assert!(matches!(verdict(&all, &all, false), Verdict::Same));
        assert!(matches!(verdict(short, &all, false), Verdict::Lost(1)));
        assert!(matches!(verdict(&all, short, false), Verdict::Doubled(1)));
        // An unanswered move may or may not have been stored, nothing else may differ.
        assert!(matches!(verdict(&all, short, true), Verdict::Same));
        assert!(matches!(verdict(short, short, true), Verdict::Same));
        let mut other = short.to_vec();
        let last = turn.last().unwrap();
        let mut game = ludus_games::new_game(several_decisions_a_turn(), &[], None, 0).unwrap();
        for decision in short {
            game.play(decision).unwrap();
        }
        let different = game
            .legal_moves()
            .into_iter()
            .map(|m| m.notation)
            .find(|m| m != last);
        if let Some(different) = &different {
            other.push(different);
            assert!(matches!(verdict(&all, &other, false), Verdict::Mismatched));
        }
    }
}
