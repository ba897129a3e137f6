//! The arguments of the lab tools, which tune and feed the computer players: `datagen`,
//! `tune`, `spsa` and `book`.

use std::path::PathBuf;

use clap::Args;

use super::whole_in;

/// `ludus book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The game.
    pub game: String,
    /// Openings to keep, 1 to 100,000.
    #[arg(long, default_value_t = 100, value_parser = |t: &str| whole_in(t, 1, 100_000))]
    pub openings: u64,
    /// Random openings to draw and score, 1 to 1,000,000 (at least --openings).
    #[arg(long, default_value_t = 400, value_parser = |t: &str| whole_in(t, 1, 1_000_000))]
    pub candidates: u64,
    /// Random decisions in each opening, 0 to 1000.
    #[arg(long, default_value_t = 4, value_parser = |t: &str| whole_in(t, 0, 1000))]
    pub plies: u64,
    /// The search that scores each opening (a depth or node limit keeps the book reproducible).
    #[arg(long, default_value = "ai:4:depth=4", value_name = "SPEC")]
    pub agent: String,
    /// Self-play games per opening between copies of --agent, 0 to 1000: the openings whose
    /// games were nearest to a split are kept (the score only breaks ties). Needs an agent
    /// that varies with its seed, such as ai:mcts:iterations=2000.
    #[arg(long, default_value_t = 0, value_parser = |t: &str| whole_in(t, 0, 1000))]
    pub self_play: u64,
    /// Decisions after which a self-play game counts as drawn, 1 to 100,000.
    #[arg(long, default_value_t = 400, value_parser = |t: &str| whole_in(t, 1, 100_000))]
    pub max_decisions: u64,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A rules option as key=value (repeatable; give the same to `ludus arena`).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Where to write the openings file (for `ludus arena --openings`).
    #[arg(long)]
    pub out: PathBuf,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `ludus datagen`.
#[derive(Debug, Args)]
pub struct DatagenArgs {
    /// The game.
    pub game: String,
    /// Self-play games to play (on every core), 1 to 1,000,000.
    #[arg(long, default_value_t = 100, value_parser = |t: &str| whole_in(t, 1, 1_000_000))]
    pub games: u64,
    /// The search both seats play with (a depth or node limit keeps the data reproducible).
    #[arg(long, default_value = "ai:alphabeta:depth=3")]
    pub spec: String,
    /// Random decisions at the start of each game, 0 to 1000.
    #[arg(long, default_value_t = 8, value_parser = |t: &str| whole_in(t, 0, 1000))]
    pub opening: u64,
    /// Decisions after which a game is abandoned (its positions are dropped), 1 to 100,000.
    #[arg(long, default_value_t = 400, value_parser = |t: &str| whole_in(t, 1, 100_000))]
    pub max_decisions: u64,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Where to write the samples (`result<TAB>score<TAB>position` lines).
    #[arg(long)]
    pub out: PathBuf,
}

/// `ludus tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The game.
    pub game: String,
    /// Sample files written by `ludus datagen` (one or more).
    #[arg(long = "data", required = true)]
    pub data: Vec<PathBuf>,
    /// A rules option as key=value (repeatable; as given to datagen).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Where to write the weights (the game's `weights.txt`); printed if not given.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The share of the game's result in each target, 0 to 1 (the rest: the search's score).
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    pub result_share: f64,
    /// Fit on quiet positions only (no tactical decision for the side to move).
    #[arg(long)]
    pub quiet: bool,
    /// In 2-seat games, also fit each position from the waiting side's view.
    #[arg(long)]
    pub mirror: bool,
    /// Pull toward v1's weights (L2, in logit units of each term's size; 0 = none, then the
    /// fit starts from the current weights, else from v1's).
    #[arg(long, default_value_t = 0.0, value_parser = ridge_strength)]
    pub ridge: f64,
    /// Hold this term at weight 0 and fit the others without it (repeatable; a name of the
    /// game's `weights.txt`).
    #[arg(long = "drop", value_name = "TERM")]
    pub drop: Vec<String>,
}

/// `ludus spsa --max-decisions` when not given.
pub const DEFAULT_MAX_DECISIONS: u64 = 1000;

/// `ludus spsa`.
#[derive(Debug, Args)]
pub struct SpsaArgs {
    /// The game (two seats).
    pub game: String,
    /// The weights to start from (the game's `weights.txt`, or a file `ludus tune` wrote).
    #[arg(long)]
    pub from: PathBuf,
    /// Where to write the tuned weights; printed if not given.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Iterations, 1 to 1,000,000 (each one perturbation and its game pairs).
    #[arg(long, default_value_t = 1000, value_parser = |t: &str| whole_in(t, 1, 1_000_000))]
    pub iterations: u64,
    /// Game pairs per iteration, played in parallel, 1 to 1000.
    #[arg(long, default_value_t = 2, value_parser = |t: &str| whole_in(t, 1, 1000))]
    pub pairs: u64,
    /// The search of both sides: alpha-beta with a depth or node limit.
    #[arg(long, default_value = "ai:5:depth=6")]
    pub spec: String,
    /// Random decisions at the start of each game pair, 0 to 1000.
    #[arg(long, default_value_t = 8, value_parser = |t: &str| whole_in(t, 0, 1000))]
    pub opening: u64,
    /// The perturbation at the last iteration, as a share of each weight's size (above 0, at
    /// most 1).
    #[arg(long, default_value_t = 0.1, value_parser = positive_share)]
    pub perturb: f64,
    /// How far a won game pair moves the weights at the last iteration (a / c², above 0, at
    /// most 1).
    #[arg(long, default_value_t = 0.002, value_parser = positive_share)]
    pub rate: f64,
    /// Decisions after which a game is scored a draw, 1 to 100,000.
    #[arg(long, default_value_t = DEFAULT_MAX_DECISIONS, value_parser = |t: &str| whole_in(t, 1, 100_000))]
    pub max_decisions: u64,
    /// Keep this term's weight as it is (repeatable; a name of the game's `weights.txt`).
    #[arg(long = "fix", value_name = "TERM")]
    pub fix: Vec<String>,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A rules option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// A number above 0 and at most 1.
fn positive_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1.0 => Ok(v),
        _ => Err(format!("'{text}': expected a number above 0 and at most 1")),
    }
}

/// A number from 0 to 1.
fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{text}': expected a number from 0 to 1")),
    }
}

/// A number from 0 to 1000.
fn ridge_strength(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!("'{text}': expected a number from 0 to 1000")),
    }
}
