//! The set-up screen in words: options are labelled as the web page labels them (never a raw
//! key such as `first_player`), and the selected option's description is wrapped, never cut,
//! at the narrow widths people use.

use ludus_engine::OptionValues;
use ratatui::crossterm::event::KeyCode;

use super::{new_app, press, render};
use crate::menu;
use crate::setup::Row;

/// The screen's text inside the frame, its lines joined by spaces, so that a wrapped sentence
/// reads as one.
fn joined(screen: &str) -> String {
    let words: Vec<&str> = screen
        .lines()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .flat_map(str::split_whitespace)
        .collect();
    words.join(" ")
}

#[test]
fn options_are_labelled_in_words_and_described_whole_at_80_and_120_columns() {
    for width in [80, 120] {
        for info in menu::games() {
            let mut app = new_app(width, 24);
            menu::open_setup(&mut app, info);
            for (index, option) in info.options.iter().enumerate() {
                while app.setup().unwrap().current() != Row::Option(index) {
                    press(&mut app, KeyCode::Down);
                }
                let screen = render(&app);
                let text = joined(&screen);
                assert!(text.contains(&option.label()), "{}:\n{screen}", info.id);
                assert!(text.contains(&option.description()), "{width}:\n{screen}");
                assert!(!screen.contains('…'), "{width} cuts:\n{screen}");
                // The rows name no key and no value in their raw form (a description may
                // still quote one, as the rules do).
                let row = screen
                    .lines()
                    .find(|l| l.contains(&option.label()))
                    .unwrap();
                let raw = |word: &str| word.contains('_') && row.contains(word);
                assert!(!info.options.iter().any(|o| raw(o.name)), "{row}");
                if let OptionValues::Choice(values) = option.values {
                    assert!(!values.iter().any(|v| raw(v)), "{row}");
                }
            }
        }
    }
}
