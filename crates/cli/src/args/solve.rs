//! The grammar of `ludus solve`: the exact value of a position and of each decision, the
//! opening split among shards, and the merge of the shards' results.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{seconds_in_range, whole_in, PositionArgs};

/// `ludus solve`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SolveArgs {
    /// `ludus solve merge FILE...`.
    #[command(subcommand)]
    pub merge: Option<SolveCommand>,
    /// The game (a game of two seats).
    #[arg(required = true)]
    pub game: Option<String>,
    /// Start from this position string instead of the usual setup.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Moves to play first, separated by spaces (decisions or whole turns).
    #[arg(long, allow_hyphen_values = true)]
    pub after: Option<String>,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Seed for random rules choices (e.g. first_player=random).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Seconds the whole solve may take (per position with --split), above 0, at most 3600.
    #[arg(long, default_value_t = 10.0, value_parser = seconds_in_range, allow_hyphen_values = true)]
    pub time: f64,
    /// Transposition table size in MB, 1 to 65536.
    #[arg(long, default_value_t = 256, value_parser = |t: &str| whole_in(t, 1, 65_536))]
    pub hash: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Solve the positions this many decisions deep instead (for a solve shared among
    /// machines), 1 to 12.
    #[arg(long, value_parser = |t: &str| whole_in(t, 1, 12))]
    pub split: Option<u64>,
    /// With --split: solve only shard I of N of those positions (I from 0 to N-1).
    #[arg(long, value_name = "I/N", requires = "split")]
    pub shard: Option<String>,
    /// With --split: write the solved positions as JSON lines to this file.
    #[arg(long, requires = "split")]
    pub out: Option<PathBuf>,
    /// Solve every position of this file instead (one position string per line, or the last
    /// tab-separated field of `ludus datagen` lines), each within --time, and print the median
    /// and worst time per turn.
    #[arg(long, conflicts_with_all = ["position", "after", "split"])]
    pub positions: Option<PathBuf>,
    /// With --positions: key the table by the plain key, not by the board's symmetries (to
    /// measure what they bring).
    #[arg(long, requires = "positions")]
    pub no_symmetry: bool,
    /// With --positions: search decisions in legal order, not by the evaluation of their
    /// result (to measure what the ordering brings).
    #[arg(long, requires = "positions")]
    pub no_ordering: bool,
    /// With --positions: prove each value (win, draw or loss, no distance) by depth-first
    /// proof-number search instead (to compare the two searches on the same positions).
    #[arg(long, requires = "positions", conflicts_with_all = ["no_symmetry", "no_ordering"])]
    pub dfpn: bool,
    /// With --positions: add every position solved to this book of solved positions (kept
    /// with those already in the file), with the position its best turn leads to.
    #[arg(long, requires = "positions", conflicts_with_all = ["no_symmetry", "no_ordering", "dfpn"])]
    pub book_out: Option<PathBuf>,
}

impl SolveArgs {
    /// The position part of the arguments, for `setup::game_at`.
    pub fn at(&self) -> PositionArgs {
        PositionArgs {
            game: self.game.clone().unwrap_or_default(),
            position: self.position.clone(),
            after: self.after.clone(),
            options: self.options.clone(),
            seed: self.seed,
        }
    }
}

/// Subcommands of `ludus solve`.
#[derive(Debug, Subcommand)]
pub enum SolveCommand {
    /// Combine the --out files of a split solve's shards into the value of its root position
    /// and of each decision there.
    Merge {
        /// The shard files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}
