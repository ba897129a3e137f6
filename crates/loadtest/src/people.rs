//! The people layer under load (`--accounts K`): K accounts signed up during setup, and every
//! game made between two of them by the pairing API, as two people in the lobby would: one
//! posts a seek, the other accepts it and is answered its seat's token; the seeker learns its
//! own token from its lobby socket's `started` frame when it has one open (`--lobby`), else
//! from `GET /api/account/games`. Every fifth account is a bot that speaks with an API token
//! (`Authorization: Bearer`); the others are browsers: the session cookie and the server's
//! own `Origin`, as the page sends them.
//!
//! Game number `n` is sought by account `n mod K` and accepted by another one, chosen so that
//! the pairs vary. The server lets a person have three seeks open at once: each account here
//! keeps at most two being taken, and a third for the background seeks (`--open-seeks S`: S
//! accounts keep one seek open that nobody here accepts, so the lobby is never empty).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures_util::{stream, StreamExt};
use ludus_engine::GameInfo;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, COOKIE, ORIGIN, SET_COOKIE};
use reqwest::{Method, RequestBuilder, StatusCode};
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{oneshot, Semaphore};

use super::client::Failure;
use super::Plan;

/// Sign-ups (or sign-ins) sent at once: the server hashes two passwords at a time and lets
/// 64 wait, so more at once would only wait there.
const SIGNING_UP: usize = 8;

/// Seeks of one account being taken at once; the server allows three open, one is kept for
/// the background seek.
const SEEKING: usize = 2;

/// How long a seeker waits for its `started` frame before asking `GET /api/account/games`.
const STARTED_TIMEOUT: Duration = Duration::from_secs(10);

/// The session cookie's name.
const SESSION_COOKIE: &str = "ludus_session";

/// One account of the run.
#[derive(Debug)]
pub struct Member {
    /// `load0001`, ...
    pub name: String,
    /// A bot (speaks with an API token).
    pub bot: bool,
    /// What proves who sends a request: the session cookie and the page's `Origin`, or the
    /// bot's token.
    headers: HeaderMap,
    /// Seeks of this account being taken (see [`SEEKING`]).
    seeking: Semaphore,
    /// A signed-in lobby socket of this account is open: its `started` frames arrive there.
    pub listening: AtomicBool,
}

impl Member {
    /// The headers that sign a request (or a WebSocket handshake) in as this account.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }
}

/// How the accounts were made, for the report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AccountsReport {
    /// Accounts used (`--accounts`).
    pub count: u64,
    /// Of them, signed up in this run.
    pub signed_up: u64,
    /// Of them, already there (a running server loaded before): signed in instead.
    pub signed_in: u64,
    /// Bots among them (API tokens).
    pub bots: u64,
    /// The time the sign-ups (and sign-ins) took, in all.
    pub seconds: f64,
    /// Sign-ups and sign-ins per second.
    pub per_s: f64,
}

/// The accounts of the run and what they share.
#[derive(Debug)]
pub struct People {
    /// The accounts, `load0001` first.
    pub accounts: Vec<Member>,
    /// Games made are rated (`--rated`).
    pub rated: bool,
    /// How they were made.
    pub report: AccountsReport,
    /// Every seek this run posted, in order: the lobby sockets must see each come and go.
    posted: Mutex<Vec<String>>,
    /// Seeks this run could not withdraw (they stay in the lobby).
    left_open: Mutex<Vec<String>>,
    /// The background seeks: account and seek.
    background: Mutex<Vec<(usize, String)>>,
    /// Seat tokens from the lobby sockets' `started` frames.
    pub mailbox: Mailbox,
}

/// Signs up (or in) the K accounts, [`SIGNING_UP`] at a time; fails with one line when one
/// cannot be had.
pub async fn enroll(plan: &Plan, count: u64, rated: bool) -> anyhow::Result<People> {
    let start = Instant::now();
    let mut made: Vec<_> = stream::iter(0..count as usize)
        .map(|index| async move { (index, enroll_one(plan, index).await) })
        .buffer_unordered(SIGNING_UP)
        .collect()
        .await;
    made.sort_unstable_by_key(|(index, _)| *index);
    let mut accounts = Vec::with_capacity(made.len());
    let mut report = AccountsReport {
        count,
        ..AccountsReport::default()
    };
    for (_, result) in made {
        let (member, new) = result.map_err(anyhow::Error::msg)?;
        if new {
            report.signed_up += 1;
        } else {
            report.signed_in += 1;
        }
        report.bots += u64::from(member.bot);
        accounts.push(member);
    }
    report.seconds = start.elapsed().as_secs_f64();
    report.per_s = count as f64 / report.seconds.max(1e-9);
    Ok(People {
        accounts,
        rated,
        report,
        posted: Mutex::new(Vec::new()),
        left_open: Mutex::new(Vec::new()),
        background: Mutex::new(Vec::new()),
        mailbox: Mailbox::default(),
    })
}

/// Account number `index`: signed up, or signed in when its name is taken (a running server
/// loaded before); a bot gets an API token.
async fn enroll_one(plan: &Plan, index: usize) -> Result<(Member, bool), String> {
    let name = format!("load{:04}", index + 1);
    // A load test's accounts: the password is derived from the name, on purpose.
    let password = format!("{name}-loadtest-password");
    let bot = index % 5 == 4;
    let base = &plan.target.base;
    let body = json!({"name": name, "password": password, "bot": bot});
    let answer = plan
        .http
        .post(format!("{base}/api/account/signup"))
        .json(&body)
        .send()
        .await
        .map_err(|e| format!("cannot sign up {name}: {e}"))?;
    let (answer, new) = if answer.status() == StatusCode::CONFLICT {
        let body = json!({"name": name, "password": password});
        let answer = plan
            .http
            .post(format!("{base}/api/account/signin"))
            .json(&body)
            .send()
            .await
            .map_err(|e| format!("cannot sign in {name}: {e}"))?;
        (answer, false)
    } else {
        (answer, true)
    };
    let status = answer.status();
    let cookie = session_cookie(answer.headers());
    let text = answer.text().await.unwrap_or_default();
    if !status.is_success() {
        return Err(refused(&name, new, status, &text));
    }
    let cookie = cookie.ok_or_else(|| format!("{name}: the server set no session cookie"))?;
    let bot = serde_json::from_str::<Value>(&text)
        .ok()
        .map_or(bot, |v| v["account"]["bot"].as_bool().unwrap_or(bot));
    let mut headers = HeaderMap::new();
    headers.insert(COOKIE, header_value(&format!("{SESSION_COOKIE}={cookie}"))?);
    headers.insert(ORIGIN, header_value(base)?);
    if bot {
        headers = bot_token(plan, &name, headers).await?;
    }
    let member = Member {
        name,
        bot,
        headers,
        seeking: Semaphore::new(SEEKING),
        listening: AtomicBool::new(false),
    };
    Ok((member, new))
}

/// Why signing `name` up (`new`) or in was refused, with what would help.
fn refused(name: &str, new: bool, status: StatusCode, text: &str) -> String {
    let hint = if status == StatusCode::TOO_MANY_REQUESTS && new {
        ": expected a server started with --signups-per-hour 0 (--spawn does that)"
    } else if status == StatusCode::TOO_MANY_REQUESTS {
        ": a server lets one address sign in 30 times in 15 minutes, so the accounts of an earlier run are reused only that often; expected a server on a fresh database"
    } else if new {
        ""
    } else {
        ": the name is taken by an account with another password"
    };
    let what = if new { "sign up" } else { "sign in" };
    format!("cannot {what} {name}: {status}: {text}{hint}")
}

/// A new API token for bot `name`, asked with its session's `headers`: the headers that
/// carry it.
async fn bot_token(plan: &Plan, name: &str, headers: HeaderMap) -> Result<HeaderMap, String> {
    let answer = plan
        .http
        .post(format!("{}/api/account/tokens", plan.target.base))
        .headers(headers)
        .json(&json!({"label": "loadtest"}))
        .send()
        .await
        .map_err(|e| format!("cannot get a token for {name}: {e}"))?;
    let status = answer.status();
    let text = answer.text().await.unwrap_or_default();
    let token = serde_json::from_str::<Value>(&text).ok();
    let token = token.as_ref().and_then(|v| v["token"].as_str());
    let Some(token) = token.filter(|_| status.is_success()) else {
        return Err(format!("cannot get a token for {name}: {status}: {text}"));
    };
    let mut headers = HeaderMap::new();
    headers.insert(AUTHORIZATION, header_value(&format!("Bearer {token}"))?);
    Ok(headers)
}

fn header_value(text: &str) -> Result<HeaderValue, String> {
    HeaderValue::from_str(text).map_err(|e| format!("bad header value: {e}"))
}

/// The session cookie's value among `Set-Cookie` headers.
fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers.get_all(SET_COOKIE).iter().find_map(|value| {
        let text = value.to_str().ok()?;
        let pair = text.split(';').next()?.trim();
        let value = pair.strip_prefix(SESSION_COOKIE)?.strip_prefix('=')?;
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// A game made by pairing: its id, each seat's token and account, how it went.
#[derive(Debug)]
pub struct Paired {
    /// The game's id.
    pub id: String,
    /// Each seat's token, in seat order.
    pub tokens: [String; 2],
    /// Each seat's account (an index into `accounts`), in seat order.
    pub seated: [usize; 2],
    /// What the pairing took and how the seeker's token came.
    pub note: PairingNote,
}

/// How one pairing went, counted by the slot that plays the game.
#[derive(Debug, Default)]
pub struct PairingNote {
    /// From posting the seek to both seats' tokens in hand.
    pub latency: Duration,
    /// The seeker's token came on its lobby socket (`started`), not from its game list.
    pub via_lobby: bool,
    /// `started` frames the lobby sockets should hear for this game (seats whose account
    /// has a socket open).
    pub started_expected: u64,
    /// The seeker had a lobby socket but its `started` frame did not come in time.
    pub late_started: Option<String>,
}

impl People {
    /// A request of `member` to `path`, signed in.
    fn request(&self, plan: &Plan, member: usize, method: Method, path: &str) -> RequestBuilder {
        plan.http
            .request(method, format!("{}{path}", plan.target.base))
            .headers(self.accounts[member].headers.clone())
    }

    /// Every seek this run posted, in order.
    pub fn posted(&self) -> Vec<String> {
        self.posted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The seeks this run could not withdraw.
    pub fn left_open(&self) -> Vec<String> {
        self.left_open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The two accounts of game number `number`: its seeker and its acceptor, never the same.
    fn pair_of(&self, number: u64) -> (usize, usize) {
        let k = self.accounts.len() as u64;
        let seeker = number % k;
        let acceptor = (seeker + 1 + (number / k) % (k - 1)) % k;
        (seeker as usize, acceptor as usize)
    }

    /// `POST /api/seeks` by `member` for `info`: the seek's id.
    pub async fn post_seek(
        &self,
        plan: &Plan,
        member: usize,
        info: &GameInfo,
    ) -> Result<String, String> {
        let mut body = json!({"game": info.id, "rated": self.rated});
        if info.options.iter().any(|o| o.name == "players") {
            body["options"] = json!({"players": 2});
        }
        let answer = send(
            self.request(plan, member, Method::POST, "/api/seeks")
                .json(&body),
        )
        .await
        .map_err(|e| format!("{} cannot post a seek: {e}", self.accounts[member].name))?;
        let id = answer["seek"]["id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if id.is_empty() {
            return Err(format!("expected a seek with its id, got {answer}"));
        }
        self.posted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(id.clone());
        Ok(id)
    }

    /// `DELETE /api/seeks/{id}` by `member`; a seek that could not be withdrawn is noted.
    pub async fn cancel_seek(&self, plan: &Plan, member: usize, id: &str) -> Result<(), String> {
        let path = format!("/api/seeks/{id}");
        let result = send(self.request(plan, member, Method::DELETE, &path)).await;
        if result.is_err() {
            self.left_open
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(id.to_string());
        }
        result
            .map(|_| ())
            .map_err(|e| format!("cannot withdraw seek {id}: {e}"))
    }

    /// Makes game number `number` by pairing (see the module's note).
    pub async fn pair(&self, plan: &Plan, number: u64) -> Result<Paired, Failure> {
        let (seeker, acceptor) = self.pair_of(number);
        let info = plan.games[(number % plan.games.len() as u64) as usize];
        let start = Instant::now();
        let permit = self.accounts[seeker].seeking.acquire().await;
        let seek = self
            .post_seek(plan, seeker, info)
            .await
            .map_err(|e| ("seek", e))?;
        let path = format!("/api/seeks/{seek}/accept");
        let accepted = send(
            self.request(plan, acceptor, Method::POST, &path)
                .json(&json!({})),
        )
        .await;
        let accepted = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                let _ = self.cancel_seek(plan, seeker, &seek).await;
                let name = &self.accounts[acceptor].name;
                return Err(("accept", format!("{name} cannot accept seek {seek}: {e}")));
            }
        };
        drop(permit);
        let id = accepted["game"].as_str().unwrap_or_default().to_string();
        let seat = accepted["seat"].as_u64().unwrap_or(0) as usize;
        let token = accepted["token"].as_str().unwrap_or_default().to_string();
        if id.is_empty() || !(1..=2).contains(&seat) || token.is_empty() {
            let message = format!("expected a game, a seat and a token, got {accepted}");
            return Err(("accept", message));
        }
        let listens = |member: usize| self.accounts[member].listening.load(Ordering::Relaxed);
        if listens(acceptor) {
            self.mailbox.ignore((id.clone(), seat));
        }
        let (seeker_token, mut note) = self.seeker_token(plan, seeker, &id, 3 - seat).await?;
        note.started_expected = u64::from(listens(seeker)) + u64::from(listens(acceptor));
        note.latency = start.elapsed();
        let (tokens, seated) = if seat == 1 {
            ([token, seeker_token], [acceptor, seeker])
        } else {
            ([seeker_token, token], [seeker, acceptor])
        };
        Ok(Paired {
            id,
            tokens,
            seated,
            note,
        })
    }

    /// The seeker's token (`member` in `seat` of game `id`): from its lobby socket's
    /// `started` frame if it has one open, else (or if the frame is late) from its game list.
    async fn seeker_token(
        &self,
        plan: &Plan,
        member: usize,
        id: &str,
        seat: usize,
    ) -> Result<(String, PairingNote), Failure> {
        let mut note = PairingNote::default();
        if self.accounts[member].listening.load(Ordering::Relaxed) {
            let key = (id.to_string(), seat);
            if let Some(token) = self.mailbox.wait(key, STARTED_TIMEOUT).await {
                note.via_lobby = true;
                return Ok((token, note));
            }
            note.late_started = Some(format!(
                "no `started` frame for game {id} on the lobby socket of {} within {STARTED_TIMEOUT:?}",
                self.accounts[member].name
            ));
        }
        let token = self
            .token_from_games(plan, member, id, seat)
            .await
            .map_err(|e| ("seat", e))?;
        Ok((token, note))
    }

    /// The token of `seat` of game `id` from `GET /api/account/games` of `member`.
    async fn token_from_games(
        &self,
        plan: &Plan,
        member: usize,
        id: &str,
        seat: usize,
    ) -> Result<String, String> {
        let name = &self.accounts[member].name;
        let games = send(self.request(plan, member, Method::GET, "/api/account/games"))
            .await
            .map_err(|e| format!("cannot list the games of {name}: {e}"))?;
        let found = games["games"].as_array().and_then(|games| {
            games
                .iter()
                .find(|g| g["id"] == id && g["seat"].as_u64() == Some(seat as u64))
        });
        found
            .and_then(|g| g["token"].as_str())
            .map(str::to_string)
            .ok_or_else(|| format!("game {id} seat {seat} is not among the games of {name}"))
    }

    /// Posts the background seeks: accounts K − S … K − 1 each post one.
    pub async fn post_background(&self, plan: &Plan, count: u64) -> anyhow::Result<()> {
        let k = self.accounts.len();
        let members: Vec<usize> = (k - count as usize..k).collect();
        let posted: Vec<_> = stream::iter(members)
            .map(|member| async move {
                let info = plan.games[member % plan.games.len()];
                (member, self.post_seek(plan, member, info).await)
            })
            .buffer_unordered(SIGNING_UP)
            .collect()
            .await;
        let mut background = self
            .background
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for (member, seek) in posted {
            background.push((member, seek.map_err(anyhow::Error::msg)?));
        }
        Ok(())
    }

    /// Withdraws the background seeks; the first failure, if any.
    pub async fn cancel_background(&self, plan: &Plan) -> Result<(), String> {
        let background = std::mem::take(
            &mut *self
                .background
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        let results: Vec<_> = stream::iter(background)
            .map(|(member, id)| async move { self.cancel_seek(plan, member, &id).await })
            .buffer_unordered(SIGNING_UP)
            .collect()
            .await;
        results.into_iter().collect()
    }
}

/// Sends a request; its JSON answer, or why it failed.
async fn send(request: RequestBuilder) -> Result<Value, String> {
    let answer = request.send().await.map_err(|e| e.to_string())?;
    let status = answer.status();
    let text = answer.text().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!("{status}: {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{e}: {text:.200}"))
}

/// The tokens of the `started` frames the lobby sockets hear, by game and seat, until the
/// seeker's slot takes its own; a frame no slot waits for (the acceptor's, who was answered
/// already) is dropped.
#[derive(Debug, Default)]
pub struct Mailbox {
    letters: Mutex<HashMap<(String, usize), Letter>>,
}

#[derive(Debug)]
enum Letter {
    /// The token came first.
    Arrived(String),
    /// A slot waits for it.
    Waiting(oneshot::Sender<String>),
    /// Nobody wants it.
    Ignored,
}

impl Mailbox {
    /// A `started` frame of `key` (game, seat) with its token.
    pub fn deliver(&self, key: (String, usize), token: String) {
        let mut letters = self.letters.lock().unwrap_or_else(PoisonError::into_inner);
        match letters.remove(&key) {
            Some(Letter::Waiting(sender)) => {
                let _ = sender.send(token);
            }
            Some(Letter::Ignored) => {}
            Some(Letter::Arrived(_)) | None => {
                letters.insert(key, Letter::Arrived(token));
            }
        }
    }

    /// Drops the frame of `key`, come or to come.
    fn ignore(&self, key: (String, usize)) {
        let mut letters = self.letters.lock().unwrap_or_else(PoisonError::into_inner);
        if letters.remove(&key).is_none() {
            letters.insert(key, Letter::Ignored);
        }
    }

    /// The token of `key`, once its frame came; `None` after `timeout`.
    async fn wait(&self, key: (String, usize), timeout: Duration) -> Option<String> {
        let receiver = {
            let mut letters = self.letters.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(Letter::Arrived(token)) = letters.remove(&key) {
                return Some(token);
            }
            let (sender, receiver) = oneshot::channel();
            letters.insert(key.clone(), Letter::Waiting(sender));
            receiver
        };
        let token = match tokio::time::timeout(timeout, receiver).await {
            Ok(Ok(token)) => Some(token),
            Ok(Err(_)) | Err(_) => None,
        };
        if token.is_none() {
            self.letters
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&key);
        }
        token
    }
}
