//! The grammar of `ludus tablebase`: endgame tables of a game by retrograde analysis.

use std::path::PathBuf;

use clap::Args;

use super::whole_in;

/// `ludus tablebase`.
#[derive(Debug, Args)]
pub struct TablebaseArgs {
    /// The game (one whose endings are numbered for tables).
    pub game: String,
    /// The most pieces a side, 1 to 5 (each more multiplies the size by about 20).
    #[arg(long, value_parser = |t: &str| whole_in(t, 1, 5))]
    pub pieces: u64,
    /// The directory to write the tables into (one file per material).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads to use, 1 to 256 (default: every core). The files do not depend on it.
    #[arg(long, value_parser = |t: &str| whole_in(t, 1, 256))]
    pub threads: Option<u64>,
}
