//! `GET /api/meta`: the games from the registry (names, seats, every rules option with its
//! description, values and typed default, rules for people) and the computer levels. Built
//! once: it never changes while the server runs.

use std::sync::OnceLock;

use ludus_ai::AgentKind;
use ludus_engine::{label_of, GameInfo, OptionInfo, OptionValues};
use ludus_games::GAMES;
use serde_json::{json, Value};

use crate::live::ViewJson;

/// What each computer level is, for the setup screen.
const LEVELS: [&str; 5] = [
    "plays a random legal move",
    "takes the move that looks best right now",
    "looks three turns ahead",
    "searches deeply for a second (alpha-beta)",
    "the strongest player for this game",
];

/// The meta document as JSON text.
pub fn meta() -> &'static str {
    static META: OnceLock<String> = OnceLock::new();
    META.get_or_init(|| {
        json!({
            "games": GAMES.iter().map(|info| game(info)).collect::<Vec<_>>(),
            "levels": (1u8..=5).map(level).collect::<Vec<_>>(),
        })
        .to_string()
    })
}

fn level(level: u8) -> Value {
    let name = AgentKind::from_level(level).map_or("?", AgentKind::name);
    json!({"level": level, "name": name, "about": LEVELS[usize::from(level) - 1]})
}

fn game(info: &GameInfo) -> Value {
    let start = ludus_games::new_game(info.id, &[], None, 0).ok();
    let defaults = start
        .as_ref()
        .map(|g| g.record().options)
        .unwrap_or_default();
    // The start position, drawn as the game's picture on the home page.
    let view = start.map(|g| g.view());
    json!({
        "id": info.id,
        "name": info.name,
        "summary": info.description,
        "seats": {"min": info.min_seats, "max": info.max_seats},
        "options": info.options.iter().map(|o| option(o, &defaults)).collect::<Vec<_>>(),
        "lineups": (info.min_seats..=info.max_seats).map(|n| lineup(info, n)).collect::<Vec<_>>(),
        "rules": info.rules,
        "legend": info.notation,
        "view": view.as_ref().map(ViewJson::of),
    })
}

/// The seats of a game of `seats` players with default options: each seat's side and colour,
/// and the seat that moves first, for the set-up screen's seat rows.
fn lineup(info: &GameInfo, seats: usize) -> Value {
    let options = if info.min_seats == info.max_seats {
        Vec::new()
    } else {
        vec![format!("players={seats}")]
    };
    let view = ludus_games::new_game(info.id, &options, None, 0)
        .ok()
        .map(|g| g.view());
    json!({
        "players": seats,
        "seats": view.as_ref().map(|v| v.seats.iter().map(|s| json!({
            "seat": s.seat.number(), "side": s.name, "hue": s.hue,
        })).collect::<Vec<_>>()),
        "first": view.as_ref().and_then(|v| v.to_move).map(ludus_engine::Seat::number),
    })
}

fn option(option: &OptionInfo, defaults: &Value) -> Value {
    let values = match option.values {
        OptionValues::Choice(words_of) => json!({
            "kind": "choice", "choices": words_of,
            "labels": words_of.iter().map(|w| label_of(w)).collect::<Vec<_>>(),
        }),
        OptionValues::Range { min, max, step } => {
            json!({"kind": "range", "min": min, "max": max, "step": step})
        }
        OptionValues::Flag => json!({"kind": "bool"}),
    };
    json!({
        "key": option.name,
        "label": option.label(),
        "description": option.description(),
        "default": defaults.get(option.name).cloned().unwrap_or(Value::Null),
        "values": values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_option_is_described_with_a_typed_default() {
        let meta: Value = serde_json::from_str(meta()).unwrap();
        let games = meta["games"].as_array().unwrap();
        assert_eq!(games.len(), GAMES.len());
        for game in games {
            for option in game["options"].as_array().unwrap() {
                assert!(!option["default"].is_null(), "{option}");
            }
        }
        assert_eq!(meta["levels"][3]["name"], "alphabeta");
        // Set-up reads words, not keys: "first_player" is "First player", "mover_wins" "Mover wins".
        let options: Vec<&Value> = games
            .iter()
            .flat_map(|g| g["options"].as_array().unwrap())
            .collect();
        assert!(options.iter().all(|o| {
            let label = o["label"].as_str().unwrap();
            let about = o["description"].as_str().unwrap();
            !(label.contains('_')
                || label.starts_with(char::is_lowercase)
                || about.starts_with(char::is_lowercase))
        }));
        assert!(games
            .iter()
            .flat_map(|g| g["options"].as_array().unwrap())
            .filter_map(|o| o["values"]["labels"].as_array())
            .flatten()
            .all(|l| !l.as_str().unwrap().contains('_')));
        // Every seat count of every game has its sides and the seat that moves first.
        for game in games {
            for lineup in game["lineups"].as_array().unwrap() {
                let seats = lineup["seats"].as_array().unwrap();
                assert_eq!(
                    seats.len(),
                    lineup["players"].as_u64().unwrap() as usize,
                    "{lineup}"
                );
                assert!(seats
                    .iter()
                    .all(|s| s["side"].is_string() && s["hue"].is_string()));
                assert!(lineup["first"].as_u64().is_some_and(|f| f >= 1), "{lineup}");
            }
        }
        assert!(games.iter().all(|g| g["view"]["cells"].is_array()));
        assert!(games
            .iter()
            .all(|g| g["rules"].as_str().unwrap().len() > 200));
        assert!(games
            .iter()
            .all(|g| !g["legend"].as_str().unwrap().is_empty()));
    }
}
