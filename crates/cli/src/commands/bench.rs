//! `ludus bench`: random playouts per second on one thread, from the start position; with
//! `--search-depth` the alpha-beta node count over fixed positions (the search fingerprint,
//! quoted as "Bench: N" in commits that change search behaviour); with `--agent` the time
//! and nodes per decision of any computer player over the same positions, and for threads
//! sharing one MCTS tree, where they met. As text, or with `--json` one JSON object.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Result;
use ludus_ai::{
    bench_nodes, bench_positions, meetings_of, time_agent, AgentSpec, MeetingRates, TimedDecision,
};
use ludus_engine::{
    options_to_pairs, parse_options, random_playout, Game, Heuristic, OptionsError,
};
use ludus_games::{dispatch, GameVisitor};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;

use crate::args::BenchArgs;
use crate::output::outln;

/// What `ludus bench` measured; `--json` prints it as it is.
#[derive(Serialize)]
struct BenchReport {
    game: String,
    /// The rules options in force, every one of them.
    options: BTreeMap<String, String>,
    seed: u64,
    playouts: Playouts,
    /// With `--search-depth`.
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<SearchReport>,
    /// With `--agent`.
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<AgentReport>,
}

/// Random playouts from the start on one thread.
#[derive(Serialize)]
struct Playouts {
    seconds: f64,
    games: u64,
    decisions: u64,
    turns: u64,
    games_per_second: f64,
    decisions_per_second: f64,
    ns_per_decision: f64,
    mean_decisions: f64,
    mean_turns: f64,
}

/// The alpha-beta fingerprint over the fixed positions.
#[derive(Serialize)]
struct SearchReport {
    depth: u32,
    positions: u16,
    /// The search fingerprint ("Bench: N").
    nodes: u64,
    nodes_per_second: f64,
}

/// A computer player timed over the fixed positions.
#[derive(Serialize)]
struct AgentReport {
    spec: String,
    positions: usize,
    median_ms: f64,
    mean_ms: f64,
    nodes_per_decision: f64,
    nodes_per_second: f64,
    /// Threads on one MCTS tree: where they met, per iteration (`null` otherwise).
    meetings: Option<MeetingRates>,
}

/// Plays random games for the given time and prints the rates, as text or one JSON object.
pub fn run(args: &BenchArgs) -> Result<()> {
    // The computer player first: a bad spec fails at once, not after the playouts.
    let agent = args
        .agent
        .as_deref()
        .map(|text| -> Result<_> {
            let spec: AgentSpec = text.parse()?;
            let timed = dispatch(&args.game, AgentBench { args, spec: &spec })??;
            Ok(agent_report(&spec, &timed))
        })
        .transpose()?;
    let (playouts, options) = dispatch(&args.game, Bench(args))??;
    let search = args
        .search_depth
        .map(|depth| -> Result<_> {
            let (nodes, seconds) = dispatch(&args.game, SearchBench { args, depth })??;
            Ok(SearchReport {
                depth,
                positions: args.positions,
                nodes,
                nodes_per_second: nodes as f64 / seconds,
            })
        })
        .transpose()?;
    let report = BenchReport {
        game: args.game.clone(),
        options,
        seed: args.seed,
        playouts,
        search,
        agent,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    print_text(&report)
}

/// The text `ludus bench` prints without `--json`.
fn print_text(report: &BenchReport) -> Result<()> {
    let playouts = &report.playouts;
    outln!("game: {}", report.game)?;
    outln!("playouts: {}", playouts.games)?;
    outln!("playouts/s: {:.0}", playouts.games_per_second)?;
    outln!("decisions/s: {:.0}", playouts.decisions_per_second)?;
    outln!(
        "mean length: {:.1} decisions, {:.1} turns",
        playouts.mean_decisions,
        playouts.mean_turns
    )?;
    if let Some(search) = &report.search {
        outln!(
            "search: depth {} over {} positions, {:.0} nodes/s",
            search.depth,
            search.positions,
            search.nodes_per_second
        )?;
        outln!("Bench: {}", search.nodes)?;
    }
    if let Some(agent) = &report.agent {
        outln!("agent: {} over {} positions", agent.spec, agent.positions)?;
        outln!("median time per decision: {:.3} ms", agent.median_ms)?;
        outln!("mean time per decision: {:.3} ms", agent.mean_ms)?;
        outln!("nodes per decision: {:.0}", agent.nodes_per_decision)?;
        outln!("nodes/s: {:.0}", agent.nodes_per_second)?;
        if let Some(met) = &agent.meetings {
            let [first, second, deeper] = met.handovers_by_level;
            outln!(
                "threads met: {:.3} handovers an iteration (root's children {first:.3}, next \
                 level {second:.3}, deeper {deeper:.3}); per 1,000 iterations {:.1} collisions, \
                 {:.2} waits; {:.0} % of updates held back; {:.1} nodes read an iteration",
                met.handovers,
                met.collisions_per_1000,
                met.waits_per_1000,
                100.0 * met.held_share,
                met.reads,
            )?;
        }
    }
    Ok(())
}

/// The median and mean time per decision and the node rate of `timed`.
fn agent_report(spec: &AgentSpec, timed: &[TimedDecision]) -> AgentReport {
    let mut millis: Vec<f64> = timed.iter().map(|t| t.time.as_secs_f64() * 1e3).collect();
    millis.sort_by(f64::total_cmp);
    let seconds: f64 = timed.iter().map(|t| t.time.as_secs_f64()).sum();
    let nodes: u64 = timed.iter().map(|t| t.nodes).sum();
    let median = match millis.len() {
        0 => 0.0,
        n if n % 2 == 1 => millis[n / 2],
        n => f64::midpoint(millis[n / 2 - 1], millis[n / 2]),
    };
    let decisions = timed.len().max(1) as f64;
    AgentReport {
        spec: spec.to_string(),
        positions: timed.len(),
        median_ms: median,
        mean_ms: seconds * 1e3 / decisions,
        nodes_per_decision: nodes as f64 / decisions,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        meetings: meetings_of(timed).map(|met| met.rates()),
    }
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

struct Bench<'a>(&'a BenchArgs);

impl GameVisitor for Bench<'_> {
    /// The playouts, and every option in force.
    type Output = Result<(Playouts, BTreeMap<String, String>), OptionsError>;
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
        let seconds = clock.elapsed().as_secs_f64();
        let per_game = |count: u64| count as f64 / games.max(1) as f64;
        let playouts = Playouts {
            seconds,
            games,
            decisions,
            turns,
            games_per_second: games as f64 / seconds,
            decisions_per_second: decisions as f64 / seconds,
            ns_per_decision: seconds * 1e9 / decisions.max(1) as f64,
            mean_decisions: per_game(decisions),
            mean_turns: per_game(turns),
        };
        Ok((playouts, options_to_pairs(&options).into_iter().collect()))
    }
}
