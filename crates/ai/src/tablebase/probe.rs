//! Looking positions up: the tables of one game in a directory, each read and checked the
//! first time a search needs it, and the directory every solver of the process uses
//! ([`install`], [`installed`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use ludus_engine::{Endgames, Game, Material};

use super::{file, value, TablebaseError};
use crate::Proved;

/// The tables of one game found in a directory.
pub struct Tablebases {
    dir: PathBuf,
    game: &'static str,
    endgames: &'static dyn Endgames,
    /// Each material's values once read: `None` when its file is missing or damaged.
    tables: HashMap<Material, OnceLock<Option<Vec<u8>>>>,
    hits: AtomicU64,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("dir", &self.dir)
            .field("game", &self.game)
            .finish_non_exhaustive()
    }
}

impl Tablebases {
    /// The tables of game `G` in `dir` (nothing is read yet); `None` when the game has none.
    pub fn open<G: Game>(dir: &Path) -> Option<Tablebases> {
        let endgames = G::endgames()?;
        let tables = endgames
            .materials(u8::MAX)
            .into_iter()
            .map(|material| (material, OnceLock::new()))
            .collect();
        Some(Tablebases {
            dir: dir.to_path_buf(),
            game: G::INFO.id,
            endgames,
            tables,
            hits: AtomicU64::new(0),
        })
    }

    /// Reads and checks every table of the directory now: the materials present, or the
    /// first damaged file's error.
    pub fn check(&self) -> Result<Vec<Material>, TablebaseError> {
        let mut present = Vec::new();
        let mut materials: Vec<Material> = self.tables.keys().copied().collect();
        materials.sort();
        for material in materials {
            let values = file::read(&self.dir, self.game, material, self.endgames.size(material))?;
            if values.is_some() {
                present.push(material);
            }
            if let Some(slot) = self.tables.get(&material) {
                let _ = slot.set(values);
            }
        }
        Ok(present)
    }

    fn table(&self, material: Material) -> Option<&[u8]> {
        let slot = self.tables.get(&material)?;
        slot.get_or_init(|| {
            let size = self.endgames.size(material);
            // A damaged file is left out here; `check` (and `ludus solve`) report it.
            file::read(&self.dir, self.game, material, size)
                .ok()
                .flatten()
        })
        .as_deref()
    }

    /// The stored result of `state` for its seat to move, if its table is here and the
    /// game's draw rules cannot change it (see [`ludus_engine::EndgameProbe::within`]).
    pub fn probe<G: Game>(&self, state: &G) -> Option<Proved> {
        let at = state.endgame_probe()?;
        let byte = *self
            .table(at.material)?
            .get(usize::try_from(at.index).ok()?)?;
        let proved = value::decode(byte);
        if proved.turns().is_some_and(|turns| turns > at.within) {
            return None;
        }
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(proved)
    }

    /// Successful probes so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }
}

/// The directory of tables for the whole process, and the games' tables opened there.
struct Installed {
    dir: Option<PathBuf>,
    opened: Vec<Arc<Tablebases>>,
}

static INSTALLED: Mutex<Installed> = Mutex::new(Installed {
    dir: None,
    opened: Vec::new(),
});

/// Makes every solver and level-5 player of the process probe the tables in `dir` (none
/// with `None`, the start).
pub fn install(dir: Option<PathBuf>) {
    let mut installed = INSTALLED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    installed.dir = dir;
    installed.opened.clear();
}

/// The installed tables of game `G`, if a directory is installed and the game has tables.
pub fn installed<G: Game>() -> Option<Arc<Tablebases>> {
    let mut installed = INSTALLED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = installed.dir.clone()?;
    if let Some(found) = installed.opened.iter().find(|t| t.game == G::INFO.id) {
        return Some(Arc::clone(found));
    }
    let opened = Arc::new(Tablebases::open::<G>(&dir)?);
    installed.opened.push(Arc::clone(&opened));
    Some(opened)
}
