//! What the lists show (`GET /api/games`, `GET /api/lobby`): every game but the private ones,
//! each in its lobby group: people can join (a seat waits for its invited player), watch (in
//! progress) or replay (finished). A private game is reached only by its link.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};

use super::LiveGame;

/// A lobby group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// In progress, with a seat waiting for its invited player.
    Waiting,
    /// In progress, every seat taken.
    Playing,
    /// Over.
    Finished,
}

impl Group {
    /// Every group, in the lobby's order.
    pub const ALL: [Group; 3] = [Group::Waiting, Group::Playing, Group::Finished];

    /// Its key in `GET /api/lobby`.
    pub fn key(self) -> &'static str {
        match self {
            Group::Waiting => "waiting",
            Group::Playing => "in_progress",
            Group::Finished => "finished",
        }
    }

    /// The group named `key`.
    pub fn from_key(key: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.key() == key)
    }
}

/// A listed game.
#[derive(Clone, Debug)]
pub struct Listed {
    /// When it last changed.
    pub at: Instant,
    /// Its id.
    pub id: String,
    /// Its lobby group.
    pub group: Group,
    /// Its entry in `GET /api/games`.
    pub entry: Value,
    /// The seats (1-based) still waiting for their invited player.
    pub free_seats: Vec<usize>,
    /// In progress against the computer with no person's page open: the lobby hides it unless
    /// asked (people leave such games without ending them).
    pub abandoned: bool,
}

impl Listed {
    /// Its entry in the lobby: the list's entry and its free seats.
    pub fn lobby_entry(self) -> (Instant, String, Value) {
        let mut entry = self.entry;
        entry["free_seats"] = json!(self.free_seats);
        entry["abandoned"] = json!(self.abandoned);
        (self.at, self.id, entry)
    }
}

/// The games of `games` that lists show: all but the private ones, in no order.
pub fn listed(games: &[Arc<LiveGame>]) -> Vec<Listed> {
    games
        .iter()
        .filter_map(|game| {
            let table = game.lock();
            if table.private {
                return None;
            }
            let free_seats = table.free_seats();
            let group = if table.finished_at.is_some() {
                Group::Finished
            } else if free_seats.is_empty() {
                Group::Playing
            } else {
                Group::Waiting
            };
            let computer = table.seats.iter().any(|s| s.computer.is_some());
            let nobody = table
                .seats
                .iter()
                .zip(&table.presence)
                .all(|(seat, presence)| seat.computer.is_some() || presence.sockets == 0);
            Some(Listed {
                abandoned: group != Group::Finished && computer && nobody,
                at: table.last_change,
                id: game.id().to_string(),
                group,
                entry: table.summary(game.id()),
                free_seats,
            })
        })
        .collect()
}
