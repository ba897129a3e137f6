//! `ludus solve --split D`: the positions D decisions deep, shared among shards; `ludus solve
//! merge`: their values backed up to the root.

use std::path::PathBuf;

use anyhow::{bail, Result};
use ludus_engine::AnyGame;

use crate::args::SolveArgs;

/// Solves this shard's share of the positions `depth` decisions deep.
pub fn run(args: &SolveArgs, game: &AnyGame, depth: u64) -> Result<()> {
    let _ = (args, game, depth);
    bail!("--split is not available yet")
}

/// Backs the shards' values up to the root.
pub fn merge(files: &[PathBuf], json: bool) -> Result<()> {
    let _ = (files, json);
    bail!("solve merge is not available yet")
}
