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

/// Tests remember themes in a directory of their own, never in the user's: one per test
/// thread (each test runs on a thread of its own), removed when the thread ends, also after
/// a failed test. A process-wide directory would stay behind: statics are never dropped.
#[cfg(test)]
#[allow(clippy::unnecessary_wraps)] // the same signature as the real one
pub fn theme_file() -> Option<PathBuf> {
    thread_local! {
        static DIR: tempfile::TempDir =
            tempfile::TempDir::with_prefix("ludus-config-").expect("a folder for the theme");
    }
    Some(DIR.with(|dir| dir.path().join("ludus").join("theme")))
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

/// Why the theme could not be remembered (the app says so and goes on).
#[derive(Debug, thiserror::Error)]
pub enum RememberError {
    /// The system names no config directory for this user.
    #[error("no config directory to remember the theme in")]
    NoConfigDir,
    /// The directory could not be made.
    #[error("{}: {reason}", .dir.display())]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// The system's reason (not a `source`, so that chains print it once).
        reason: std::io::Error,
    },
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] ludus_engine::RecordError),
}

/// Remembers the theme `index` (atomically, like a save); the reason when it cannot.
pub fn remember(index: usize) -> Result<(), RememberError> {
    let path = theme_file().ok_or(RememberError::NoConfigDir)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|reason| RememberError::Dir {
            dir: dir.to_path_buf(),
            reason,
        })?;
    }
    let name = THEMES[index % THEMES.len()].name;
    Ok(ludus_engine::write_atomically(
        &path,
        format!("{name}\n").as_bytes(),
    )?)
}
