//! Tests of option parsing: described options refused in their descriptions' words, the
//! game's own check first, undescribed options by their default's kind, records' JSON.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::*;
use crate::OptionValues;

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
    const DESCRIPTIONS: &'static [OptionInfo] = &[
        OptionInfo {
            name: "size",
            help: "the board's size",
            values: OptionValues::Range {
                min: 0,
                max: 30,
                step: 1,
            },
        },
        OptionInfo {
            name: "follow",
            help: "whether to follow",
            values: OptionValues::Flag,
        },
        OptionInfo {
            name: "side",
            help: "who starts",
            values: OptionValues::Choice(&["dark", "light"]),
        },
    ];

    // Narrower than the description, so that its message is seen to win.
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

/// Options a game has not described: only their serde types check them.
#[derive(Serialize, Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, default)]
struct Bare {
    count: u8,
}

impl GameOptions for Bare {}

fn refusal<O: GameOptions>(pair: &str) -> String {
    parse_options::<O>("demo", &[pair]).unwrap_err().to_string()
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
fn described_options_are_refused_in_their_descriptions_words() {
    assert_eq!(
        refusal::<Demo>("colour=red"),
        "unknown option 'colour' for demo: expected one of follow, side, size"
    );
    assert_eq!(
        refusal::<Demo>("size=big"),
        "bad value 'big' for option 'size': expected 0 (off) to 30"
    );
    assert_eq!(
        refusal::<Demo>("size=-1"),
        "bad value '-1' for option 'size': expected 0 (off) to 30"
    );
    assert_eq!(
        refusal::<Demo>("side=blue"),
        "bad value 'blue' for option 'side': expected dark or light"
    );
    assert_eq!(
        refusal::<Demo>("follow=maybe"),
        "bad value 'maybe' for option 'follow': expected on or off"
    );
    assert!(parse_options::<Demo>("demo", &["size"]).is_err());
}

#[test]
fn the_games_own_check_speaks_before_the_description() {
    // 25 is inside the description (0..=30) and 31 outside it: the game's check says both.
    for pair in ["size=25", "size=31"] {
        assert!(
            refusal::<Demo>(pair).ends_with("expected at most 20"),
            "{pair}"
        );
    }
    // A value the type cannot hold never reaches the game's check.
    assert_eq!(
        refusal::<Demo>("size=99999999999"),
        "bad value '99999999999' for option 'size': expected 0 (off) to 30"
    );
}

#[test]
fn undescribed_options_are_refused_by_their_defaults_kind() {
    assert_eq!(
        parse_options::<Bare>("bare", &["count=7"]).unwrap().count,
        7
    );
    assert_eq!(
        refusal::<Bare>("count=300"),
        "bad value '300' for option 'count': expected a whole number the option takes"
    );
    assert_eq!(
        refusal::<Bare>("count=many"),
        "bad value 'many' for option 'count': expected a whole number"
    );
}

#[test]
fn record_options_are_blamed_by_name_in_plain_words() {
    let e = options_from_json::<Demo>("demo", &json!({"size": -1})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad value '-1' for option 'size': expected 0 (off) to 30"
    );
    let e = options_from_json::<Demo>("demo", &json!({"side": 3})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad value '3' for option 'side': expected dark or light"
    );
    let e = options_from_json::<Demo>("demo", &json!({"follow": "yes"})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad value 'yes' for option 'follow': expected on or off"
    );
    let e = options_from_json::<Demo>("demo", &json!({"depth": 2})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown option 'depth' for demo: expected one of follow, side, size"
    );
    let o = options_from_json::<Demo>("demo", &json!({"side": "light", "size": 4})).unwrap();
    assert_eq!((o.side, o.size), (Side::Light, 4));
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
