//! `GET /api/meta`: the games from the registry (names, seats, every rules option with its
//! description, values and typed default, rules for people) and the computer levels. Built
//! once: it never changes while the server runs.

use std::sync::OnceLock;

use ludus_ai::AgentKind;
use ludus_engine::{GameInfo, OptionInfo, OptionValues};
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
        "rules": info.rules,
        "legend": info.notation,
        "view": view.as_ref().map(ViewJson::of),
    })
}

fn option(option: &OptionInfo, defaults: &Value) -> Value {
    let values = match option.values {
        OptionValues::Choice(words) => json!({"kind": "choice", "choices": words}),
        OptionValues::Range { min, max, step } => {
            json!({"kind": "range", "min": min, "max": max, "step": step})
        }
        OptionValues::Flag => json!({"kind": "bool"}),
    };
    json!({
        "key": option.name,
        "description": option.help,
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
        assert!(games.iter().all(|g| g["view"]["cells"].is_array()));
        assert!(games
            .iter()
            .all(|g| g["rules"].as_str().unwrap().len() > 200));
        assert!(games
            .iter()
            .all(|g| !g["legend"].as_str().unwrap().is_empty()));
    }
}
