//! The load test's result: printed as a short summary, or as one JSON object with `--json`
//! (its fields are documented in docs/API.md, "Load test").

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::check::Check;
use super::lobby::LobbyReport;
use super::people::{AccountsReport, People};
use super::ratings::RatingCheck;
use super::tally::{ErrorKind, Tally};
use super::Plan;

/// Prints like `println!`, returning the error instead of panicking when standard output is
/// closed or full.
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)
    };
}

/// Move latencies, in milliseconds.
#[derive(Debug, Serialize)]
pub struct Latency {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Longest.
    pub max: f64,
}

/// The server's memory (resident set, KiB) and CPU, when its process is known.
#[derive(Debug, Default, Serialize)]
pub struct Machine {
    /// The server's process id.
    pub pid: u32,
    /// Before the load test created any game (after the accounts and lobby sockets, with
    /// `--accounts`).
    pub rss_start_kib: Option<u64>,
    /// With the N games created and their sockets open, before any move.
    pub rss_idle_kib: Option<u64>,
    /// The most sampled while the games were played.
    pub rss_load_max_kib: Option<u64>,
    /// (idle - start) / N: one game held with its two sockets open; not measured with
    /// `--accounts` (the password hashes' memory is given back to the system at random).
    pub idle_kib_per_game: Option<f64>,
    /// CPU time the server used while the games were played, per second: cores kept busy.
    pub cpu_cores_busy: Option<f64>,
}

/// Games made by pairing (`--accounts`).
#[derive(Debug, Serialize)]
pub struct PairingReport {
    /// The games are rated (`--rated`).
    pub rated: bool,
    /// Seeks the run posted: one per game made, the background ones, the lobby's marker.
    pub seeks_posted: u64,
    /// Games made by a seek and its acceptance.
    pub games_paired: u64,
    /// Of them, made while the games were played (each replacing a finished one); the
    /// others were made while the load was set up, 64 at a time.
    pub games_paired_during_play: u64,
    /// Of them, the seeker's token came on its lobby socket's `started` frame.
    pub tokens_via_lobby: u64,
    /// Of them, the seeker's token came from `GET /api/account/games`.
    pub tokens_via_account_games: u64,
    /// From posting the seek to both seats' tokens in hand, in milliseconds, for the games
    /// made while the games were played (zeros when none was).
    pub latency_ms: Latency,
    /// The same for the games made while the load was set up.
    pub setup_latency_ms: Latency,
    /// Accounts keeping a seek open that nobody accepts (`--open-seeks`).
    pub open_seeks: u64,
}

impl PairingReport {
    /// The pairings counted in `tally`.
    pub fn new(people: &People, tally: &Tally, open_seeks: u64) -> PairingReport {
        PairingReport {
            rated: people.rated,
            seeks_posted: people.posted().len() as u64,
            games_paired: tally.paired,
            games_paired_during_play: tally.paired_in_play,
            tokens_via_lobby: tally.via_lobby,
            tokens_via_account_games: tally.paired - tally.via_lobby,
            latency_ms: pairing_latency(tally, true),
            setup_latency_ms: pairing_latency(tally, false),
            open_seeks,
        }
    }
}

/// The pairings' latency while set up or while playing.
fn pairing_latency(tally: &Tally, in_play: bool) -> Latency {
    Latency {
        p50: tally.pairing_ms(in_play, 0.50),
        p90: tally.pairing_ms(in_play, 0.90),
        p99: tally.pairing_ms(in_play, 0.99),
        max: tally.max_pairing_ms(in_play),
    }
}

/// Everything the load test measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The server's URL.
    pub url: String,
    /// Whether the tool started the server (`--spawn`).
    pub spawned: bool,
    /// Games kept going at once (`--games`).
    pub games: u64,
    /// Open WebSockets (two per game).
    pub sockets: u64,
    /// The time asked for (`--seconds`).
    pub seconds: f64,
    /// The time the games were played, to the last answer.
    pub elapsed_s: f64,
    /// `--seed`.
    pub seed: u64,
    /// `--rate`: the moves per second asked for over all games (0: as fast as answered).
    pub rate: u64,
    /// The games played (registry ids).
    pub game_ids: Vec<&'static str>,
    /// Moves acknowledged.
    pub moves: u64,
    /// Moves acknowledged per second.
    pub moves_per_s: f64,
    /// Move latency: sending a move to its snapshot arriving on the mover's socket.
    pub latency_ms: Latency,
    /// Games played (including those cut by the deadline).
    pub games_played: u64,
    /// Games played to their end.
    pub games_finished: u64,
    /// Errors of every kind.
    pub errors: u64,
    /// Errors by kind, with the first message of each.
    pub errors_by_kind: BTreeMap<&'static str, ErrorKind>,
    /// Stored moves against acknowledged ones.
    pub check: Check,
    /// Lost decisions (as in `check`).
    pub lost: u64,
    /// Doubled decisions (as in `check`).
    pub doubled: u64,
    /// The server's memory and CPU, when its process is known.
    pub server: Option<Machine>,
    /// CPU time the load test's own clients used while playing, per second.
    pub client_cpu_cores_busy: Option<f64>,
    /// The accounts signed up (`--accounts`); `null` without.
    pub accounts: Option<AccountsReport>,
    /// The games made by pairing; `null` without accounts.
    pub pairing: Option<PairingReport>,
    /// What the lobby sockets heard (`--lobby`); `null` without.
    pub lobby: Option<LobbyReport>,
    /// The ratings' check (`--rated`); `null` without.
    pub ratings: Option<RatingCheck>,
}

impl Report {
    /// The report of `plan` played for `seconds` (asked, taken), from the merged `tally`.
    pub fn new(
        plan: &Plan,
        (seconds, elapsed_s): (f64, f64),
        games_played: u64,
        tally: &Tally,
        check: Check,
        (server, client_cores): (Option<Machine>, Option<f64>),
    ) -> Report {
        Report {
            url: plan.target.base.clone(),
            spawned: plan.target.is_spawned(),
            games: plan.slots,
            sockets: plan.slots * 2,
            seconds,
            elapsed_s,
            seed: plan.seed,
            rate: plan.rate,
            game_ids: plan.games.iter().map(|i| i.id).collect(),
            moves: tally.moves,
            moves_per_s: tally.moves as f64 / elapsed_s,
            latency_ms: Latency {
                p50: tally.latency_ms(0.50),
                p90: tally.latency_ms(0.90),
                p99: tally.latency_ms(0.99),
                max: tally.max_latency_ms(),
            },
            games_played,
            games_finished: tally.finished,
            errors: tally.error_count(),
            errors_by_kind: tally.errors.clone(),
            lost: check.lost,
            doubled: check.doubled,
            check,
            server,
            client_cpu_cores_busy: client_cores,
            accounts: plan.people.get().map(|p| p.report.clone()),
            pairing: None,
            lobby: None,
            ratings: None,
        }
    }

    /// Prints the report as one JSON object, or as the summary.
    pub fn print(&self, json: bool) -> Result<()> {
        if json {
            outln!("{}", serde_json::to_string(self)?)?;
            return Ok(());
        }
        let spawned = if self.spawned { " (spawned)" } else { "" };
        outln!("server: {}{spawned}", self.url)?;
        if let Some(accounts) = &self.accounts {
            print_accounts(accounts)?;
        }
        self.print_load()?;
        if let Some(pairing) = &self.pairing {
            print_pairing(pairing)?;
        }
        if let Some(lobby) = &self.lobby {
            print_lobby(lobby)?;
        }
        outln!("errors: {}", self.errors)?;
        for (kind, error) in &self.errors_by_kind {
            outln!("  {kind}: {} (first: {})", error.count, error.first)?;
        }
        let c = &self.check;
        if let Some(why) = &c.not_made {
            outln!("check: could not be made: {why}")?;
        } else {
            print_check(c)?;
        }
        if let Some(ratings) = &self.ratings {
            print_ratings(ratings)?;
        }
        if let Some(server) = &self.server {
            print_machine(server)?;
        }
        if let Some(cores) = self.client_cpu_cores_busy {
            outln!("clients' CPU under load: {cores:.2} cores busy")?;
        }
        Ok(())
    }

    /// The load, the moves, their latency, the games.
    fn print_load(&self) -> Result<()> {
        let pace = match self.rate {
            0 => "as fast as answered".to_string(),
            rate => format!("paced at {rate} moves/s"),
        };
        outln!(
            "load: {} games ({} sockets) of {}, {} s, {pace}, seed {}",
            self.games,
            self.sockets,
            self.game_ids.join(", "),
            self.seconds,
            self.seed
        )?;
        outln!(
            "moves: {} in {:.1} s = {:.0} moves/s",
            self.moves,
            self.elapsed_s,
            self.moves_per_s
        )?;
        let l = &self.latency_ms;
        outln!(
            "latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            l.p50,
            l.p90,
            l.p99,
            l.max
        )?;
        outln!(
            "games: {} played, {} finished",
            self.games_played,
            self.games_finished
        )?;
        Ok(())
    }
}

fn print_check(c: &Check) -> Result<()> {
    outln!(
        "check: {} games, {} decisions: {} lost, {} doubled, {} mismatched, {} no longer held",
        c.games,
        c.decisions,
        c.lost,
        c.doubled,
        c.mismatched,
        c.missing
    )?;
    Ok(())
}

fn print_machine(server: &Machine) -> Result<()> {
    let mib =
        |kib: Option<u64>| kib.map_or("?".to_string(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
    outln!(
        "server memory (pid {}): {} at start, {} with the games idle, {} at most under load",
        server.pid,
        mib(server.rss_start_kib),
        mib(server.rss_idle_kib),
        mib(server.rss_load_max_kib)
    )?;
    if let Some(per_game) = server.idle_kib_per_game {
        outln!("memory per idle game (with its two sockets): {per_game:.1} KiB")?;
    }
    if let Some(cores) = server.cpu_cores_busy {
        outln!("server CPU under load: {cores:.2} cores busy")?;
    }
    Ok(())
}

fn print_accounts(a: &AccountsReport) -> Result<()> {
    let before = if a.signed_in > 0 {
        format!(" ({} there before, signed in)", a.signed_in)
    } else {
        String::new()
    };
    outln!(
        "accounts: {} signed up in {:.1} s ({:.0}/s, {} bots){before}",
        a.signed_up + a.signed_in,
        a.seconds,
        a.per_s,
        a.bots
    )?;
    Ok(())
}

fn print_pairing(p: &PairingReport) -> Result<()> {
    let rated = if p.rated { "rated" } else { "casual" };
    outln!(
        "pairing: {} {rated} games made by seek and accept ({} seeks posted, {} kept open); seeker's token from its lobby socket {}, from its game list {}",
        p.games_paired,
        p.seeks_posted,
        p.open_seeks,
        p.tokens_via_lobby,
        p.tokens_via_account_games
    )?;
    for (l, when, games) in [
        (
            &p.setup_latency_ms,
            "setting up",
            p.games_paired - p.games_paired_during_play,
        ),
        (&p.latency_ms, "playing", p.games_paired_during_play),
    ] {
        outln!(
            "pairing latency (seek to both tokens) while {when}, {games} games: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            l.p50,
            l.p90,
            l.p99,
            l.max
        )?;
    }
    Ok(())
}

fn print_lobby(l: &LobbyReport) -> Result<()> {
    outln!(
        "lobby: {} sockets ({} signed in), {} frames ({:.0}/s while playing): {} seek, {} unseek, {} started of {} expected, {} resyncs ({} while playing)",
        l.sockets,
        l.signed_in,
        l.frames,
        l.frames_per_s,
        l.seek_frames,
        l.unseek_frames,
        l.started_frames,
        l.started_expected,
        l.resyncs,
        l.resyncs_during_play
    )?;
    if l.drained {
        outln!(
            "lobby check: {} of {} sockets saw all {} seeks come and go; {} missed ({} while playing), {} stale",
            l.sockets_complete,
            l.sockets,
            l.seeks_of_run,
            l.missed,
            l.missed_during_play,
            l.stale
        )?;
    } else {
        outln!(
            "lobby check: not every socket heard the end within 10 s; {} of {} sockets saw all {} seeks come and go",
            l.sockets_complete,
            l.sockets,
            l.seeks_of_run
        )?;
    }
    Ok(())
}

fn print_ratings(r: &RatingCheck) -> Result<()> {
    if let Some(why) = &r.not_made {
        outln!("ratings check: could not be made: {why}")?;
        return Ok(());
    }
    outln!(
        "ratings check: {} rated games ({} ended): {} of {} history rows, {} missing, {} doubled, {} unexpected, {} unverifiable",
        r.games,
        r.finished,
        r.rows_found,
        r.rows_expected,
        r.missing,
        r.doubled,
        r.unexpected,
        r.unverifiable
    )?;
    Ok(())
}
