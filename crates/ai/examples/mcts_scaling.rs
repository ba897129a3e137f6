//! How MCTS iterations per second grow with threads, for every game: the figures of
//! `docs/SCALING.md` ("MCTS on many cores") come from
//!
//! ```sh
//! cargo build --release -p ludus-ai --features bench-examples --example mcts_scaling
//! target/release/examples/mcts_scaling 1 4 1,2,4,8,16 tree,root ai:mcts
//! ```
//!
//! Arguments: seconds per decision, positions per game (the fixed positions of `ludus bench`),
//! the thread counts, the ways of sharing the search (`tree`, `root`), the agent spec to which
//! `time`, `threads` and `parallel` are added, then optionally the game ids (all by default).
//! Prints one JSON object a line: the game, the sharing, the threads, iterations per second
//! over all positions, and the speed-up over one thread of the same game; for threads on one
//! tree, where they met (`ludus_ai::Meetings`, summed over the positions): the node writes
//! per iteration that took a line another thread wrote last (`handovers`), those by level
//! (the root's children, the next level, deeper), the visits that met another thread's on
//! one node at once (`collisions`) and the expansions waited for (`waits`), per thousand
//! iterations, the share of updates held back and the nodes selections read an iteration
//! (`reads`); for every run on several threads, the nanoseconds one thread took to see a line
//! that another had just written, measured just before and just after it (`handoff_ns`).

use std::process::ExitCode;
use std::sync::atomic::{
    AtomicU64,
    Ordering::{Acquire, Release},
};
use std::time::Instant;

use ludus_ai::{bench_positions, meetings_of, time_agent, AgentSpec, Meetings};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor, GAMES};
use serde_json::{json, Value};

/// What to measure, read from the command line.
struct Plan {
    seconds: f64,
    positions: usize,
    threads: Vec<u32>,
    sharing: Vec<String>,
    spec: String,
    games: Vec<String>,
}

fn parse_plan() -> Result<Plan, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [seconds, positions, threads, sharing, spec, games @ ..] = &args[..] else {
        return Err("expected: SECONDS POSITIONS THREADS,.. tree|root,.. SPEC [GAME..]".into());
    };
    let list = |text: &str| text.split(',').map(str::to_owned).collect::<Vec<_>>();
    Ok(Plan {
        seconds: seconds
            .parse()
            .map_err(|e| format!("seconds {seconds:?}: {e}"))?,
        positions: positions
            .parse()
            .map_err(|e| format!("positions {positions:?}: {e}"))?,
        threads: list(threads)
            .iter()
            .map(|t| t.parse().map_err(|e| format!("threads {t:?}: {e}")))
            .collect::<Result<_, _>>()?,
        sharing: list(sharing),
        spec: spec.clone(),
        games: if games.is_empty() {
            GAMES.iter().map(|info| info.id.to_owned()).collect()
        } else {
            games.to_vec()
        },
    })
}

/// Iterations per second of one spec over the fixed positions of one game, and where its
/// threads met.
struct Rate<'a> {
    spec: &'a AgentSpec,
    positions: usize,
}

impl GameVisitor for Rate<'_> {
    type Output = Result<(f64, Option<Meetings>), String>;
    fn visit<G: Game + Heuristic>(self) -> Self::Output {
        let positions = bench_positions::<G>(&G::Options::default(), self.positions, 1);
        let timed = time_agent(self.spec, &positions, 1).map_err(|e| e.to_string())?;
        let nodes: u64 = timed.iter().map(|t| t.nodes).sum();
        let seconds: f64 = timed.iter().map(|t| t.time.as_secs_f64()).sum();
        let meetings = meetings_of(&timed);
        Ok((nodes as f64 / seconds.max(1e-9), meetings))
    }
}

fn run(plan: &Plan) -> Result<(), String> {
    for game in &plan.games {
        let mut one_thread = None;
        for sharing in &plan.sharing {
            for &threads in &plan.threads {
                // `ai:mcts` takes its first parameter after a colon, the others after commas.
                let joint = if plan.spec.matches(':').count() > 1 {
                    ','
                } else {
                    ':'
                };
                let text = format!(
                    "{}{joint}time={},threads={threads},parallel={sharing}",
                    plan.spec, plan.seconds
                );
                let spec: AgentSpec = text.parse().map_err(|e| format!("{text}: {e}"))?;
                let before = (threads > 1).then(handoff_ns);
                let (rate, meetings) = dispatch(
                    game,
                    Rate {
                        spec: &spec,
                        positions: plan.positions,
                    },
                )
                .map_err(|e| e.to_string())??;
                if threads == 1 {
                    one_thread.get_or_insert(rate);
                }
                let mut line = json!({
                    "game": game,
                    "parallel": sharing,
                    "threads": threads,
                    "iterations_per_second": rate.round(),
                    // Without a one-thread run, no speed-up (`null`).
                    "speedup": one_thread.map(|one| (100.0 * rate / one).round() / 100.0),
                });
                if let (Some(met), Some(members)) = (meetings, line.as_object_mut()) {
                    if let Ok(Value::Object(rates)) = serde_json::to_value(met.rates()) {
                        members.extend(rates);
                    }
                }
                if let Some(before) = before {
                    line["handoff_ns"] = json!([before.round(), handoff_ns().round()]);
                }
                println!("{line}");
            }
        }
    }
    Ok(())
}

/// Nanoseconds for one thread to see a cache line that another has just written: two threads
/// pass a counter back and forth 100,000 times (about 10 ms). On a virtual machine this
/// moves from second to second as the host places the two virtual cores (15–173 ns on the
/// 2-core AMD EPYC machine: on one physical core, near, or apart), and threads sharing one
/// tree pay it at every line they pass, so each run on several threads is bracketed by it.
fn handoff_ns() -> f64 {
    const PASSES: u64 = 100_000;
    let counter = AtomicU64::new(0);
    let wait_for = |value: u64| {
        while counter.load(Acquire) != value {
            std::hint::spin_loop();
        }
    };
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for pass in 0..PASSES {
                wait_for(2 * pass + 1);
                counter.store(2 * pass + 2, Release);
            }
        });
        for pass in 0..PASSES {
            counter.store(2 * pass + 1, Release);
            wait_for(2 * pass + 2);
        }
    });
    start.elapsed().as_secs_f64() * 1e9 / (2 * PASSES) as f64
}

fn main() -> ExitCode {
    match parse_plan().and_then(|plan| run(&plan)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mcts_scaling: {message}");
            ExitCode::FAILURE
        }
    }
}
