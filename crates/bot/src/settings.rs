//! `ludus-bot`'s arguments checked once, before anything connects: the server's address, the
//! token, the engine's command line (with `{game}` replaced per game), which challenges to
//! accept, the games the engine plays and the seeks to keep posted. A bad value is one line
//! naming the flag and what was expected.

use std::time::Duration;

use anyhow::{bail, Result};
use ludus_ai::arena::EngineSpec;
use serde_json::{json, Value};

use crate::args::{AcceptChallenges, BotArgs};
use ludus_engine::printable::printable;

/// The placeholder of `--engine` replaced by the game's id.
pub const GAME_PLACEHOLDER: &str = "{game}";

/// The move time in a game without a clock when `--movetime` is not given.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// What `ludus-bot` was asked to do, checked.
#[derive(Debug)]
pub struct Settings {
    /// `http://HOST:PORT`, without a trailing slash.
    pub server: String,
    /// The bot account's API token.
    pub token: String,
    /// The engine's program and arguments (`{game}` not yet replaced).
    pub engine: Vec<String>,
    /// Which challenges are accepted.
    pub accept: AcceptChallenges,
    /// The games the engine plays; empty: every game.
    pub games: Vec<String>,
    /// The seeks kept posted.
    pub seeks: Vec<SeekSpec>,
    /// Games played at once.
    pub max_games: usize,
    /// `--movetime`.
    pub movetime: Option<Duration>,
    /// `--json`.
    pub json: bool,
}

/// A `--seek`: a game and an optional clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekSpec {
    /// The game's id.
    pub game: String,
    /// The clock's initial time and increment, in milliseconds.
    pub clock: Option<(u64, u64)>,
}

impl SeekSpec {
    /// Parses `GAME` or `GAME:INITIAL+INC` (minutes, may be fractional; seconds).
    fn parse(text: &str) -> Result<SeekSpec> {
        let bad = |why: &str| {
            anyhow::anyhow!(
                "bad --seek '{}': {why}; expected GAME or GAME:INITIAL+INC (minutes + seconds, as GAME:5+3)",
                printable(text)
            )
        };
        let (game, clock) = match text.trim().split_once(':') {
            None => (text.trim(), None),
            Some((game, clock)) => (game, Some(clock)),
        };
        ludus_games::game_info(game).map_err(|e| bad(&e.to_string()))?;
        let clock = match clock {
            None => None,
            Some(clock) => {
                let (initial, increment) = clock
                    .split_once('+')
                    .ok_or_else(|| bad("no '+' in the clock"))?;
                let minutes: f64 = initial
                    .trim()
                    .parse()
                    .map_err(|_| bad("the initial time is not a number of minutes"))?;
                let seconds: u64 = increment
                    .trim()
                    .parse()
                    .map_err(|_| bad("the increment is not a whole number of seconds"))?;
                // A week at most, as the server's clocks.
                if !(minutes.is_finite() && minutes > 0.0 && minutes <= 7.0 * 24.0 * 60.0) {
                    bail!(bad("the initial time must be above 0 and at most a week"));
                }
                if seconds > 7 * 24 * 3600 {
                    bail!(bad("the increment must be at most a week"));
                }
                Some(((minutes * 60_000.0).round() as u64, seconds * 1000))
            }
        };
        Ok(SeekSpec {
            game: game.to_string(),
            clock,
        })
    }

    /// The body of `POST /api/seeks`.
    pub fn body(&self) -> Value {
        let mut body = json!({"game": self.game, "rated": false});
        if let Some((initial_ms, increment_ms)) = self.clock {
            body["clock"] = json!({"initial_ms": initial_ms, "increment_ms": increment_ms});
        }
        body
    }

    /// `GAME 5+3` or `GAME (no clock)`.
    pub fn label(&self) -> String {
        match self.clock {
            Some((initial, increment)) => format!(
                "{} {}+{}",
                self.game,
                initial as f64 / 60_000.0,
                increment / 1000
            ),
            None => format!("{} (no clock)", self.game),
        }
    }

    /// Whether a seek object of the server (`{"game","clock":{...}|null,...}`) is this one.
    pub fn matches(&self, seek: &Value) -> bool {
        let clock = match &seek["clock"] {
            Value::Null => None,
            clock => Some((
                clock["initial_ms"].as_u64().unwrap_or(0),
                clock["increment_ms"].as_u64().unwrap_or(0),
            )),
        };
        seek["game"].as_str() == Some(self.game.as_str()) && clock == self.clock
    }
}

impl Settings {
    /// Checks `args`.
    pub fn from_args(args: &BotArgs) -> Result<Settings> {
        let server = server_url(&args.server)?;
        let token = args.token.trim().to_string();
        if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
            bail!(
                "bad --token: expected the token POST /api/account/tokens answered (ludus_…), without spaces"
            );
        }
        let engine: Vec<String> = args.engine.split_whitespace().map(str::to_string).collect();
        if engine.is_empty() {
            bail!("bad --engine '': expected a command line such as \"ludus ugi {{game}}\"");
        }
        let mut games = Vec::new();
        for game in &args.games {
            let game = game.trim();
            ludus_games::game_info(game)
                .map_err(|e| anyhow::anyhow!("bad --games '{}': {e}", printable(game)))?;
            if !games.iter().any(|g| g == game) {
                games.push(game.to_string());
            }
        }
        let mut seeks = Vec::new();
        for text in &args.seek {
            let seek = SeekSpec::parse(text)?;
            if !games.is_empty() && !games.contains(&seek.game) {
                bail!(
                    "bad --seek '{}': {} is not one of --games ({})",
                    printable(text),
                    seek.game,
                    games.join(",")
                );
            }
            if !seeks.contains(&seek) {
                seeks.push(seek);
            }
        }
        Ok(Settings {
            server,
            token,
            engine,
            accept: args.accept_challenges,
            games,
            seeks,
            max_games: usize::try_from(args.max_games).unwrap_or(usize::MAX),
            movetime: args.movetime.map(Duration::from_millis),
            json: args.json,
        })
    }

    /// Whether the engine plays `game`.
    pub fn plays(&self, game: &str) -> bool {
        self.games.is_empty() || self.games.iter().any(|g| g == game)
    }

    /// Whether a challenge that is `rated` (or casual) is accepted.
    pub fn accepts(&self, rated: bool) -> bool {
        match self.accept {
            AcceptChallenges::Any => true,
            AcceptChallenges::Casual => !rated,
            AcceptChallenges::Rated => rated,
            AcceptChallenges::None => false,
        }
    }

    /// The engine's command line for a game of `game`, named after its program.
    pub fn engine_for(&self, game: &str) -> EngineSpec {
        let command: Vec<String> = self
            .engine
            .iter()
            .map(|word| word.replace(GAME_PLACEHOLDER, game))
            .collect();
        let program = std::path::Path::new(&command[0])
            .file_name()
            .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
        EngineSpec {
            name: format!("engine '{program}'"),
            command,
        }
    }

    /// A game the engine is started with to check it at start: the first of `--games`, or
    /// the first game of the registry.
    pub fn first_game(&self) -> &str {
        self.games
            .first()
            .map_or_else(|| ludus_games::GAMES[0].id, String::as_str)
    }
}

/// `http://HOST:PORT` from `--server`, without a trailing slash.
fn server_url(text: &str) -> Result<String> {
    let base = text.trim().trim_end_matches('/');
    if base.starts_with("https://") || base.starts_with("wss://") {
        bail!(
            "bad --server '{}': this build speaks plain http only; expected http://HOST:PORT (a TLS proxy in front of the server is reached through its http side)",
            printable(text)
        );
    }
    let host = base
        .strip_prefix("http://")
        .or_else(|| base.strip_prefix("ws://"));
    let good = host.is_some_and(|host| {
        !host.is_empty()
            && !host
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || "/?#@\\".contains(c))
    });
    match host {
        Some(host) if good => Ok(format!("http://{host}")),
        _ => bail!(
            "bad --server '{}': expected http://HOST:PORT",
            printable(text)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_urls_are_http_host_port() {
        assert_eq!(
            server_url("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(server_url("ws://h:1").unwrap(), "http://h:1");
        for bad in [
            "",
            "127.0.0.1:8080",
            "http://",
            "http://h/x",
            "ftp://h",
            "http://a b",
        ] {
            assert!(server_url(bad).is_err(), "{bad}");
        }
        let tls = server_url("https://h").unwrap_err().to_string();
        assert!(tls.contains("plain http"), "{tls}");
    }

    /// Three different game ids from the registry (no game is named outside its folder).
    fn ids() -> [&'static str; 3] {
        [
            ludus_games::GAMES[0].id,
            ludus_games::GAMES[1].id,
            ludus_games::GAMES[2].id,
        ]
    }

    #[test]
    fn seeks_name_a_game_and_a_clock_in_minutes_and_seconds() {
        let [a, b, c] = ids();
        let seek = SeekSpec::parse(&format!("{a}:5+3")).unwrap();
        assert_eq!(seek.clock, Some((300_000, 3000)));
        assert_eq!(seek.label(), format!("{a} 5+3"));
        assert_eq!(
            seek.body(),
            json!({"game":a,"rated":false,"clock":{"initial_ms":300_000,"increment_ms":3000}})
        );
        assert!(seek.matches(&json!({"game":a,"clock":{"initial_ms":300_000,"increment_ms":3000}})));
        assert!(!seek.matches(&json!({"game":a,"clock":null})));
        let plain = SeekSpec::parse(b).unwrap();
        assert_eq!(plain.clock, None);
        assert!(plain.matches(&json!({"game":b,"clock":null})));
        assert_eq!(
            SeekSpec::parse(&format!("{c}:0.5+0")).unwrap().clock,
            Some((30_000, 0))
        );
        let bad_ones = [
            "no-such-game".to_string(),
            format!("{a}:5"),
            format!("{a}:x+3"),
            format!("{a}:0+3"),
            format!("{a}:5+-1"),
            String::new(),
        ];
        for bad in bad_ones {
            assert!(SeekSpec::parse(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_engine_command_takes_the_game_id() {
        let [a, b, c] = ids();
        let args = BotArgs {
            server: "http://h:1".into(),
            token: "ludus_x".into(),
            engine: "/usr/bin/ludus ugi {game}".into(),
            accept_challenges: AcceptChallenges::Casual,
            games: vec![b.into(), a.into()],
            seek: vec![format!("{a}:1+0")],
            max_games: 2,
            movetime: None,
            json: false,
        };
        let settings = Settings::from_args(&args).unwrap();
        let spec = settings.engine_for(a);
        assert_eq!(spec.command, ["/usr/bin/ludus", "ugi", a]);
        assert_eq!(spec.name, "engine 'ludus'");
        assert_eq!(settings.first_game(), b);
        assert!(settings.plays(a) && !settings.plays(c));
        assert!(settings.accepts(false) && !settings.accepts(true));
        let wrong = BotArgs {
            seek: vec![c.into()],
            ..args
        };
        assert!(Settings::from_args(&wrong).is_err());
    }
}
