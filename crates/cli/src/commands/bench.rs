//! `ludus bench`: random playouts per second on one thread, from the start position; with
//! `--search-depth` the alpha-beta node count over fixed positions (the search fingerprint,
//! quoted as "Bench: N" in commits that change search behaviour); with `--agent` the time
//! and nodes per decision of any computer player over the same positions, and for threads
//! sharing one MCTS tree, where they met.

use std::time::{Duration, Instant};

use anyhow::Result;
use ludus_ai::{
    bench_nodes, bench_positions, meetings_of, time_agent, AgentSpec, Meetings, TimedDecision,
};
use ludus_engine::{parse_options, random_playout, Game, Heuristic, OptionsError};
use ludus_games::{dispatch, GameVisitor};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::args::BenchArgs;
use crate::output::outln;

/// Plays random games for the given time and prints the rates.
pub fn run(args: &BenchArgs) -> Result<()> {
    // The computer player first: a bad spec fails at once, not after the playouts.
    let agent = args
        .agent
        .as_deref()
        .map(|text| -> Result<_> {
            let spec: AgentSpec = text.parse()?;
            let timed = dispatch(&args.game, AgentBench { args, spec: &spec })??;
            Ok((spec, timed))
        })
        .transpose()?;
    let report = dispatch(&args.game, Bench(args))??;
    outln!("game: {}", args.game)?;
    outln!("playouts: {}", report.games)?;
    outln!("playouts/s: {:.0}", report.games as f64 / report.seconds)?;
    outln!(
        "decisions/s: {:.0}",
        report.decisions as f64 / report.seconds
    )?;
    outln!(
        "mean length: {:.1} decisions, {:.1} turns",
        report.decisions as f64 / report.games.max(1) as f64,
        report.turns as f64 / report.games.max(1) as f64
    )?;
    if let Some(depth) = args.search_depth {
        let (nodes, seconds) = dispatch(&args.game, SearchBench { args, depth })??;
        outln!(
            "search: depth {depth} over {} positions, {:.0} nodes/s",
            args.positions,
            nodes as f64 / seconds
        )?;
        outln!("Bench: {nodes}")?;
    }
    if let Some((spec, timed)) = agent {
        print_agent_report(&spec, &timed)?;
    }
    Ok(())
}

/// Prints the median and mean time per decision and the node rate of `timed`.
fn print_agent_report(spec: &AgentSpec, timed: &[TimedDecision]) -> Result<()> {
    let mut millis: Vec<f64> = timed.iter().map(|t| t.time.as_secs_f64() * 1e3).collect();
    millis.sort_by(f64::total_cmp);
    let seconds: f64 = timed.iter().map(|t| t.time.as_secs_f64()).sum();
    let nodes: u64 = timed.iter().map(|t| t.nodes).sum();
    let median = match millis.len() {
        0 => 0.0,
        n if n % 2 == 1 => millis[n / 2],
        n => f64::midpoint(millis[n / 2 - 1], millis[n / 2]),
    };
    outln!("agent: {spec} over {} positions", timed.len())?;
    outln!("median time per decision: {median:.3} ms")?;
    outln!(
        "mean time per decision: {:.3} ms",
        seconds * 1e3 / timed.len().max(1) as f64
    )?;
    outln!(
        "nodes per decision: {:.0}",
        nodes as f64 / timed.len().max(1) as f64
    )?;
    outln!("nodes/s: {:.0}", nodes as f64 / seconds.max(1e-9))?;
    if let Some(met) = meetings_of(timed) {
        print_meetings(&met)?;
    }
    Ok(())
}

/// Where the threads on one tree met (see `ludus_ai::Meetings`), per iteration.
fn print_meetings(met: &Meetings) -> Result<()> {
    let [first, second, deeper] = met.handovers_by_level.map(|n| met.per_iteration(n));
    outln!(
        "threads met: {:.3} handovers an iteration (root's children {first:.3}, next level \
         {second:.3}, deeper {deeper:.3}); per 1,000 iterations {:.1} collisions, {:.2} waits; \
         {:.0} % of updates held back; {:.1} nodes read an iteration",
        met.handovers_per_iteration(),
        1000.0 * met.per_iteration(met.collisions),
        1000.0 * met.per_iteration(met.waits),
        100.0 * met.held_share(),
        met.per_iteration(met.reads),
    )?;
    Ok(())
}

/// Times a computer player over the fixed positions.
struct AgentBench<'a> {
    args: &'a BenchArgs,
    spec: &'a AgentSpec,
}

impl GameVisitor for AgentBench<'_> {
    type Output = Result<Vec<TimedDecision>>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let options: G::Options = parse_options(G::INFO.id, &self.args.options)?;
        let positions =
            bench_positions::<G>(&options, usize::from(self.args.positions), self.args.seed);
        Ok(time_agent(self.spec, &positions, self.args.seed)?)
    }
}

/// The search fingerprint: alpha-beta node counts to a fixed depth over fixed positions.
struct SearchBench<'a> {
    args: &'a BenchArgs,
    depth: u32,
}

impl GameVisitor for SearchBench<'_> {
    type Output = Result<(u64, f64), OptionsError>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let options: G::Options = parse_options(G::INFO.id, &self.args.options)?;
        let positions =
            bench_positions::<G>(&options, usize::from(self.args.positions), self.args.seed);
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
