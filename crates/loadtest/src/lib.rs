//! `ludus-loadtest`: N games at once against a server, two scripted WebSocket clients each
//! playing random legal moves as fast as the server answers, for S seconds; then moves per
//! second, latency percentiles, errors by kind, a check that every game's stored moves are
//! exactly the decisions its clients saw acknowledged, and the server's memory per idle game
//! when its process runs here (`--spawn` or `--pid`).
//!
//! With `--accounts K` the people layer is loaded too: K accounts signed up first (timed on
//! their own), every game made between two of them by a seek and its acceptance, rated with
//! `--rated` (and the ratings checked after the run); `--lobby L` keeps L lobby sockets open
//! that must hear every seek of the run come and go, while `--open-seeks S` accounts keep a
//! seek open that nobody accepts.
//!
//! The phases: sign the accounts up, open the lobby sockets and post the background seeks;
//! open the N games and their 2N sockets (the idle memory is read then), play until the
//! deadline (finished games replaced by new ones, so the load stays at N; the memory
//! sampled); drain the lobby; check every game played, and the ratings.

mod args;
mod check;
mod client;
mod lobby;
mod people;
mod ratings;
mod report;
mod slot;
mod tally;
mod target;

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use futures_util::{stream, StreamExt};
use ludus_engine::GameInfo;
use ludus_games::GAMES;

use self::client::{Board, Played};
use self::people::People;
use self::report::{Machine, PairingReport, Report};
use self::tally::Tally;
use self::target::Target;
pub use crate::args::LoadtestArgs;

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
    /// The accounts that make the games by pairing (`--accounts`), once signed up.
    people: OnceLock<Arc<People>>,
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
    check_people_args(args)?;
    let target = match &args.url {
        Some(url) if !args.spawn => Target::at(url, args.pid)?,
        _ => Target::spawn(args.server_bin.as_deref())?,
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
        people: OnceLock::new(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load test's runtime")?;
    let report = runtime.block_on(load(&plan, args))?;
    report.print(args.json)?;
    verdict(&report)
}

/// Refuses people options that cannot go together.
fn check_people_args(args: &LoadtestArgs) -> Result<()> {
    if args.accounts == 1 {
        bail!("--accounts 1: expected 0 (no accounts) or at least 2, since a game needs two");
    }
    if args.accounts == 0 && (args.lobby > 0 || args.rated || args.open_seeks.is_some()) {
        bail!("--lobby, --rated and --open-seeks need accounts: expected --accounts K as well");
    }
    if args.open_seeks.is_some_and(|s| s > args.accounts) {
        bail!(
            "--open-seeks {}: expected at most --accounts ({}), one seek per account",
            args.open_seeks.unwrap_or_default(),
            args.accounts
        );
    }
    Ok(())
}

/// Fails when a check could not be made or found something wrong.
fn verdict(report: &Report) -> Result<()> {
    if let Some(why) = &report.check.not_made {
        bail!(
            "the check could not be made: {why}; nothing is known about lost or doubled decisions"
        );
    }
    if let Some(ratings) = &report.ratings {
        if let Some(why) = &ratings.not_made {
            bail!("the ratings' check could not be made: {why}");
        }
        if !ratings.passed() {
            bail!(
                "the ratings differ from the games played: {} seats without their history row, {} with two or more, {} rows of games not ended",
                ratings.missing,
                ratings.doubled,
                ratings.unexpected
            );
        }
    }
    if let Some(lobby) = &report.lobby {
        if lobby.stale > 0 {
            bail!(
                "the lobby still showed {} seeks after they were taken or withdrawn",
                lobby.stale
            );
        }
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
    let (lobby, open_seeks) = setup_people(plan, args).await?;
    let mut machine = target.pid.map(|pid| Machine {
        pid,
        rss_start_kib: target.rss_kib(),
        ..Machine::default()
    });
    let mut tally = Tally::default();
    let boards = open_all(plan, &mut tally).await;
    if let Some(machine) = &mut machine {
        machine.rss_idle_kib = target.rss_kib();
        // After sign-ups the allocator hands the password hashes' memory (19 MiB each)
        // back to the system when it pleases: the difference says nothing of the games then.
        machine.idle_kib_per_game = machine
            .rss_start_kib
            .zip(machine.rss_idle_kib)
            .filter(|_| args.accounts == 0)
            .map(|(start, idle)| idle.saturating_sub(start) as f64 / plan.slots as f64);
    }
    let cpu_before = target.cpu_seconds();
    let own_cpu_before = target::cpu_seconds("self");
    let start = Instant::now();
    if let Some((lobby, people)) = lobby.as_ref().zip(plan.people.get()) {
        lobby.start_playing(people);
    }
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
    let (pairing, report_lobby) = finish_people(plan, lobby, elapsed, open_seeks, &mut tally).await;
    let check = check::check(plan, &played, &mut tally).await;
    let ratings = match plan.people.get().filter(|p| p.rated) {
        Some(people) => Some(ratings::check(plan, people, &played).await),
        None => None,
    };
    let mut report = Report::new(
        plan,
        (args.seconds, elapsed),
        games_played,
        &tally,
        check,
        (machine, own_cpu),
    );
    report.pairing = pairing;
    report.lobby = report_lobby;
    report.ratings = ratings;
    Ok(report)
}

/// With `--accounts`: signs the accounts up, opens the lobby sockets, posts the background
/// seeks; the lobby and the number of background seeks.
async fn setup_people(plan: &Plan, args: &LoadtestArgs) -> Result<(Option<lobby::Lobby>, u64)> {
    let open_seeks = args
        .open_seeks
        .unwrap_or(if args.lobby > 0 { 10 } else { 0 })
        .min(args.accounts);
    if args.accounts == 0 {
        return Ok((None, 0));
    }
    let people = Arc::new(people::enroll(plan, args.accounts, args.rated).await?);
    let mut lobby = None;
    if args.lobby > 0 {
        lobby = Some(lobby::open(plan, &people, args.lobby).await?);
    }
    people.post_background(plan, open_seeks).await?;
    let _ = plan.people.set(people);
    Ok((lobby, open_seeks))
}

/// With `--accounts`, after the play: withdraws the background seeks, drains the lobby;
/// the pairing's and the lobby's reports.
async fn finish_people(
    plan: &Plan,
    lobby: Option<lobby::Lobby>,
    elapsed: f64,
    open_seeks: u64,
    tally: &mut Tally,
) -> (Option<PairingReport>, Option<lobby::LobbyReport>) {
    let Some(people) = plan.people.get() else {
        return (None, None);
    };
    let mut heard = None;
    if let Some(lobby) = lobby {
        let (report, errors) = lobby
            .finish(plan, people, elapsed, tally.started_expected)
            .await;
        for error in errors {
            tally.error("seek", error);
        }
        heard = Some(report);
    } else if let Err(error) = people.cancel_background(plan).await {
        tally.error("seek", error);
    }
    let pairing = PairingReport::new(people, tally, open_seeks);
    (Some(pairing), heard)
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
