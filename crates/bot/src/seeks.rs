//! Keeping the `--seek` seeks posted: one task owns them. After each lobby connection the
//! lobby's list tells which of the bot's seeks the server still holds; a seek taken or
//! withdrawn (`unseek`) is posted again a few seconds later (a taken seek's game is announced
//! just after its `unseek`: reposting at once could let a second opponent in). Seeks are
//! posted while the bot has room for a game and withdrawn while it has none; they are
//! checked again every 30 s (a post that failed is retried), and withdrawn when the bot
//! stops.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

use super::api::ApiError;
use super::report::notice;
use super::Bot;

/// How often the seeks are checked without news.
const CHECK_EVERY: Duration = Duration::from_secs(30);

/// How long after a seek left the lobby it is posted again.
const REPOST_AFTER: Duration = Duration::from_secs(3);

/// News for the seek keeper.
#[derive(Debug)]
pub enum SeekNews {
    /// The lobby's list of every seek, sent first on each connection.
    Listed(Vec<Value>),
    /// A seek left the lobby (taken or withdrawn).
    Gone(String),
    /// The bot stops: withdraw every seek, then answer.
    Stop(oneshot::Sender<()>),
}

/// The keeper's state: for each `--seek`, the id of its seek on the server.
struct Keeper {
    bot: Arc<Bot>,
    posted: Vec<Option<String>>,
    /// Seeks that left the lobby, in case a post's answer comes after its `unseek`.
    gone: BTreeSet<String>,
    /// Whether the lobby's list arrived (nothing is posted before: it may hold ours).
    listed: bool,
    /// A failure already reported (not repeated every 30 s).
    reported: Option<String>,
}

/// Starts the keeper (it posts nothing without `--seek`), reading `news`.
pub fn spawn(bot: Arc<Bot>, news: mpsc::UnboundedReceiver<SeekNews>) {
    let keeper = Keeper {
        posted: vec![None; bot.settings.seeks.len()],
        bot,
        gone: BTreeSet::new(),
        listed: false,
        reported: None,
    };
    tokio::spawn(keeper.run(news));
}

impl Keeper {
    async fn run(mut self, mut news: mpsc::UnboundedReceiver<SeekNews>) {
        let mut playing = self.bot.pool.watch();
        let mut tick = tokio::time::interval(CHECK_EVERY);
        let mut repost_at = None;
        loop {
            let repost = async {
                match repost_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                item = news.recv() => match item {
                    Some(SeekNews::Listed(seeks)) => self.listed_now(&seeks),
                    Some(SeekNews::Gone(id)) => {
                        if self.gone_now(id) {
                            repost_at = Some(tokio::time::Instant::now() + REPOST_AFTER);
                        }
                        continue;
                    }
                    Some(SeekNews::Stop(done)) => {
                        self.withdraw_all().await;
                        let _ = done.send(());
                        return;
                    }
                    None => return,
                },
                changed = playing.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                _ = tick.tick() => {}
                () = repost => repost_at = None,
            }
            if self.bot.settings.seeks.is_empty() {
                continue;
            }
            if self.bot.pool.has_room() {
                self.post_missing().await;
            } else {
                self.withdraw_all().await;
            }
        }
    }

    /// Takes the bot's own seeks from the lobby's list.
    fn listed_now(&mut self, seeks: &[Value]) {
        self.listed = true;
        self.posted.iter_mut().for_each(|p| *p = None);
        for seek in seeks {
            if seek["by"]["name"].as_str() != Some(self.bot.me.as_str()) {
                continue;
            }
            let Some(id) = seek["id"].as_str() else {
                continue;
            };
            let specs = &self.bot.settings.seeks;
            if let Some(i) =
                (0..specs.len()).find(|&i| self.posted[i].is_none() && specs[i].matches(seek))
            {
                self.posted[i] = Some(id.to_string());
            }
        }
    }

    /// A seek left the lobby; whether it was one of the bot's.
    fn gone_now(&mut self, id: String) -> bool {
        let mut ours = false;
        for posted in &mut self.posted {
            if posted.as_deref() == Some(id.as_str()) {
                *posted = None;
                ours = true;
            }
        }
        if self.gone.len() > 1000 {
            self.gone.clear();
        }
        self.gone.insert(id);
        ours
    }

    async fn post_missing(&mut self) {
        if !self.listed {
            return;
        }
        for i in 0..self.posted.len() {
            if self.posted[i].is_some() {
                continue;
            }
            let spec = &self.bot.settings.seeks[i];
            match self.bot.api.post_seek(spec).await {
                Ok(id) => {
                    let event = json!({"event": "seek", "id": id, "game": spec.game,
                                       "clock": spec.body()["clock"]});
                    self.bot
                        .report
                        .event(&event, || format!("seek posted: {}", spec.label()));
                    self.reported = None;
                    if !self.gone.contains(&id) {
                        self.posted[i] = Some(id);
                    }
                }
                Err(e) => self.failed(&format!("posting the seek {}", spec.label()), &e),
            }
        }
    }

    async fn withdraw_all(&mut self) {
        for i in 0..self.posted.len() {
            let Some(id) = self.posted[i].take() else {
                continue;
            };
            if let Err(e) = self.bot.api.delete_seek(&id).await {
                // Gone already (taken meanwhile): nothing to withdraw.
                if !matches!(
                    e,
                    ApiError::Refused {
                        status: 404 | 409,
                        ..
                    }
                ) {
                    self.failed("withdrawing a seek", &e);
                }
            }
        }
    }

    /// Reports a failure once until something succeeds.
    fn failed(&mut self, what: &str, error: &ApiError) {
        let line = format!("{what} failed: {error}");
        if self.reported.as_ref() != Some(&line) {
            notice(&line);
            self.reported = Some(line);
        }
    }
}
