//! Without a terminal, `ludus play` and plain `ludus` fall back to the line mode by themselves,
//! so scripts and pipes keep working (the full-screen app needs a terminal on both ends).

mod support;
use support::ludus;

#[test]
fn play_without_a_terminal_uses_the_line_mode_and_plays_to_the_end() {
    let output = ludus(&["play", "replica", "--p1", "ai:1", "--p2", "ai:1"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("result:"), "{text}");
    // No terminal control sequences (alternate screen, raw mode) were written.
    assert!(!text.contains("\u{1b}[?1049h"), "{text}");
}

#[test]
fn ludus_without_a_terminal_asks_for_a_game_in_line_mode() {
    let output = ludus(&[]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("Game ("), "{text}");
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("no game chosen"), "{err}");
}

#[test]
fn the_bare_command_takes_a_theme_and_checks_its_name() {
    // Without a terminal the line mode asks for a game; the theme was accepted on the way.
    let output = ludus(&["--theme", "dracula"]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!err.contains("unexpected argument"), "{err}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("Game ("));
    let output = ludus(&["--theme", "neon"]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(err.contains("unknown theme 'neon'"), "{err}");
    // A command without an app has no theme to take.
    let output = ludus(&["--theme", "dracula", "games"]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("--theme"), "{err}");
}
