//! A game is its folder plus one registry row: no game id may appear in the source of the
//! workspace outside `crates/games/src/<game>/` and the registry, except the folder's module
//! line in `crates/games/src/lib.rs` (`pub mod qawale;`). Comments, test files and
//! the test module at the end of a file (`#[cfg(test)]`) may name games; code may not, so
//! that every list of games comes from `ludus_games::GAMES`. The engine's demo game, which the
//! `extra-game` feature registers, also lives in `crates/engine/src/demo.rs`.

use ludus_engine::Rules;
use std::fs;
use std::path::{Path, PathBuf};

use ludus_engine::demo::Nim;
use ludus_games::GAMES;

/// The workspace root, two levels above this crate.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file below `dir`, skipping `tests` folders.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "tests") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && path.file_name().is_some_and(|name| name != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// Whether `line` holds `word` as a whole word, ignoring case.
fn holds_word(line: &str, word: &str) -> bool {
    let line = line.to_ascii_lowercase();
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

/// The code lines of `text` that name `id`: before the test module, not comments.
fn code_lines_naming<'a>(text: &'a str, id: &str) -> Vec<(usize, &'a str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| holds_word(line, id))
        .map(|(i, line)| (i + 1, line))
        .collect()
}

#[test]
fn no_game_id_in_code_outside_its_folder_and_the_registry() {
    let root = workspace();
    let mut files = Vec::new();
    sources(&root.join("crates"), &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    let registry = root.join("crates/games/src/registry.rs");
    let lib = root.join("crates/games/src/lib.rs");
    let mut leaks = Vec::new();
    let demo = root.join("crates/engine/src/demo.rs");
    for info in GAMES {
        let folder = root.join("crates/games/src").join(info.id);
        let home =
            |file: &Path| file.starts_with(&folder) || (info.id == Nim::INFO.id && file == demo);
        for file in files.iter().filter(|f| !home(f) && **f != registry) {
            let text = fs::read_to_string(file).unwrap_or_default();
            let module_line = format!("pub mod {};", info.id);
            for (number, line) in code_lines_naming(&text, info.id) {
                if *file == lib && line.trim() == module_line {
                    continue;
                }
                leaks.push(format!("{}:{number}: {}", file.display(), line.trim()));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "game ids outside their folders:\n{}",
        leaks.join("\n")
    );
}

#[test]
fn the_scan_finds_a_leak_and_passes_comments_and_tests() {
    let text = "// qawale in a comment\nlet id = \"Qawale\";\nlet qawale_x = 1;\n\
                #[cfg(test)]\nmod tests { \"qawale\" }\n";
    assert_eq!(
        code_lines_naming(text, "qawale"),
        [(2, "let id = \"Qawale\";")]
    );
}
