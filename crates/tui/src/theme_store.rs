//! The theme remembered between runs: its name in `ludus/theme` under the user's config
//! directory (`~/.config` on Linux, as the `directories` crate finds it; the
//! server's database uses the same crate for the data directory), and the choice at start-up.

use std::path::PathBuf;

use super::theme::{MONO_INDEX, THEMES};

/// The file that holds the remembered theme's name.
#[cfg(not(test))]
pub fn theme_file() -> Option<PathBuf> {
    let project = directories::ProjectDirs::from("", "", "ludus")?;
    Some(project.config_dir().join("theme"))
}

/// Tests remember themes in a directory of their own, never in the user's.
#[cfg(test)]
#[allow(clippy::unnecessary_wraps)] // the same signature as the real one
pub fn theme_file() -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("ludus-config-{}", std::process::id()));
    Some(dir.join("ludus").join("theme"))
}

/// The index of the theme named `name` (any case).
pub fn theme_named(name: &str) -> Option<usize> {
    THEMES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

/// The theme to start with: the one asked for on the command line, else monochrome under
/// `NO_COLOR`, else the remembered one, else the default.
pub fn starting_theme(asked: Option<usize>) -> usize {
    if let Some(index) = asked {
        return index;
    }
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return MONO_INDEX;
    }
    theme_file()
        .and_then(|path| std::fs::read_to_string(path).ok())
        .and_then(|text| theme_named(&text))
        .unwrap_or(0)
}

/// Remembers the theme `index` (atomically, like a save); the reason when it cannot.
pub fn remember(index: usize) -> Result<(), String> {
    let path = theme_file().ok_or("no config directory to remember the theme in")?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let name = THEMES[index % THEMES.len()].name;
    ludus_engine::write_atomically(&path, format!("{name}\n").as_bytes()).map_err(|e| e.to_string())
}
