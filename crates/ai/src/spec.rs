//! Agent specs as typed on the command line: `human` is handled by callers; this reads
//! `ai:LEVEL` (1-5) and `ai:AGENT[:key=value,...]`.

use std::fmt;
use std::str::FromStr;

use crate::AgentError;

/// The kinds of computer player, by level.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AgentKind {
    /// Level 1: uniformly random.
    Random,
    /// Level 2: the original programs' greedy heuristic.
    Greedy,
    /// Level 3: plain minimax to depth 3.
    Minimax,
    /// Level 4: alpha-beta with iterative deepening.
    AlphaBeta,
    /// Level 5: the strongest configuration per game.
    Best,
    /// Monte Carlo tree search.
    Mcts,
}

impl AgentKind {
    const NAMES: [(&'static str, AgentKind); 6] = [
        ("random", AgentKind::Random),
        ("greedy", AgentKind::Greedy),
        ("minimax", AgentKind::Minimax),
        ("alphabeta", AgentKind::AlphaBeta),
        ("best", AgentKind::Best),
        ("mcts", AgentKind::Mcts),
    ];

    /// The agent of a level 1..=5.
    pub fn from_level(level: u8) -> Option<AgentKind> {
        Self::NAMES
            .get(usize::from(level).checked_sub(1)?)
            .map(|(_, k)| *k)
            .filter(|_| level <= 5)
    }

    /// The agent's name as typed.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(n, _)| n)
    }
}

/// A computer player's kind and parameters.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AgentSpec {
    /// Which agent.
    pub kind: AgentKind,
    /// `key=value` parameters (`time=0.5`, `depth=3`).
    pub params: Vec<(String, String)>,
}

impl AgentSpec {
    /// The value of parameter `key`, if given.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Level 5 (`ai:5`, `ai:best`) searching on every core of this machine unless the spec
    /// sets `threads`: how the terminal app and the server build the level people play.
    /// (`ludus arena` builds its players as typed, one thread each, since it already plays
    /// games in parallel.)
    #[must_use]
    pub fn on_every_core(mut self) -> AgentSpec {
        if self.kind == AgentKind::Best && self.param("threads").is_none() {
            let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
            self.params
                .push(("threads".into(), cores.min(crate::MAX_THREADS).to_string()));
        }
        self
    }

    /// The search threads the spec asks for (1 when it does not say, or says nonsense: the
    /// agent's own parameter check reports that).
    pub fn threads(&self) -> usize {
        self.param("threads")
            .and_then(|t| t.parse().ok())
            .unwrap_or(1)
            .clamp(1, crate::MAX_THREADS)
    }
}

impl FromStr for AgentSpec {
    type Err = AgentError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let syntax = || AgentError::Syntax(text.to_string());
        let rest = text.trim().strip_prefix("ai:").ok_or_else(syntax)?;
        let (name, params) = rest.split_once(':').unwrap_or((rest, ""));
        let kind = match name.parse::<u8>() {
            Ok(level) => AgentKind::from_level(level).ok_or_else(syntax)?,
            Err(_) => AgentKind::NAMES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, k)| *k)
                .ok_or_else(syntax)?,
        };
        let params = params
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(syntax)
            })
            .collect::<Result<_, _>>()?;
        Ok(AgentSpec { kind, params })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ai:{}", self.kind.name())?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_names_parse() {
        assert_eq!("ai:1".parse::<AgentSpec>().unwrap().kind, AgentKind::Random);
        assert_eq!(
            "ai:4".parse::<AgentSpec>().unwrap().kind,
            AgentKind::AlphaBeta
        );
        let spec: AgentSpec = "ai:mcts:time=0.5,c=1.4".parse().unwrap();
        assert_eq!(spec.kind, AgentKind::Mcts);
        assert_eq!(spec.param("time"), Some("0.5"));
        assert_eq!(spec.to_string(), "ai:mcts:time=0.5,c=1.4");
        for bad in ["ai:0", "ai:6", "ai:chess", "human", "ai:mcts:time"] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }
}
