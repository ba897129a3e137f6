//! Rules options (a serde struct per game) and the static description of a game.
//!
//! Options are set from `key=value` text (command line, menus) or JSON (records). A game
//! derives serde and describes each option once ([`GameOptions::DESCRIPTIONS`]); parsing
//! ([`parse`]) checks every value against its description, so a refusal says in the
//! description's words what the option takes.

mod parse;

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

pub use self::parse::{options_from_json, options_to_pairs, parse_options};
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
    /// The rules' names of the seats, in seat order, for the largest number of seats.
    pub seat_names: &'static [&'static str],
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

    /// Whether the JSON `value` is one of these values: a word among the choices, a whole
    /// number in the range and on its step, or a boolean.
    pub fn accepts_json(&self, value: &Value) -> bool {
        match (*self, value) {
            (OptionValues::Choice(words), Value::String(word)) => words.contains(&word.as_str()),
            (OptionValues::Range { .. }, Value::Number(n)) => {
                n.as_i64().is_some_and(|v| self.accepts(&v.to_string()))
            }
            (OptionValues::Flag, Value::Bool(_)) => true,
            _ => false,
        }
    }

    /// `text` as the JSON value of this kind of option: a number for a range, a boolean for
    /// a flag (`on`/`yes`/`true`, `off`/`no`/`false`), a word otherwise. Text that is not of
    /// the kind stays a word, which [`OptionValues::accepts_json`] then refuses.
    pub fn read_text(&self, text: &str) -> Value {
        match *self {
            OptionValues::Range { .. } => text
                .parse::<i64>()
                .map_or_else(|_| Value::String(text.to_string()), Value::from),
            OptionValues::Flag => {
                flag(text).map_or_else(|| Value::String(text.to_string()), Value::Bool)
            }
            OptionValues::Choice(_) => Value::String(text.to_string()),
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

/// A flag's words: `true`/`on`/`yes` or `false`/`off`/`no`.
fn flag(text: &str) -> Option<bool> {
    match text {
        "true" | "on" | "yes" => Some(true),
        "false" | "off" | "no" => Some(false),
        _ => None,
    }
}
