//! `ludus-bot` against a real `ludus serve`: a bot account with an API token runs
//! `ludus ugi {game}` as its engine; a person challenges it and plays random legal moves
//! over HTTP until the game ends, which must end with an outcome after the bot's own legal
//! moves, the bot shown as a bot. A challenge for a game the bot does not play is declined
//! (the challenger's lobby socket hears it). The bot comes back after the server restarts
//! on the same address and database, and finishes the game it was playing.
//!
//! The server and the engine are the `ludus` binary in the same target folder:
//! `cargo test --workspace` builds it; alone, run `cargo build -p ludus` first.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "../../cli/tests/support/mod.rs"]
mod support;

use support::{host_of, ludus_bin, serve_with, Spawned};

const PASSWORD: &str = "correct horse battery";

/// `ludus serve` without an action limit on `addr` and `db`; its host.
fn serve(addr: &str, db: &Path) -> (Spawned, String) {
    let mut child = serve_with(addr, db, &["--actions-per-second", "0"]);
    let host = host_of(&mut child);
    // Its later output is drained: a full pipe would stop the server.
    let mut stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, host)
}

/// A request over HTTP/1.0 with `headers`: status, JSON body, and the session cookie set.
fn call(
    host: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &[(&str, String)],
) -> (u16, Value, Option<String>) {
    let mut stream = TcpStream::connect(host).expect("the server listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = body.map_or_else(String::new, Value::to_string);
    let mut head = format!(
        "{method} {path} HTTP/1.0\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.extend([*name, ": ", value, "\r\n"]);
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let (head, json) = answer.split_once("\r\n\r\n").unwrap();
    let cookie = head
        .lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .find(|c| c.starts_with("ludus_session="))
        .and_then(|c| c.split(';').next())
        .map(str::to_string);
    (
        status,
        serde_json::from_str(json).unwrap_or(Value::Null),
        cookie,
    )
}

/// A signed-in person (or bot account) of the page: its cookie, sent with the page's Origin.
struct Person {
    host: String,
    cookie: String,
}

impl Person {
    fn sign_up(host: &str, name: &str, bot: bool) -> Person {
        let body = json!({"name": name, "password": PASSWORD, "bot": bot});
        let (status, answer, cookie) = call(host, "POST", "/api/account/signup", Some(&body), &[]);
        assert_eq!(status, 201, "{answer}");
        Person {
            host: host.to_string(),
            cookie: cookie.expect("a session cookie"),
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let headers = [
            ("Cookie", self.cookie.clone()),
            ("Origin", format!("http://{}", self.host)),
        ];
        let (status, answer, _) = call(&self.host, method, path, body, &headers);
        (status, answer)
    }

    fn token(&self) -> String {
        let (status, answer) = self.call(
            "POST",
            "/api/account/tokens",
            Some(&json!({"label": "test"})),
        );
        assert_eq!(status, 201, "{answer}");
        answer["token"].as_str().unwrap().to_string()
    }

    fn challenge(&self, to: &str, game: &str) -> String {
        let body = json!({"to": to, "game": game});
        let (status, answer) = self.call("POST", "/api/challenges", Some(&body));
        assert_eq!(status, 201, "{answer}");
        answer["challenge"]["id"].as_str().unwrap().to_string()
    }

    /// The person's seat of a game in progress (its id, seat and token), waited for.
    fn seat_in_progress(&self, timeout: Duration) -> (String, u64, String) {
        let deadline = Instant::now() + timeout;
        loop {
            let (status, answer) = self.call("GET", "/api/account/games", None);
            assert_eq!(status, 200, "{answer}");
            if let Some(game) = answer["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["summary"]["outcome"].is_null())
            {
                return (
                    game["id"].as_str().unwrap().to_string(),
                    game["seat"].as_u64().unwrap(),
                    game["token"].as_str().unwrap().to_string(),
                );
            }
            assert!(Instant::now() < deadline, "no game started: {answer}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A running `ludus-bot`: its JSON events (stdout), its stderr lines; ended by SIGTERM when
/// dropped (so it ends its engines), killed if that did not end it, and reaped.
struct Bot {
    child: Spawned,
    events: Receiver<Value>,
    /// Events read and not yet waited for.
    pending: RefCell<Vec<Value>>,
    stderr: Receiver<String>,
}

impl Bot {
    fn start(host: &str, token: &str, extra: &[&str]) -> Bot {
        let engine = format!("{} ugi {{game}}", ludus_bin().display());
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus-bot"))
            .args(["--server", &format!("http://{host}"), "--token", token])
            .args(["--engine", &engine, "--movetime", "20", "--json"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map(Spawned)
            .expect("the binary runs");
        let (send, events) = channel();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let event = serde_json::from_str(&line)
                    .unwrap_or_else(|_| panic!("stdout holds JSON lines only: {line:?}"));
                if send.send(event).is_err() {
                    break;
                }
            }
        });
        let (send, stderr) = channel();
        let lines = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in lines.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Bot {
            child,
            events,
            pending: RefCell::new(Vec::new()),
            stderr,
        }
    }

    /// The first event with `"event": kind` not yet waited for (the others stay), within
    /// `timeout`.
    fn wait_event(&self, kind: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let mut pending = self.pending.borrow_mut();
            if let Some(i) = pending.iter().position(|e| e["event"] == kind) {
                return pending.remove(i);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => pending.push(event),
                Err(e) => panic!(
                    "no '{kind}' event: {e}; seen {pending:?}; stderr: {}",
                    self.stderr_so_far()
                ),
            }
        }
    }

    /// The events read and not waited for.
    fn other_events(&self) -> Vec<Value> {
        self.pending.borrow_mut().drain(..).collect()
    }

    /// A stderr line containing `text`, within `timeout`.
    fn wait_stderr(&self, text: &str, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) if line.contains(text) => return line,
                Ok(_) => {}
                Err(e) => panic!("no stderr line with '{text}': {e}"),
            }
        }
    }

    fn stderr_so_far(&self) -> String {
        self.stderr.try_iter().collect::<Vec<_>>().join("\n")
    }

    /// SIGTERM; the exit status.
    fn stop(&mut self) -> Option<i32> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.stop();
        }
    }
}

/// A small seeded generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays `seat` of game `id` with random legal moves until the game ends or `until` says
/// stop (given the snapshot); the last snapshot.
fn play_randomly(
    host: &str,
    id: &str,
    seat: u64,
    token: &str,
    rng: &mut Rng,
    until: &mut dyn FnMut(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let (status, snapshot, _) = call(host, "GET", &format!("/api/games/{id}"), None, &[]);
        assert_eq!(status, 200, "{snapshot}");
        if !snapshot["outcome"].is_null() || until(&snapshot) {
            return snapshot;
        }
        assert!(
            Instant::now() < deadline,
            "the game did not end: {snapshot}"
        );
        if snapshot["to_move"].as_u64() == Some(seat) {
            let legal = snapshot["legal"].as_array().unwrap();
            let choice = &legal[rng.below(legal.len())];
            let body = json!({"token": token, "move": choice, "seq": snapshot["seq"]});
            let (status, answer, _) = call(
                host,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&body),
                &[],
            );
            assert!(matches!(status, 200 | 409), "{status} {answer}");
        } else {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The decisions of `seat` in the game's history.
fn turns_of(snapshot: &Value, seat: u64) -> usize {
    snapshot["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["seat"].as_u64() == Some(seat))
        .count()
}

#[test]
fn a_bot_accepts_a_challenge_and_plays_it_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, host) = serve("127.0.0.1:0", &dir.path().join("games.sqlite3"));
    let account = Person::sign_up(&host, "enginebot", true);
    let mut bot = Bot::start(&host, &account.token(), &[]);
    let connected = bot.wait_event("connected", Duration::from_secs(30));
    assert_eq!(connected["name"], "enginebot");
    assert_eq!(connected["bot"], true);

    let ana = Person::sign_up(&host, "ana", false);
    let challenge = ana.challenge("enginebot", "qawale");
    let accepted = bot.wait_event("challenge", Duration::from_secs(30));
    assert_eq!(accepted["id"], challenge.as_str());
    assert_eq!(accepted["accepted"], true, "{accepted}");
    let (id, seat, token) = ana.seat_in_progress(Duration::from_secs(30));
    let started = bot.wait_event("started", Duration::from_secs(30));
    assert_eq!(started["game"], id.as_str());
    assert_eq!(started["opponents"], json!(["ana"]));
    let bot_seat = started["seat"].as_u64().unwrap();
    assert_ne!(bot_seat, seat);

    let end = play_randomly(&host, &id, seat, &token, &mut Rng(7), &mut |_| false);
    assert!(end["outcome"].is_object(), "{end}");
    assert!(turns_of(&end, bot_seat) > 0, "the bot moved: {end}");
    let bots_seat = &end["seats"][bot_seat as usize - 1];
    assert_eq!(bots_seat["account"]["name"], "enginebot", "{bots_seat}");
    assert_eq!(bots_seat["account"]["bot"], true, "{bots_seat}");

    let over = bot.wait_event("over", Duration::from_secs(30));
    assert_eq!(over["game"], id.as_str());
    let expected = match end["outcome"]["winner"].as_u64() {
        None => "draw",
        Some(w) if w == bot_seat => "win",
        Some(_) => "loss",
    };
    assert_eq!(over["result"], expected, "{over}");
    let events = bot.other_events();
    let moves = events.iter().filter(|e| e["event"] == "move").count();
    // One event per decision: at least one per turn of the bot's.
    assert!(
        moves > 0 && moves >= turns_of(&end, bot_seat),
        "move events: {events:?}"
    );

    let (status, player, _) = call(&host, "GET", "/api/players/enginebot", None, &[]);
    assert_eq!(status, 200, "{player}");
    assert_eq!(player["bot"], true, "{player}");

    assert_eq!(
        bot.stop(),
        Some(143),
        "SIGTERM ends the bot as the signal would"
    );
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn a_position_of_several_lines_reaches_the_engine_on_one_line() {
    // Splut!'s position string spans lines: sent as they are, the engine would read the
    // second line as a command and the bot would resign its game.
    let dir = tempfile::tempdir().unwrap();
    let (mut server, host) = serve("127.0.0.1:0", &dir.path().join("games.sqlite3"));
    let account = Person::sign_up(&host, "splutbot", true);
    let bot = Bot::start(&host, &account.token(), &[]);
    bot.wait_event("connected", Duration::from_secs(30));
    let ana = Person::sign_up(&host, "ana", false);
    ana.challenge("splutbot", "splut");
    let (id, seat, token) = ana.seat_in_progress(Duration::from_secs(30));
    let bot_seat = bot.wait_event("started", Duration::from_secs(30))["seat"]
        .as_u64()
        .unwrap();
    let mut until = |s: &Value| turns_of(s, bot_seat) >= 4;
    let end = play_randomly(&host, &id, seat, &token, &mut Rng(3), &mut until);
    let resigned = end["history"].to_string().contains("resign");
    let played = turns_of(&end, bot_seat) >= 4 || end["outcome"].is_object();
    assert!(played && !resigned, "{end}");
    drop(bot);
    let _ = server.kill();
    let _ = server.wait();
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // The fields after the command name (which may hold spaces): state, then the parent.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        if fields.get(1) == Some(&pid.to_string().as_str()) && fields[0] != "Z" {
            found.push(child);
        }
    }
    found
}

/// Whether process `pid` runs (a zombie counts as ended).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| !stat.rsplit(')').next().unwrap().trim().starts_with('Z'))
}

#[test]
fn sigterm_ends_the_engines_of_games_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, host) = serve("127.0.0.1:0", &dir.path().join("games.sqlite3"));
    let account = Person::sign_up(&host, "quitterbot", true);
    let mut bot = Bot::start(&host, &account.token(), &[]);
    bot.wait_event("connected", Duration::from_secs(30));
    let ana = Person::sign_up(&host, "ana", false);
    ana.challenge("quitterbot", "qawale");
    let (id, seat, token) = ana.seat_in_progress(Duration::from_secs(30));
    // Played until the bot made a decision: its engine runs, waiting for the next one.
    play_randomly(&host, &id, seat, &token, &mut Rng(5), &mut |s| {
        s["history"]
            .as_array()
            .is_some_and(|h| h.iter().any(|t| t["seat"].as_u64() != Some(seat)))
    });
    let engines = children(bot.child.id());
    assert!(!engines.is_empty(), "the bot runs its engine");
    assert_eq!(bot.stop(), Some(143));
    let deadline = Instant::now() + Duration::from_secs(10);
    while engines.iter().any(|&pid| running(pid)) {
        assert!(
            Instant::now() < deadline,
            "engines left running: {engines:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn a_challenge_for_a_game_the_bot_does_not_play_is_declined() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::{self as ws, Message};

    let dir = tempfile::tempdir().unwrap();
    let (mut server, host) = serve("127.0.0.1:0", &dir.path().join("games.sqlite3"));
    let account = Person::sign_up(&host, "qawalebot", true);
    let bot = Bot::start(&host, &account.token(), &["--games", "qawale"]);
    bot.wait_event("connected", Duration::from_secs(30));

    let ana = Person::sign_up(&host, "ana", false);
    let mut request = format!("ws://{host}/api/lobby/ws")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Cookie", ana.cookie.parse().unwrap());
    request
        .headers_mut()
        .insert("Origin", format!("http://{host}").parse().unwrap());
    let stream = TcpStream::connect(&host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (mut lobby, _) = ws::client(request, stream).expect("the lobby socket opens");

    let challenge = ana.challenge("qawalebot", "yoxii");
    let declined = bot.wait_event("challenge", Duration::from_secs(30));
    assert_eq!(declined["id"], challenge.as_str());
    assert_eq!(declined["accepted"], false);
    assert!(
        declined["reason"].as_str().unwrap().contains("yoxii"),
        "{declined}"
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "no challenge_declined frame");
        let Message::Text(text) = lobby.read().expect("the lobby socket stays open") else {
            continue;
        };
        let frame: Value = serde_json::from_str(&text).unwrap();
        if frame["type"] == "challenge_declined" {
            assert_eq!(frame["id"], challenge.as_str(), "{frame}");
            break;
        }
    }
    let (_, listed) = ana.call("GET", "/api/challenges", None);
    assert_eq!(listed["outgoing"], json!([]), "{listed}");
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn the_bot_comes_back_after_a_server_restart_and_finishes_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (mut server, host) = serve("127.0.0.1:0", &db);
    let account = Person::sign_up(&host, "steadybot", true);
    let bot = Bot::start(&host, &account.token(), &[]);
    bot.wait_event("connected", Duration::from_secs(30));
    let ana = Person::sign_up(&host, "ana", false);
    ana.challenge("steadybot", "qawale");
    let (id, seat, token) = ana.seat_in_progress(Duration::from_secs(30));
    bot.wait_event("started", Duration::from_secs(30));

    // A few turns, then the server stops and starts again on the same address and database.
    let mid = play_randomly(&host, &id, seat, &token, &mut Rng(11), &mut |s| {
        s["history"].as_array().is_some_and(|h| h.len() >= 4)
    });
    assert!(mid["outcome"].is_null(), "the game goes on: {mid}");
    server.kill().unwrap();
    server.wait().unwrap();
    bot.wait_stderr("reconnecting", Duration::from_secs(30));
    let deadline = Instant::now() + Duration::from_secs(30);
    let (mut server, again) = loop {
        let (mut child, host) = {
            let child = serve_with(&host, &db, &["--actions-per-second", "0"]);
            let mut child = child;
            let mut first = String::new();
            BufReader::new(child.stdout.take().unwrap())
                .read_line(&mut first)
                .unwrap();
            (child, first)
        };
        if host.starts_with("http://") {
            let mut stderr = child.stderr.take().unwrap();
            std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
            break (child, host);
        }
        let _ = child.wait();
        assert!(Instant::now() < deadline, "the address stays taken");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(again.trim(), format!("http://{host}/"));
    // The game is resumed: the bot plays it to its end and hears its end on the game's
    // socket opened again.
    let end = play_randomly(&host, &id, seat, &token, &mut Rng(13), &mut |_| false);
    assert!(end["outcome"].is_object(), "{end}");
    let over = bot.wait_event("over", Duration::from_secs(60));
    assert_eq!(over["game"], id.as_str());
    let _ = server.kill();
    let _ = server.wait();
}
