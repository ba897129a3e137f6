//! Reading options from `key=value` text and from records' JSON, and writing them back.
//!
//! The defaults are serialised to a JSON map, each given value replaces one field, and the map
//! is deserialised back, so a game only derives serde. Every value is checked against its
//! description ([`GameOptions::DESCRIPTIONS`]) before it goes in: refusals are typed checks
//! in the description's words ("expected dark or light"), never serde's error text.

use serde_json::{Map, Value};

use super::{flag, GameOptions, OptionInfo};
use crate::OptionsError;

/// Parses `key=value` pairs over the defaults of `O`, for the game called `game`.
///
/// A described option reads its value as its description says (a number for a range, on/off
/// for a flag, a word for a choice); an undescribed one as its default's type.
pub fn parse_options<O: GameOptions>(
    game: &str,
    pairs: &[impl AsRef<str>],
) -> Result<O, OptionsError> {
    let mut map = defaults_map::<O>();
    for pair in pairs {
        let pair = pair.as_ref();
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| OptionsError::Syntax(pair.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        let Some(default) = map.get(name) else {
            return Err(unknown(game, name, &map));
        };
        let typed = match description::<O>(name) {
            Some(info) => described::<O>(&map, info, value, info.values.read_text(value))?,
            None => undescribed::<O>(&map, name, value, typed_value(default, name, value)?)?,
        };
        map.insert(name.to_string(), typed);
    }
    options_from_map(map)
}

/// Reads options from a JSON value (records) for the game called `game`; missing fields take
/// their defaults. A bad field is blamed by name and value, as [`parse_options`] does.
pub fn options_from_json<O: GameOptions>(game: &str, value: &Value) -> Result<O, OptionsError> {
    let mut map = defaults_map::<O>();
    if let Value::Object(given) = value {
        for (name, value) in given {
            if !map.contains_key(name) {
                return Err(unknown(game, name, &map));
            }
            let shown = value_text(value);
            let typed = match description::<O>(name) {
                Some(info) => described::<O>(&map, info, &shown, value.clone())?,
                None => undescribed::<O>(&map, name, &shown, value.clone())?,
            };
            map.insert(name.clone(), typed);
        }
    }
    options_from_map(map)
}

/// The options as `key=value` pairs, sorted by name (serde_json keeps its maps sorted), for
/// display and records.
pub fn options_to_pairs<O: GameOptions>(options: &O) -> Vec<(String, String)> {
    match serde_json::to_value(options) {
        Ok(Value::Object(map)) => map.into_iter().map(|(k, v)| (k, value_text(&v))).collect(),
        _ => Vec::new(),
    }
}

/// A value as a person types it: text without its quotes, anything else as JSON.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// `shown` is not among the values `info` describes.
fn not_described(info: &OptionInfo, shown: &str) -> OptionsError {
    OptionsError::BadValue {
        name: info.name.to_string(),
        value: shown.to_string(),
        reason: format!("expected {}", info.values.expected()),
    }
}

fn description<O: GameOptions>(name: &str) -> Option<&'static OptionInfo> {
    O::DESCRIPTIONS.iter().find(|info| info.name == name)
}

fn unknown(game: &str, name: &str, map: &Map<String, Value>) -> OptionsError {
    OptionsError::Unknown {
        game: game.to_string(),
        name: name.to_string(),
        known: map.keys().cloned().collect::<Vec<_>>().join(", "),
    }
}

/// `given` (shown to people as `shown`) if its description accepts it. Otherwise the game's
/// own check speaks first, since it knows more than a range can say (Qilin's
/// `draw_repetition` is "0 (off) or 2 to 10"); then the description's words.
fn described<O: GameOptions>(
    map: &Map<String, Value>,
    info: &OptionInfo,
    shown: &str,
    given: Value,
) -> Result<Value, OptionsError> {
    if info.values.accepts_json(&given) {
        return Ok(given);
    }
    let mut candidate = map.clone();
    candidate.insert(info.name.to_string(), given);
    if let Ok(options) = serde_json::from_value::<O>(Value::Object(candidate)) {
        options.validate()?;
    }
    Err(not_described(info, shown))
}

/// `given` for an option without a description, if the options type takes it: without a
/// description only the default's kind can say what was expected.
fn undescribed<O: GameOptions>(
    map: &Map<String, Value>,
    name: &str,
    shown: &str,
    given: Value,
) -> Result<Value, OptionsError> {
    let mut candidate = map.clone();
    candidate.insert(name.to_string(), given.clone());
    if serde_json::from_value::<O>(Value::Object(candidate)).is_ok() {
        return Ok(given);
    }
    let kind = match map.get(name) {
        Some(Value::Number(_)) => "a whole number",
        Some(Value::Bool(_)) => "true or false",
        _ => "one of the words",
    };
    Err(OptionsError::BadValue {
        name: name.to_string(),
        value: shown.to_string(),
        reason: format!("expected {kind} the option takes"),
    })
}

fn defaults_map<O: GameOptions>() -> Map<String, Value> {
    match serde_json::to_value(O::default()) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// The options from a map whose every value was checked, then the game's own check and the
/// descriptions over the whole (the defaults included).
fn options_from_map<O: GameOptions>(map: Map<String, Value>) -> Result<O, OptionsError> {
    // Each value went in only after its check, so a failure here is a game whose
    // descriptions allow a value its options type cannot hold.
    let options: O = serde_json::from_value(Value::Object(map))
        .map_err(|e| OptionsError::Mismatch(e.to_string()))?;
    options.validate()?;
    check_descriptions(&options)?;
    Ok(options)
}

/// Checks every option's value against its description in `O::DESCRIPTIONS`.
fn check_descriptions<O: GameOptions>(options: &O) -> Result<(), OptionsError> {
    let pairs = options_to_pairs(options);
    for info in O::DESCRIPTIONS {
        let Some((_, value)) = pairs.iter().find(|(name, _)| name == info.name) else {
            continue;
        };
        if !info.values.accepts(value) {
            return Err(not_described(info, value));
        }
    }
    Ok(())
}

/// `value` as the JSON type of the option's `default`, for an undescribed option.
fn typed_value(default: &Value, name: &str, value: &str) -> Result<Value, OptionsError> {
    let bad = |reason: &str| OptionsError::BadValue {
        name: name.to_string(),
        value: value.to_string(),
        reason: reason.to_string(),
    };
    match default {
        Value::Number(_) => value
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| bad("expected a whole number")),
        Value::Bool(_) => flag(value)
            .map(Value::Bool)
            .ok_or_else(|| bad("expected on or off")),
        _ => Ok(Value::String(value.to_string())),
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
