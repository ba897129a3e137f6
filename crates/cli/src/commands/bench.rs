//! `ludus bench`: random playouts per second on one thread, from the start position, and with
//! `--search-depth` the alpha-beta node count over fixed positions (the search fingerprint,
//! quoted as "Bench: N" in commits that change search behaviour).

use std::time::{Duration, Instant};

use anyhow::Result;
use ludus_ai::{bench_nodes, bench_positions};
use ludus_engine::{parse_options, random_playout, Game, Heuristic, OptionsError};
use ludus_games::{dispatch, GameVisitor};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::args::BenchArgs;

/// Plays random games for the given time and prints the rates.
pub fn run(args: &BenchArgs) -> Result<()> {
    let report = dispatch(&args.game, Bench(args))??;
    println!("game: {}", args.game);
    println!("playouts: {}", report.games);
    println!("playouts/s: {:.0}", report.games as f64 / report.seconds);
    println!(
        "decisions/s: {:.0}",
        report.decisions as f64 / report.seconds
    );
    println!(
        "mean length: {:.1} decisions, {:.1} turns",
        report.decisions as f64 / report.games.max(1) as f64,
        report.turns as f64 / report.games.max(1) as f64
    );
    if let Some(depth) = args.search_depth {
        let (nodes, seconds) = dispatch(&args.game, SearchBench { args, depth })??;
        println!(
            "search: depth {depth} over {SEARCH_POSITIONS} positions, {:.0} nodes/s",
            nodes as f64 / seconds
        );
        println!("Bench: {nodes}");
    }
    Ok(())
}

/// Positions searched by `--search-depth`: the start and seeded random continuations.
const SEARCH_POSITIONS: usize = 8;

/// The search fingerprint: alpha-beta node counts to a fixed depth over fixed positions.
struct SearchBench<'a> {
    args: &'a BenchArgs,
    depth: u32,
}

impl GameVisitor for SearchBench<'_> {
    type Output = Result<(u64, f64), OptionsError>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let options: G::Options = parse_options(G::INFO.id, &self.args.options)?;
        let positions = bench_positions::<G>(&options, SEARCH_POSITIONS, self.args.seed);
        let clock = Instant::now();
        let nodes = bench_nodes(&positions, self.depth);
        Ok((nodes, clock.elapsed().as_secs_f64().max(1e-9)))
    }
}

struct Report {
    games: u64,
    decisions: u64,
    turns: u64,
    seconds: f64,
}

struct Bench<'a>(&'a BenchArgs);

impl GameVisitor for Bench<'_> {
    type Output = Result<Report, OptionsError>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let options: G::Options = parse_options(G::INFO.id, &self.0.options)?;
        let start = G::new(&options, self.0.seed);
        let mut rng = SmallRng::seed_from_u64(self.0.seed);
        let mut buffer = Vec::new();
        let budget = Duration::from_secs_f64(self.0.seconds.max(0.01));
        let (mut games, mut decisions, mut turns) = (0, 0, 0);
        let clock = Instant::now();
        while clock.elapsed() < budget {
            // Check the clock once per batch so timing costs nothing per game.
            for _ in 0..64 {
                let mut state = start.clone();
                decisions += random_playout(&mut state, &mut rng, &mut buffer, u64::MAX);
                turns += u64::from(state.turn() - start.turn());
                games += 1;
            }
        }
        Ok(Report {
            games,
            decisions,
            turns,
            seconds: clock.elapsed().as_secs_f64(),
        })
    }
}
