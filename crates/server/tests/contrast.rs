//! Legibility of the page, computed from the stylesheet: every colour pair the page can draw
//! (text on a surface, a mark on a board cell, ink on its fill) has a WCAG contrast of at least
//! 4.5:1 in every theme. The pairs come from the naming convention that `web/style.css` states
//! at its top, so a new colour is checked as soon as it is named.

use std::collections::BTreeMap;

use ludus_engine::contrast::contrast_ratio;

const STYLESHEET: &str = include_str!("../web/style.css");
const THEMES: [&str; 3] = ["light", "dark", "contrast"];
const MINIMUM: f64 = 4.5;

/// The colour custom properties of each theme block (`[data-theme="…"] { --name: #rrggbb; }`).
fn themes() -> BTreeMap<String, BTreeMap<String, [u8; 3]>> {
    let mut found = BTreeMap::new();
    let mut rest = STYLESHEET;
    while let Some(open) = rest.find('{') {
        let selector = &rest[..open];
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let body = &rest[open + 1..open + close];
        for theme in THEMES {
            if selector.contains(&format!("[data-theme=\"{theme}\"]")) {
                found.insert(theme.to_string(), colours(body));
            }
        }
        rest = &rest[open + close + 1..];
    }
    found
}

fn colours(body: &str) -> BTreeMap<String, [u8; 3]> {
    body.split(';')
        .filter_map(|declaration| {
            let (name, value) = declaration.split_once(':')?;
            let name = name.trim().rsplit(|c: char| c.is_whitespace()).next()?;
            let name = name.strip_prefix("--")?;
            Some((name.to_string(), hex(value.trim())?))
        })
        .collect()
}

fn hex(value: &str) -> Option<[u8; 3]> {
    let digits = value.strip_prefix('#')?;
    let digits: String = match digits.len() {
        3 => digits.chars().flat_map(|c| [c, c]).collect(),
        6 => digits.to_string(),
        _ => return None,
    };
    let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// Every (foreground, background) pair the convention names.
fn pairs(colours: &BTreeMap<String, [u8; 3]>) -> Vec<(String, String)> {
    let with = |prefix: &str| -> Vec<String> {
        colours
            .keys()
            .filter(|name| name.starts_with(prefix))
            .cloned()
            .collect()
    };
    let mut pairs = Vec::new();
    for (front, back) in [("text-", "surface-"), ("on-cell-", "cell-")] {
        for fg in with(front) {
            for bg in with(back) {
                pairs.push((fg.clone(), bg));
            }
        }
    }
    for name in colours.keys() {
        if let Some(fill) = name.strip_suffix("-ink") {
            pairs.push((name.clone(), fill.to_string()));
        }
    }
    pairs
}

#[test]
fn every_theme_defines_the_same_colours() {
    let themes = themes();
    assert_eq!(
        themes.keys().collect::<Vec<_>>(),
        ["contrast", "dark", "light"],
        "style.css must have a block per theme"
    );
    let light: Vec<_> = themes["light"].keys().collect();
    assert!(light.len() > 30, "too few colours parsed: {light:?}");
    for (theme, colours) in &themes {
        assert_eq!(
            colours.keys().collect::<Vec<_>>(),
            light,
            "theme {theme} names other colours than light"
        );
    }
}

#[test]
fn every_foreground_has_its_background() {
    for (theme, colours) in themes() {
        let pairs = pairs(&colours);
        for (fg, bg) in &pairs {
            assert!(
                colours.contains_key(fg) && colours.contains_key(bg),
                "{theme}: {fg} is drawn on {bg}, which is not defined"
            );
        }
        assert!(pairs.len() > 50, "{theme}: only {} pairs", pairs.len());
    }
}

#[test]
fn every_pair_reaches_four_and_a_half_to_one() {
    let mut failures = Vec::new();
    for (theme, colours) in themes() {
        for (fg, bg) in pairs(&colours) {
            let (Some(&a), Some(&b)) = (colours.get(&fg), colours.get(&bg)) else {
                continue;
            };
            let ratio = contrast_ratio(a, b);
            if ratio < MINIMUM {
                failures.push(format!("{theme}: --{fg} on --{bg} is {ratio:.2}:1"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "pairs under {MINIMUM}:1:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_clock_and_presence_colours_are_checked() {
    // A running clock, a low clock and an "away" badge are text on a fill of their own.
    for (theme, colours) in themes() {
        let pairs = pairs(&colours);
        for fill in ["running", "alert"] {
            let pair = (format!("{fill}-ink"), fill.to_string());
            assert!(
                pairs.contains(&pair),
                "{theme}: --{fill}-ink on --{fill} is not checked"
            );
        }
    }
}

#[test]
fn hex_colours_are_read_and_others_refused() {
    // The formula itself is tested with ludus_engine::contrast.
    assert_eq!(hex("#fff"), Some([255, 255, 255]));
    assert_eq!(hex("#7f0a1b"), Some([0x7f, 0x0a, 0x1b]));
    assert_eq!(hex("red"), None);
}
