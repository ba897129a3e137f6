//! The engine's state between commands: the rules options, the computer player's settings, the
//! current game and the search in flight. Every command is answered here; a bad one gets an
//! `info string error ...` line and changes nothing.

use ludus_ai::{AgentSpec, AnyAgent};
use ludus_engine::{AnyGame, OptionValues, Seat, Verdict};

use super::command::{echo, Command, GoLimits, Query};
use super::search::{budget_params, with_params, Running};
use super::Output;
use crate::players::Player;

/// The engine's options besides the rules options, as `ugi` lists them.
const ENGINE_OPTIONS: &[&str] = &[
    "option name Level type spin default 5 min 1 max 5",
    "option name Agent type string default <empty>",
    "option name AgentParams type string default <empty>",
    "option name Seed type spin default 0 min 0 max 4294967295",
];

/// A UGI engine for one game.
pub struct Engine {
    game_id: &'static str,
    rules: Vec<String>,
    level: u8,
    agent: Option<AgentSpec>,
    params: Vec<(String, String)>,
    seed: u64,
    game: AnyGame,
    /// The last agent, kept while the spec stays the same (its tables and tree carry over).
    agent_cache: Option<(String, Box<dyn AnyAgent>)>,
    search: Option<Running>,
    out: Output,
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
            game,
            agent_cache: None,
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
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => {
                self.agent_cache = None;
                self.reset_position(None, &[]);
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

    /// Stops the search in flight, if any, and keeps its agent.
    pub fn finish_search(&mut self) {
        if let Some(search) = self.search.take() {
            if let (spec, Some(agent)) = search.stop() {
                self.agent_cache = Some((spec, agent));
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
        for line in ENGINE_OPTIONS {
            self.out.line(line);
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
                "unknown option '{}': expected Level, Agent, AgentParams, Seed or {}",
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
        self.agent_cache = None;
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
    fn base_spec(&self) -> AgentSpec {
        let base = self.agent.clone().unwrap_or_else(|| AgentSpec {
            kind: ludus_ai::AgentKind::from_level(self.level).unwrap_or(ludus_ai::AgentKind::Best),
            params: Vec::new(),
        });
        with_params(&base, &self.params)
    }

    fn go(&mut self, limits: &GoLimits) {
        let Some(seat) = self.game.to_move() else {
            self.error("go: the game is over");
            return self.out.line("bestmove (none)");
        };
        let base = self.base_spec();
        let tries = budget_params(limits, seat.to_usize());
        let mut last_error = String::new();
        for params in &tries {
            let spec = with_params(&base, params).to_string();
            let agent = match self.agent_cache.take() {
                Some((cached, agent)) if cached == spec => Ok(agent),
                _ => Player::parse(&spec, self.game_id, self.seed).and_then(|p| match p {
                    Player::Computer(agent) => Ok(agent),
                    Player::Human => Err(anyhow::anyhow!("not a computer player")),
                }),
            };
            match agent {
                Ok(agent) => {
                    let dropped: Vec<&str> = tries[0]
                        .iter()
                        .filter(|(k, _)| !params.iter().any(|(used, _)| used == k))
                        .map(|(k, _)| k.as_str())
                        .collect();
                    if !dropped.is_empty() {
                        self.out.line(&format!(
                            "info string {base} takes no {} limit: searching as {spec}",
                            dropped.join(" or ")
                        ));
                    }
                    let game = self.game.clone();
                    self.search = Some(Running::start(
                        agent,
                        spec,
                        game,
                        limits.infinite,
                        self.out.clone(),
                    ));
                    return;
                }
                Err(e) => last_error = format!("{e:#}"),
            }
        }
        self.error(&format!("go: {last_error}"));
        self.out.line("bestmove (none)");
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
            Query::Position => self.game.position(),
        };
        self.out.line(&format!("response {answer}"));
    }
}
