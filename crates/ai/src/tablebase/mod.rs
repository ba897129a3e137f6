//! Endgame tablebases for any game that numbers its endings ([`ludus_engine::Endgames`]):
//! generation by retrograde analysis ([`generate`]), one checked file per material
//! ([`file_name`]), and probing from searches ([`Tablebases`], [`installed`]).
//!
//! A table stores, for every position of its material at the start of a turn, the value for
//! the side to move (win, draw or loss) and the distance in turns with best play (the winner
//! hurrying, the loser holding out): the same [`Proved`](crate::Proved) the solver proves.
//! Draw rules that depend on the history are not part of the values; the game's
//! [`ludus_engine::EndgameProbe::within`] says how far a stored distance holds under them.

mod check;
mod file;
mod probe;
mod retro;
mod value;

use std::collections::HashMap;
use std::path::Path;

use ludus_engine::{Endgames, Material};
use thiserror::Error;

pub use check::{check, stored, stored_after, turn_ends, CheckPlan, CheckReport, Mismatch};
pub use file::file_name;
pub use probe::{install, installed, Tablebases};

use crate::Proved;

/// Why tables could not be made or read.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum TablebaseError {
    /// A file could not be read or written.
    #[error("{0}")]
    Io(String),
    /// A table file fails a check (its header or its checksum).
    #[error("tablebase file '{path}' is damaged: {reason}; make it again with `ludus tablebase`")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A distance too long for one byte a position.
    #[error("a distance is longer than a table byte can store (128 turns)")]
    TooLong,
    /// A capture led to a table not computed before (the game lists its materials in an
    /// order that does not put the smaller ones first).
    #[error("the tables of {0} need a table not computed before them")]
    Missing(String),
    /// The game has no endgame tables.
    #[error("the game '{0}' has no endgame tables")]
    NoTables(String),
}

/// What the generation of one table found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableReport {
    /// Its material.
    pub material: Material,
    /// Positions in it.
    pub positions: u64,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Positions won, drawn and lost for the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Lost positions.
    pub losses: u64,
    /// The longest distance of a win or loss, in turns.
    pub longest: u32,
}

/// Computes every table of `endgames` with at most `pieces` a side (on the current rayon
/// pool's threads) and writes them into `dir` as `GAME-MvO.ltb`, calling `done` after each
/// file. The files are the same byte for byte whatever the number of threads.
pub fn generate(
    endgames: &dyn Endgames,
    game: &str,
    pieces: u8,
    dir: &Path,
    mut done: impl FnMut(&TableReport),
) -> Result<Vec<TableReport>, TablebaseError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| TablebaseError::Io(format!("cannot create '{}': {e}", dir.display())))?;
    let mut solved: HashMap<Material, Vec<u8>> = HashMap::new();
    let mut reports = Vec::new();
    for material in endgames.materials(pieces) {
        if solved.contains_key(&material) {
            continue;
        }
        let tables = retro::Group::new(endgames, material, &solved).solve()?;
        for (material, values) in tables {
            let bytes = file::write(dir, game, material, &values)?;
            let report = summarize(material, &values, bytes);
            done(&report);
            reports.push(report);
            solved.insert(material, values);
        }
    }
    Ok(reports)
}

fn summarize(material: Material, values: &[u8], bytes: u64) -> TableReport {
    let mut report = TableReport {
        material,
        positions: values.len() as u64,
        bytes,
        wins: 0,
        draws: 0,
        losses: 0,
        longest: 0,
    };
    for &byte in values {
        let proved = value::decode(byte);
        match proved {
            Proved::Win(_) => report.wins += 1,
            Proved::Draw => report.draws += 1,
            Proved::Loss(_) => report.losses += 1,
        }
        report.longest = report.longest.max(proved.turns().unwrap_or(0));
    }
    report
}
