//! `GET /api/lobby`: the games people can join (a seat waits for its invited player), watch
//! (in progress) or replay (finished), newest first; private games are left out.

use std::sync::Arc;

use serde_json::{json, Value};

use super::LiveGame;

/// The most games listed per group.
const PER_GROUP: usize = 100;

const WAITING: usize = 0;
const PLAYING: usize = 1;
const FINISHED: usize = 2;

/// The lobby of `games`.
pub fn lobby(games: &[Arc<LiveGame>]) -> Value {
    let mut groups: [Vec<_>; 3] = Default::default();
    for game in games {
        let table = game.lock();
        if table.private {
            continue;
        }
        let free = table.free_seats();
        let group = if table.finished_at.is_some() {
            FINISHED
        } else if free.is_empty() {
            PLAYING
        } else {
            WAITING
        };
        let mut entry = table.summary(game.id());
        entry["free_seats"] = json!(free);
        groups[group].push((table.last_change, entry));
    }
    let [waiting, playing, finished] = groups.map(|mut group| {
        group.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
        group
            .into_iter()
            .take(PER_GROUP)
            .map(|(_, entry)| entry)
            .collect::<Vec<_>>()
    });
    json!({"waiting": waiting, "in_progress": playing, "finished": finished})
}
