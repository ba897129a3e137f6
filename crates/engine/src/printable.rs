//! Text from outside (typed input, record files, file names) made safe to echo: control
//! characters and text-direction overrides become visible escapes (`\u{1b}`), so a player
//! named `ESC ]0;…` cannot retitle or clear the terminal, and words longer than
//! [`MAX_WORD`] characters are cut, so a 120 KB token is not echoed back whole.

use std::fmt::Write;

/// The longest word echoed whole, in characters (a long file path still fits).
pub const MAX_WORD: usize = 80;

/// `text` with control characters escaped and over-long words cut (`abc…(+1200 chars)`).
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(1024));
    let mut word = 0;
    let mut skipped = 0;
    for c in text.chars() {
        if c == ' ' {
            end_word(&mut out, &mut skipped);
            word = 0;
            out.push(c);
            continue;
        }
        word += 1;
        if word > MAX_WORD {
            skipped += 1;
            continue;
        }
        if is_unsafe(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    end_word(&mut out, &mut skipped);
    out
}

fn end_word(out: &mut String, skipped: &mut usize) {
    if *skipped > 0 {
        let _ = write!(out, "…(+{skipped} chars)");
        *skipped = 0;
    }
}

/// Control characters (C0, DEL, C1) and the invisible marks that reorder text.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_shown_not_sent() {
        assert_eq!(
            printable("Ann\u{1b}]0;pwned\u{7}\u{1b}[2J"),
            "Ann\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"
        );
        assert_eq!(printable("a\nb\tc\u{202e}d"), "a\\nb\\tc\\u{202e}d");
        assert_eq!(
            printable("Ünïcode names stay — as typed"),
            "Ünïcode names stay — as typed"
        );
    }

    #[test]
    fn long_words_are_cut_short_words_kept() {
        let long = "x".repeat(120_000);
        let text = printable(&format!("bad move '{long}' at decision 1: expected a cell"));
        assert!(text.len() < 200, "{text}");
        assert!(
            text.ends_with("…(+119922 chars) at decision 1: expected a cell"),
            "{text}"
        );
    }
}
