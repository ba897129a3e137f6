//! `ludus loadtest`: N games at once against a server, two scripted WebSocket clients each
//! playing random legal moves as fast as the server answers, for S seconds; then moves per
//! second, latency percentiles, errors by kind, a check that every game's stored moves are
//! exactly the decisions its clients saw acknowledged, and the server's memory per idle game
//! when its process runs here (`--spawn` or `--pid`).
//!
//! The phases: open the N games and their 2N sockets (the idle memory is read then), play
//! until the deadline (finished games replaced by new ones, so the load stays at N; the
//! memory sampled), check every game played.

mod check;
mod client;
mod report;
mod slot;
mod tally;
mod target;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use futures_util::{stream, StreamExt};
use ludus_engine::GameInfo;
use ludus_games::GAMES;

use self::client::{Board, Played};
use self::report::{Machine, Report};
use self::tally::Tally;
use self::target::Target;
use crate::args::LoadtestArgs;

/// Games opened at once while the load is set up.
const OPENING: usize = 64;

/// How often the server's memory is sampled under load.
const SAMPLE_EVERY: Duration = Duration::from_millis(200);

/// What every client shares: the server, an HTTP client, the games to play, the seed.
#[derive(Debug)]
pub struct Plan {
    target: Target,
    http: reqwest::Client,
    games: Vec<&'static GameInfo>,
    seed: u64,
    /// N, the games kept going at once.
    slots: u64,
    /// The time between two moves of one game (N / `--rate`); zero: as fast as answered.
    interval: Duration,
    /// `--rate`.
    rate: u64,
}

impl Plan {
    /// The seed of game number `number`: its rules' random choices and its clients' moves.
    fn game_seed(&self, number: u64) -> u64 {
        // SplitMix64's finaliser: nearby numbers get unrelated seeds.
        let mut z = self.seed ^ number.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Runs the load test and prints its report; fails when the check could not be made, or
/// found a lost, doubled or changed decision.
pub fn run(args: &LoadtestArgs) -> Result<()> {
    let games = match &args.game {
        Some(id) => vec![ludus_games::game_info(id)?],
        None => GAMES.to_vec(),
    };
    if let Some(info) = games
        .iter()
        .find(|i| !(i.min_seats..=i.max_seats).contains(&2))
    {
        bail!(
            "{} is not played by two seats: expected a two-seat game",
            info.id
        );
    }
    let target = match &args.url {
        Some(url) if !args.spawn => Target::at(url, args.pid)?,
        _ => Target::spawn()?,
    };
    let plan = Arc::new(Plan {
        target,
        http: reqwest::Client::new(),
        games,
        seed: args.seed,
        slots: args.games,
        interval: match args.rate {
            0 => Duration::ZERO,
            rate => Duration::from_secs_f64(args.games as f64 / rate as f64),
        },
        rate: args.rate,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load test's runtime")?;
    let report = runtime.block_on(load(&plan, args))?;
    report.print(args.json)?;
    if let Some(why) = &report.check.not_made {
        bail!(
            "the check could not be made: {why}; nothing is known about lost or doubled decisions"
        );
    }
    if !report.check.passed() {
        let c = &report.check;
        bail!(
            "the store differs from what the clients saw: {} decisions lost, {} doubled, {} games changed",
            c.lost,
            c.doubled,
            c.mismatched
        );
    }
    Ok(())
}

async fn load(plan: &Arc<Plan>, args: &LoadtestArgs) -> Result<Report> {
    let target = &plan.target;
    reach(plan).await?;
    let mut machine = target.pid.map(|pid| Machine {
        pid,
        rss_start_kib: target.rss_kib(),
        ..Machine::default()
    });
    let mut tally = Tally::default();
    let boards = open_all(plan, &mut tally).await;
    if let Some(machine) = &mut machine {
        machine.rss_idle_kib = target.rss_kib();
        machine.idle_kib_per_game = machine
            .rss_start_kib
            .zip(machine.rss_idle_kib)
            .map(|(start, idle)| idle.saturating_sub(start) as f64 / plan.slots as f64);
    }
    let cpu_before = target.cpu_seconds();
    let own_cpu_before = target::cpu_seconds("self");
    let start = Instant::now();
    let (stop_sampling, stopped) = tokio::sync::oneshot::channel();
    let sampler = tokio::spawn(sample_memory(Arc::clone(plan), stopped));
    let deadline = start + Duration::from_secs_f64(args.seconds);
    let played = play_all(plan, boards, deadline, &mut tally).await?;
    let elapsed = start.elapsed().as_secs_f64();
    let _ = stop_sampling.send(());
    if let Some(machine) = &mut machine {
        machine.rss_load_max_kib = sampler.await.ok().flatten().or(machine.rss_idle_kib);
        machine.cpu_cores_busy = cpu_before
            .zip(target.cpu_seconds())
            .map(|(before, after)| (after - before) / elapsed);
    }
    let own_cpu = own_cpu_before
        .zip(target::cpu_seconds("self"))
        .map(|(before, after)| (after - before) / elapsed);
    let games_played = played.len() as u64;
    let check = check::check(plan, played, &mut tally).await;
    Ok(Report::new(
        plan,
        (args.seconds, elapsed),
        games_played,
        &tally,
        check,
        (machine, own_cpu),
    ))
}

/// Fails with one line when the server does not answer `GET /api/meta`.
async fn reach(plan: &Plan) -> Result<()> {
    let base = &plan.target.base;
    plan.http
        .get(format!("{base}/api/meta"))
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| {
            anyhow!("cannot reach the server at {base}: {e}; expected a running `ludus serve` (or --spawn)")
        })?;
    Ok(())
}

/// Opens the N games with their sockets, [`OPENING`] at a time; a game that could not be
/// opened is counted as an error and its slot starts empty.
async fn open_all(plan: &Arc<Plan>, tally: &mut Tally) -> Vec<(u64, Option<Board>)> {
    let mut opened: Vec<_> = stream::iter(0..plan.slots)
        .map(|number| async move { (number, client::open(plan, number).await) })
        .buffer_unordered(OPENING)
        .collect()
        .await;
    opened.sort_unstable_by_key(|(number, _)| *number);
    opened
        .into_iter()
        .map(|(number, board)| {
            let board = board
                .map_err(|(kind, message)| tally.error(kind, message))
                .ok();
            (number, board)
        })
        .collect()
}

/// Plays every slot until `deadline`; every game played.
async fn play_all(
    plan: &Arc<Plan>,
    boards: Vec<(u64, Option<Board>)>,
    deadline: Instant,
    tally: &mut Tally,
) -> Result<Vec<Played>> {
    let slots: Vec<_> = boards
        .into_iter()
        .map(|(number, first)| tokio::spawn(slot::run(Arc::clone(plan), first, number, deadline)))
        .collect();
    let mut played = Vec::new();
    for slot in slots {
        let report = slot.await.context("a game slot failed")?;
        tally.merge(report.tally);
        played.extend(report.played);
    }
    Ok(played)
}

/// The most resident memory seen, sampled until `stop` fires.
async fn sample_memory(
    plan: Arc<Plan>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> Option<u64> {
    let mut most = None;
    loop {
        most = most.max(plan.target.rss_kib());
        tokio::select! {
            () = tokio::time::sleep(SAMPLE_EVERY) => {}
            _ = &mut stop => return most,
        }
    }
}
