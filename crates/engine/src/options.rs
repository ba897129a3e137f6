//! Rules options (a serde struct per game) and the static description of a game.
//!
//! Options are set from `key=value` text (command line, menus, records). Parsing is generic:
//! the defaults are serialised to JSON, each pair overrides one field with the type the
//! default has, and the result is deserialised back, so a game only derives serde and lists
//! its options in [`GameInfo`].

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::plain_serde_message;
use crate::OptionsError;

/// A game's rules options: serde names are the spec's names, `Default` gives the spec's defaults.
pub trait GameOptions:
    Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq + Send + Sync + 'static
{
    /// The options as menus show them, one per serde field, in menu order. This is the one
    /// place a game writes its ranges, steps and choices: parsing checks every value against
    /// its description, and the game's [`GameInfo::options`] is this same list
    /// ([`crate::testkit::check_option_descriptions`] checks that they agree).
    const DESCRIPTIONS: &'static [OptionInfo] = &[];

    /// Checks what the descriptions cannot express (Qilin's `draw_repetition` may be 0 or
    /// 2..=10, not 1). It runs before the check against the descriptions, so its message wins.
    /// The default accepts all.
    fn validate(&self) -> Result<(), OptionsError> {
        Ok(())
    }
}

/// What values an option takes, for menus and `--help`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionValues {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number in `min..=max`, stepping by `step` (2 for Splut!'s odd sizes).
    Range {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
        /// The distance between allowed values.
        step: i64,
    },
    /// `true` or `false`.
    Flag,
}

/// One rules option as a menu shows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionInfo {
    /// The spec's name, as typed in `key=value`.
    pub name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The accepted values.
    pub values: OptionValues,
}

impl OptionInfo {
    /// The option's name as a menu label: `first_player` reads "First player".
    pub fn label(&self) -> String {
        label_of(self.name)
    }

    /// The help line as a sentence, with a capital first letter.
    pub fn description(&self) -> String {
        capitalised(self.help)
    }
}

/// A key or a choice's value as words for people: `mover_wins` reads "Mover wins". Every
/// front end labels options through this, so the browser and the terminal say the same.
pub fn label_of(key: &str) -> String {
    capitalised(&key.replace('_', " "))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The static description of a game: its id, names, seats and options.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameInfo {
    /// The registry name (`qawale`), as typed on the command line.
    pub id: &'static str,
    /// The name people use ("Qilin Chess XiaSanZi").
    pub name: &'static str,
    /// One line that says what the game is like.
    pub description: &'static str,
    /// The smallest number of seats.
    pub min_seats: usize,
    /// The largest number of seats.
    pub max_seats: usize,
    /// The rules options.
    pub options: &'static [OptionInfo],
    /// An upper bound on complete turns in any game with default options; random-simulation
    /// tests fail a game that lasts longer.
    pub max_turns: u32,
    /// The rules in a few paragraphs for people (plain text that reads as Markdown), written
    /// from the spec; front ends show it on their rules pages.
    pub rules: &'static str,
    /// How moves are written: a short legend of the notation with examples.
    pub notation: &'static str,
    /// The computer player that plays level 5 ("best") for this game, as an agent spec
    /// (`ai:alphabeta:quiesce=true`); arena measurements choose it.
    pub strongest: &'static str,
}

/// Parses `key=value` pairs over the defaults of `O`, for the game called `game`.
///
/// Numbers and booleans are read as the default's type; anything else as text.
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
            return Err(OptionsError::Unknown {
                game: game.to_string(),
                name: name.to_string(),
                known: map.keys().cloned().collect::<Vec<_>>().join(", "),
            });
        };
        let typed = typed_value(default, name, value)?;
        map.insert(name.to_string(), typed);
        // Deserialise after each pair so that a bad value is blamed on its own option.
        if let Err(e) = serde_json::from_value::<O>(Value::Object(map.clone())) {
            return Err(OptionsError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                reason: plain_serde_message(&e.to_string()),
            });
        }
    }
    options_from_map(map)
}

/// Reads options from a JSON value (records); missing fields take their defaults. A bad
/// field is blamed by name and value, one field at a time as [`parse_options`] does.
pub fn options_from_json<O: GameOptions>(value: &Value) -> Result<O, OptionsError> {
    let mut map = defaults_map::<O>();
    if let Value::Object(given) = value {
        for (name, value) in given {
            map.insert(name.clone(), value.clone());
            if let Err(e) = serde_json::from_value::<O>(Value::Object(map.clone())) {
                let value = match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                return Err(OptionsError::BadValue {
                    name: name.clone(),
                    value,
                    reason: plain_serde_message(&e.to_string()),
                });
            }
        }
    }
    options_from_map(map)
}

/// The options as `key=value` pairs, sorted by name (serde_json keeps its maps sorted), for
/// display and records.
pub fn options_to_pairs<O: GameOptions>(options: &O) -> Vec<(String, String)> {
    match serde_json::to_value(options) {
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, text)
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn defaults_map<O: GameOptions>() -> Map<String, Value> {
    match serde_json::to_value(O::default()) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

fn options_from_map<O: GameOptions>(map: Map<String, Value>) -> Result<O, OptionsError> {
    let options: O = serde_json::from_value(Value::Object(map)).map_err(|e| {
        let text = e.to_string();
        OptionsError::BadValue {
            name: field_in_error(&text).unwrap_or_default(),
            value: String::new(),
            reason: plain_serde_message(&text),
        }
    })?;
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
            return Err(OptionsError::BadValue {
                name: info.name.to_string(),
                value: value.clone(),
                reason: format!("expected {}", info.values.expected()),
            });
        }
    }
    Ok(())
}

impl OptionValues {
    /// Whether `value`, as [`options_to_pairs`] writes it, is one of these values.
    pub fn accepts(&self, value: &str) -> bool {
        match *self {
            OptionValues::Choice(words) => words.contains(&value),
            OptionValues::Range { min, max, step } => value
                .parse::<i64>()
                .is_ok_and(|v| (min..=max).contains(&v) && (v - min) % step.max(1) == 0),
            OptionValues::Flag => value == "true" || value == "false",
        }
    }

    /// The values in words, after "expected" (`1, 2 or 3`, `an odd number from 9 to 25`).
    pub fn expected(&self) -> String {
        match *self {
            OptionValues::Choice(words) => or_list(words.iter().map(ToString::to_string)),
            OptionValues::Range { min, max, step } => {
                let step = step.max(1);
                if (max - min) / step < 3 {
                    or_list((min..=max).step_by(step as usize).map(|v| v.to_string()))
                } else if step == 2 {
                    let parity = if min % 2 == 0 { "an even" } else { "an odd" };
                    format!("{parity} number from {min} to {max}")
                } else if min == 0 {
                    format!("0 (off) to {max}")
                } else {
                    format!("a whole number from {min} to {max}")
                }
            }
            OptionValues::Flag => "on or off".to_string(),
        }
    }
}

/// `a, b or c`.
fn or_list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn field_in_error(text: &str) -> Option<String> {
    let start = text.find("field `")? + 7;
    let end = text[start..].find('`')? + start;
    Some(text[start..end].to_string())
}

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
        Value::Bool(_) => match value {
            "true" | "on" | "yes" => Ok(Value::Bool(true)),
            "false" | "off" | "no" => Ok(Value::Bool(false)),
            _ => Err(bad("expected on or off")),
        },
        _ => Ok(Value::String(value.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Serialize, Deserialize, Default, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    struct Demo {
        size: u32,
        follow: bool,
        side: Side,
    }

    #[derive(Serialize, Deserialize, Default, Clone, Copy, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Side {
        #[default]
        Dark,
        Light,
    }

    impl GameOptions for Demo {
        fn validate(&self) -> Result<(), OptionsError> {
            if self.size > 20 {
                return Err(OptionsError::BadValue {
                    name: "size".into(),
                    value: self.size.to_string(),
                    reason: "expected at most 20".into(),
                });
            }
            Ok(())
        }
    }

    #[test]
    fn pairs_override_defaults_with_the_right_types() {
        let o: Demo = parse_options("demo", &["size=9", "follow=on", "side=light"]).unwrap();
        assert_eq!(
            o,
            Demo {
                size: 9,
                follow: true,
                side: Side::Light
            }
        );
    }

    #[test]
    fn errors_name_the_option() {
        let e = parse_options::<Demo>("demo", &["colour=red"]).unwrap_err();
        assert!(e.to_string().contains("unknown option 'colour'"), "{e}");
        let e = parse_options::<Demo>("demo", &["size=big"]).unwrap_err();
        assert!(e.to_string().contains("whole number"), "{e}");
        let e = parse_options::<Demo>("demo", &["side=blue"]).unwrap_err();
        assert!(e.to_string().ends_with("expected dark or light"), "{e}");
        assert!(e.to_string().contains("'blue' for option 'side'"), "{e}");
        let e = parse_options::<Demo>("demo", &["size=21"]).unwrap_err();
        assert!(e.to_string().contains("at most 20"), "{e}");
        assert!(parse_options::<Demo>("demo", &["size"]).is_err());
    }

    #[test]
    fn record_options_are_blamed_by_name_in_plain_words() {
        let e = options_from_json::<Demo>(&serde_json::json!({"size": -1})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value '-1' for option 'size': expected a whole number of 0 or more"
        );
        let e = options_from_json::<Demo>(&serde_json::json!({"side": 3})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value '3' for option 'side': expected one of the words the option takes"
        );
    }

    #[test]
    fn pairs_round_trip() {
        let o = Demo {
            size: 13,
            follow: false,
            side: Side::Light,
        };
        let pairs: Vec<String> = options_to_pairs(&o)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        assert_eq!(parse_options::<Demo>("demo", &pairs).unwrap(), o);
    }
}
