//! The engine's state between commands: the rules options, the computer player's settings, the
//! current game and the search in flight. Every command is answered here; a bad one gets an
//! `info string error ...` line and changes nothing.

use ludus_ai::AgentSpec;
use ludus_engine::{AnyGame, OptionValues, Seat, Verdict};

use super::command::{echo, Command, Query};
use super::kept::{self, Kept, Resources, DEFAULT_HASH};
use super::search::{with_params, Running};
use super::Output;
use ludus_tui::players::Player;

/// The engine's options besides the rules options, as `ugi` lists them.
fn engine_options() -> [String; 7] {
    [
        "option name Level type spin default 5 min 1 max 5".to_string(),
        "option name Agent type string default <empty>".to_string(),
        "option name AgentParams type string default <empty>".to_string(),
        "option name Seed type spin default 0 min 0 max 4294967295".to_string(),
        format!(
            "option name Threads type spin default 1 min 1 max {}",
            ludus_ai::MAX_THREADS
        ),
        format!(
            "option name Hash type spin default {DEFAULT_HASH} min 0 max {}",
            ludus_ai::MAX_HASH_MEGABYTES
        ),
        format!(
            "option name MoveOverhead type spin default {DEFAULT_OVERHEAD} min 0 max {MAX_OVERHEAD}"
        ),
    ]
}

/// The milliseconds `MoveOverhead` starts with: what a driver loses between our `bestmove`
/// and its clock stopping (pipes, scheduling on a busy machine).
pub const DEFAULT_OVERHEAD: u64 = 20;
const MAX_OVERHEAD: u64 = 10_000;

/// A UGI engine for one game.
pub struct Engine {
    pub(super) game_id: &'static str,
    rules: Vec<String>,
    level: u8,
    agent: Option<AgentSpec>,
    params: Vec<(String, String)>,
    seed: u64,
    threads: usize,
    hash: usize,
    /// `MoveOverhead`, in milliseconds.
    pub(super) overhead: u64,
    pub(super) game: AnyGame,
    /// The agent of this game, kept across its decisions (its tables and tree carry over).
    pub(super) kept: Option<Kept>,
    /// While the kept agent searches: its key and own budget, to keep it again afterwards.
    pub(super) lent: Option<(String, Option<ludus_ai::SearchBudget>)>,
    pub(super) search: Option<Running>,
    pub(super) out: Output,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ugi engine for {}", self.game_id)
    }
}

impl Engine {
    /// An engine for the start position of `game`.
    pub fn new(game: AnyGame, rules: Vec<String>, agent: Option<AgentSpec>, out: Output) -> Engine {
        Engine {
            game_id: game.info().id,
            rules,
            level: 5,
            agent,
            params: Vec::new(),
            seed: 0,
            threads: 1,
            hash: DEFAULT_HASH,
            overhead: DEFAULT_OVERHEAD,
            game,
            kept: None,
            lent: None,
            search: None,
            out,
        }
    }

    /// Answers one command. Returns false after `quit`.
    pub fn handle(&mut self, command: Command) -> bool {
        if !matches!(
            command,
            Command::IsReady | Command::Query(_) | Command::Ugi | Command::Stop
        ) {
            self.finish_search();
        }
        match command {
            Command::Ugi => self.identify(),
            Command::IsReady => {
                // Off the clock: the agent and its table are made now, not in the next `go`.
                if self.search.is_none() {
                    self.keep_agent();
                }
                self.out.line("readyok");
            }
            Command::NewGame => {
                // A fresh agent: nothing learnt in the last game, and the same choices
                // for the same seed.
                self.kept = None;
                self.reset_position(None, &[]);
                self.keep_agent();
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Position { fen, moves } => self.reset_position(fen.as_deref(), &moves),
            Command::Go(limits) => self.go(&limits),
            Command::Stop => self.finish_search(),
            Command::Query(query) => self.query(query),
            Command::Quit => {
                self.finish_search();
                return false;
            }
        }
        true
    }

    /// Reports a line that is not a command.
    pub fn error(&self, message: &str) {
        self.out.line(&format!("info string error {message}"));
    }

    /// Stops the search in flight, if any, and keeps its agent if it is the game's.
    pub fn finish_search(&mut self) {
        if let Some(search) = self.search.take() {
            let lent = self.lent.take();
            if let (_, Some(agent)) = search.stop() {
                if let Some((key, own)) = lent {
                    self.kept = Some(Kept { key, agent, own });
                }
            } else {
                // The search thread failed before its bestmove: the driver still needs one.
                self.error("the search failed");
                self.out.line("bestmove (none)");
            }
        }
    }

    fn identify(&self) {
        let info = self.game.info();
        self.out.line(&format!(
            "id name Ludus {} ({})",
            env!("CARGO_PKG_VERSION"),
            info.name
        ));
        self.out.line("id author the Ludus authors");
        for line in engine_options() {
            self.out.line(&line);
        }
        let defaults = ludus_games::new_game(info.id, &[], None, 0)
            .map(|g| g.options())
            .unwrap_or_default();
        for option in info.options {
            let default = defaults
                .iter()
                .find(|(k, _)| k == option.name)
                .map_or("", |(_, v)| v.as_str());
            let kind = match option.values {
                OptionValues::Flag => format!("type check default {default}"),
                OptionValues::Choice(words) => {
                    let vars: Vec<String> = words.iter().map(|w| format!("var {w}")).collect();
                    format!("type combo default {default} {}", vars.join(" "))
                }
                OptionValues::Range { min, max, .. } => {
                    format!("type spin default {default} min {min} max {max}")
                }
            };
            self.out
                .line(&format!("option name {} {kind}", option.name));
        }
        self.out.line("ugiok");
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let result = match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<u8>() {
                Ok(level @ 1..=5) => {
                    self.level = level;
                    Ok(())
                }
                _ => Err(format!("bad Level '{}': expected 1 to 5", echo(value))),
            },
            "agent" if value.is_empty() || value == "<empty>" => {
                self.agent = None;
                Ok(())
            }
            "agent" => self.set_agent(value),
            "agentparams" => self.set_params(value),
            "seed" => value
                .parse::<u32>()
                .map(|seed| self.seed = u64::from(seed))
                .map_err(|_| format!("bad Seed '{}': expected 0 to 4294967295", echo(value))),
            "threads" => spin("Threads", value, 1, ludus_ai::MAX_THREADS as u64)
                .map(|n| self.threads = n as usize),
            "hash" => spin("Hash", value, 0, ludus_ai::MAX_HASH_MEGABYTES as u64)
                .map(|n| self.hash = n as usize),
            "moveoverhead" | "move overhead" => {
                spin("MoveOverhead", value, 0, MAX_OVERHEAD).map(|n| self.overhead = n)
            }
            _ => self.set_rule(name, value),
        };
        if let Err(message) = result {
            self.error(&format!("setoption: {message}"));
        }
    }

    fn set_agent(&mut self, value: &str) -> Result<(), String> {
        let spec: AgentSpec = value.parse().map_err(|e| format!("{e}"))?;
        Player::parse(&spec.to_string(), self.game_id, self.seed).map_err(|e| format!("{e:#}"))?;
        self.agent = Some(spec);
        Ok(())
    }

    fn set_params(&mut self, value: &str) -> Result<(), String> {
        let text = format!("ai:random:{}", value.replace(' ', ","));
        let params = if value.trim().is_empty() || value == "<empty>" {
            Vec::new()
        } else {
            text.parse::<AgentSpec>()
                .map_err(|_| format!("bad AgentParams '{}': expected key=value,...", echo(value)))?
                .params
        };
        let spec = with_params(&self.base_spec(), &params);
        Player::parse(&spec.to_string(), self.game_id, self.seed).map_err(|e| format!("{e:#}"))?;
        self.params = params;
        Ok(())
    }

    fn set_rule(&mut self, name: &str, value: &str) -> Result<(), String> {
        let info = self.game.info();
        let Some(option) = info
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
        else {
            let names: Vec<&str> = info.options.iter().map(|o| o.name).collect();
            return Err(format!(
                "unknown option '{}': expected Level, Agent, AgentParams, Seed, Threads, Hash, \
                 MoveOverhead or {}",
                echo(name),
                names.join(", ")
            ));
        };
        let mut rules: Vec<String> = self
            .rules
            .iter()
            .filter(|r| r.split('=').next() != Some(option.name))
            .cloned()
            .collect();
        rules.push(format!("{}={value}", option.name));
        let game =
            ludus_games::new_game(info.id, &rules, None, self.seed).map_err(|e| e.to_string())?;
        self.rules = rules;
        self.game = game;
        self.kept = None;
        Ok(())
    }

    /// Sets the position; on any error the previous position stays.
    fn reset_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut game = match ludus_games::new_game(self.game_id, &self.rules, fen, self.seed) {
            Ok(game) => game,
            Err(e) => return self.error(&format!("position: {e}")),
        };
        for (i, word) in moves.iter().enumerate() {
            if let Err(e) = game.play(word) {
                return self.error(&format!(
                    "position: move {} '{}': {e}; the position is unchanged",
                    i + 1,
                    echo(word)
                ));
            }
        }
        self.game = game;
    }

    /// The agent the options describe, before a `go` adds its limits.
    pub(super) fn base_spec(&self) -> AgentSpec {
        let base = self.agent.clone().unwrap_or_else(|| AgentSpec {
            kind: ludus_ai::AgentKind::from_level(self.level).unwrap_or(ludus_ai::AgentKind::Best),
            params: Vec::new(),
        });
        with_params(&base, &self.params)
    }

    /// The resources the options give an agent.
    pub(super) fn resources(&self) -> Resources {
        Resources {
            threads: self.threads,
            hash: self.hash,
            seed: self.seed,
        }
    }

    /// Makes the game's agent if the options changed since it was made (or none is kept),
    /// and allocates its tables. An error is said once, in an `info string`.
    pub(super) fn keep_agent(&mut self) {
        let base = self.base_spec();
        let key = kept::key(&base, self.resources());
        if self.kept.as_ref().is_some_and(|k| k.key == key) {
            return;
        }
        self.kept = None;
        match kept::build(&base, self.resources(), self.game_id) {
            Ok((agent, unused)) => {
                if !unused.is_empty() {
                    self.out.line(&format!(
                        "info string {} takes no {}: not used",
                        agent.agent.spec(),
                        unused.join(" or ")
                    ));
                }
                self.kept = Some(agent);
            }
            Err(e) => self.error(&e),
        }
    }

    fn query(&self, query: Query) {
        let answer = match query {
            Query::GameOver => self.game.outcome().is_some().to_string(),
            Query::Turn(seat) => (self.game.to_move() == Some(Seat::new(seat as u8))).to_string(),
            Query::Result => match self.game.outcome().map(|o| o.verdict) {
                None => "none".to_string(),
                Some(Verdict::Draw) => "draw".to_string(),
                Some(Verdict::Win(seat)) => format!("p{}win", seat.number()),
            },
            Query::Moves => {
                let moves: Vec<String> = self
                    .game
                    .legal_moves()
                    .into_iter()
                    .map(|m| m.notation)
                    .collect();
                if moves.is_empty() {
                    "(none)".to_string()
                } else {
                    moves.join(" ")
                }
            }
            Query::Position => self.game.position_line(),
        };
        self.out.line(&format!("response {answer}"));
    }
}

/// A `spin` option's value within `min..=max`.
fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "bad {name} '{}': expected {min} to {max}",
            echo(value)
        )),
    }
}
