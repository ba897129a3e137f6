//! `ludus-bot`: a UGI engine connected to a Ludus server as a bot account, as lichess's BOT
//! accounts are. It signs in with the account's API token, keeps the lobby socket open
//! (answering challenges, keeping `--seek` seeks posted), plays each of its games over the
//! game's WebSocket with a fresh engine process (as `ludus arena --engine` starts them), and
//! resumes its games in progress after a restart or a reconnection.
//!
//! The parts: [`settings`] (the arguments checked), [`api`] (the HTTP routes), [`lobby`] (the
//! lobby socket), [`challenges`] (accept or decline), [`seeks`] (the seeks kept posted),
//! [`pool`] (the games at once and their engine processes), [`player`] (one game),
//! [`position`] (snapshot to UGI), [`report`] (events on stdout or stderr) and [`backoff`].
//!
//! Ctrl-C or SIGTERM ends every engine's process group at once, withdraws the seeks (for at
//! most 2 s) and exits with 128 + the signal's number.

mod api;
mod args;
mod backoff;
mod challenges;
mod lobby;
mod player;
mod pool;
mod position;
mod report;
mod seeks;
mod settings;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use ludus_ai::arena::{Forfeit, UgiClient};
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

use self::api::{Api, ApiError, SeatRef};
use self::backoff::Backoff;
use self::pool::{Pool, Promise};
use self::report::{notice, Reporter};
use self::seeks::SeekNews;
use self::settings::Settings;
pub use crate::args::{AcceptChallenges, BotArgs};

/// What every part of the bot shares.
#[derive(Debug)]
pub struct Bot {
    settings: Settings,
    api: Api,
    report: Reporter,
    pool: Arc<Pool>,
    /// The account's name.
    me: String,
    /// News for the seek keeper.
    seeks: mpsc::UnboundedSender<SeekNews>,
    /// Challenges answered or being answered.
    challenges: Mutex<BTreeSet<String>>,
}

impl Bot {
    /// Whether challenge `id` is seen for the first time (it is answered once).
    fn first_sight(&self, id: &str) -> bool {
        let mut seen = self
            .challenges
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if seen.len() > 10_000 {
            seen.clear();
        }
        seen.insert(id.to_string())
    }

    /// Plays `seat`'s game unless it is played already.
    fn play(self: &Arc<Self>, seat: SeatRef, promise: Option<Promise>, resumed: bool) {
        if let Some(slot) = self.pool.enter(&seat.game, promise) {
            player::spawn(Arc::clone(self), seat, slot, resumed);
        }
    }
}

/// Runs the bot until it is stopped (Ctrl-C, SIGTERM) or a fatal error: a bad argument, an
/// engine that does not start, a token the server refuses.
pub fn run(args: &BotArgs) -> Result<()> {
    let settings = Settings::from_args(args)?;
    check_engine(&settings)?;
    let (stop, stopped) = mpsc::unbounded_channel();
    end_engines_on_signal(stop);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the bot's runtime")?;
    runtime.block_on(serve(settings, stopped))
}

/// Starts the engine once (with the first game it plays) and ends it: an engine that does
/// not start is said at once, not at the first game.
fn check_engine(settings: &Settings) -> Result<()> {
    let spec = settings.engine_for(settings.first_game());
    match UgiClient::start(&spec, &[]) {
        Ok(engine) => {
            drop(engine);
            Ok(())
        }
        Err(Forfeit(why)) => bail!("{why} (--engine \"{}\")", settings.engine.join(" ")),
    }
}

/// Signs in (retrying while the server is out of reach), then keeps the lobby until a
/// fatal error or a stop signal.
async fn serve(settings: Settings, mut stopped: mpsc::UnboundedReceiver<i32>) -> Result<()> {
    let api = Api::new(&settings)?;
    let report = Reporter::new(settings.json);
    let account = tokio::select! {
        account = sign_in(&api) => account?,
        signal = stopped.recv() => exit(signal),
    };
    let event = json!({"event": "connected", "server": api.base(), "name": account.name,
                       "bot": account.bot});
    report.event(&event, || {
        format!("signed in at {} as {}", api.base(), account.name)
    });
    if !account.bot {
        notice(&format!(
            "{} is not a bot account: people may take it for a person",
            account.name
        ));
    }
    let (seeks, news) = mpsc::unbounded_channel();
    let bot = Arc::new(Bot {
        pool: Pool::new(settings.max_games),
        settings,
        api,
        report,
        me: account.name,
        seeks,
        challenges: Mutex::new(BTreeSet::new()),
    });
    seeks::spawn(Arc::clone(&bot), news);
    tokio::select! {
        result = lobby::run(&bot) => result,
        signal = stopped.recv() => {
            let (done, withdrawn) = oneshot::channel();
            if bot.seeks.send(SeekNews::Stop(done)).is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(2), withdrawn).await;
            }
            exit(signal)
        }
    }
}

/// Exits as the signal would have (the engines are already ended).
fn exit(signal: Option<i32>) -> ! {
    let _ = std::io::Write::flush(&mut std::io::stdout());
    std::process::exit(128 + signal.unwrap_or(15));
}

/// `GET /api/account/games` and `GET /api/account`, retried with the backoff while the
/// server is out of reach.
async fn sign_in(api: &Api) -> Result<api::Account> {
    let mut backoff = Backoff::default();
    loop {
        match api.sign_in().await {
            Ok((account, _)) => return Ok(account),
            Err(ApiError::Refused {
                status: 401,
                message,
            }) => bail!(
                "the server at {} refused the token (401): {message}",
                api.base()
            ),
            Err(e) if e.is_transient() => {
                let wait = backoff.next_wait();
                notice(&format!(
                    "cannot reach the server at {} ({e}); retrying in {} s",
                    api.base(),
                    wait.as_secs()
                ));
                tokio::time::sleep(wait).await;
            }
            Err(e) => bail!("signing in at {} failed: {e}", api.base()),
        }
    }
}

/// On Ctrl-C or SIGTERM, kills every engine's process group at once (see
/// `ludus_ai::arena::end_all_engines`) and tells the bot, which withdraws its seeks and
/// exits; if it has not within 3 s, the process exits anyway.
fn end_engines_on_signal(stop: mpsc::UnboundedSender<i32>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            ludus_ai::arena::end_all_engines();
            let _ = stop.send(signal);
            std::thread::sleep(Duration::from_secs(3));
            std::process::exit(128 + signal);
        }
    });
}
