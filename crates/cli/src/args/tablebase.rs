//! The grammar of `ludus tablebase`: endgame tables of a game by retrograde analysis.

use std::path::PathBuf;

use clap::Args;

use super::whole_in;

/// `ludus tablebase`.
#[derive(Debug, Args)]
pub struct TablebaseArgs {
    /// The game (one whose endings are numbered for tables).
    pub game: String,
    /// The most pieces a side, 1 to 5 (each more multiplies the size by about 20); with
    /// `--check`, of the positions drawn (default: every material the tables hold).
    #[arg(long, required_unless_present = "check", value_parser = |t: &str| whole_in(t, 1, 5))]
    pub pieces: Option<u64>,
    /// The directory to write the tables into (one file per material).
    #[arg(long, required_unless_present = "check", conflicts_with = "check")]
    pub out: Option<PathBuf>,
    /// Threads to use, 1 to 256 (default: every core). The files do not depend on it.
    #[arg(long, value_parser = |t: &str| whole_in(t, 1, 256))]
    pub threads: Option<u64>,
    /// Check N random positions of the tables found (`--tablebases DIR` or the default
    /// folder) against the rules and the solver, instead of making tables; 1 to 10,000,000.
    #[arg(long, value_name = "N", value_parser = |t: &str| whole_in(t, 1, 10_000_000))]
    pub check: Option<u64>,
    /// With `--check`: nodes the solver may search per position (0: the rules check alone),
    /// up to 10^9.
    #[arg(long, default_value = "50000", value_parser = |t: &str| whole_in(t, 0, 1_000_000_000))]
    pub solver_nodes: u64,
    /// With `--check`: the seed of the positions drawn.
    #[arg(long, default_value = "1")]
    pub seed: u64,
    /// With `--check`: print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}
