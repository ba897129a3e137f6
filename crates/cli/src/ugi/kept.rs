//! The agent `ludus ugi` keeps across the decisions of a game, so that its transposition
//! table and tree serve every move (a driver with a clock changes only its time limit), built
//! with the `Threads` and `Hash` options and allocated before the clock runs (`isready`,
//! `uginewgame`), never during a `go`.

use ludus_ai::{AgentKind, AgentSpec, AnyAgent, SearchBudget};

use super::search::with_params;
use ludus_tui::players::Player;

/// The transposition table the `Hash` option starts with, in MB as allocated (the agents'
/// `ttmb`).
pub const DEFAULT_HASH: usize = 16;

/// What an agent is built from besides its spec: the `Threads` and `Hash` options and the seed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Resources {
    /// Search threads (`Threads`), 1 by default: a tournament plays several games at once.
    pub threads: usize,
    /// Transposition table in MB (`Hash`).
    pub hash: usize,
    /// The agent's seed (`Seed`).
    pub seed: u64,
}

/// An agent kept between searches.
pub struct Kept {
    /// The spec and resources it was built for: a change of either builds a new one.
    pub key: String,
    /// The agent, with its tables.
    pub agent: Box<dyn AnyAgent>,
    /// The budget its spec gave it, restored for a `go` without limits.
    pub own: Option<SearchBudget>,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kept {}", self.key)
    }
}

/// The key under which an agent for `base` with `resources` is kept.
pub fn key(base: &AgentSpec, resources: Resources) -> String {
    format!(
        "{base} threads={} hash={} seed={}",
        resources.threads, resources.hash, resources.seed
    )
}

/// The specs to try for `base` with `resources`, the most complete first: an agent that takes
/// no `hash` (MCTS) or no `threads` (levels 1-3) is built without it. Level 5 always gets its
/// `threads`, or it would take every core, as the interactive app's level 5 does.
pub fn candidates(base: &AgentSpec, resources: Resources) -> Vec<AgentSpec> {
    let mut extra = Vec::new();
    if base.param("threads").is_none() && (resources.threads > 1 || base.kind == AgentKind::Best) {
        extra.push(("threads".to_string(), resources.threads.to_string()));
    }
    let threads_only = extra.clone();
    if base.param("hash").is_none() && base.param("ttmb").is_none() {
        extra.push(("ttmb".to_string(), resources.hash.to_string()));
    }
    let mut specs = vec![with_params(base, &extra), with_params(base, &threads_only)];
    if base.kind != AgentKind::Best {
        specs.push(base.clone());
    }
    specs.dedup();
    specs
}

/// Builds the agent for `base` and allocates its tables. Returns it with the options it could
/// not take (`Hash`, `Threads`), for an `info string`.
pub fn build(
    base: &AgentSpec,
    resources: Resources,
    game_id: &str,
) -> Result<(Kept, Vec<&'static str>), String> {
    let mut last_error = String::new();
    for spec in candidates(base, resources) {
        match Player::agent_as_typed(&spec, game_id, resources.seed) {
            Ok(mut agent) => {
                agent.prepare();
                let own = agent.budget_mut().map(|b| *b);
                let mut unused = Vec::new();
                if resources.hash != DEFAULT_HASH && spec.param("ttmb").is_none() {
                    unused.push("Hash");
                }
                if resources.threads > 1 && spec.param("threads").is_none() {
                    unused.push("Threads");
                }
                let key = key(base, resources);
                return Ok((Kept { key, agent, own }, unused));
            }
            Err(e) => last_error = format!("{e:#}"),
        }
    }
    Err(last_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: Resources = Resources {
        threads: 1,
        hash: DEFAULT_HASH,
        seed: 0,
    };

    fn texts(base: &str, resources: Resources) -> Vec<String> {
        candidates(&base.parse().unwrap(), resources)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn level_five_always_names_its_threads() {
        assert_eq!(
            texts("ai:5", ONE),
            ["ai:best:threads=1,ttmb=16", "ai:best:threads=1"]
        );
        let four = Resources { threads: 4, ..ONE };
        assert_eq!(
            texts("ai:1", four),
            [
                "ai:random:threads=4,ttmb=16",
                "ai:random:threads=4",
                "ai:random"
            ]
        );
        // What the spec says itself wins over the options.
        assert_eq!(
            texts("ai:4:threads=2,hash=1", four),
            ["ai:alphabeta:threads=2,hash=1"]
        );
    }

    #[test]
    fn every_game_builds_level_five_on_one_thread() {
        for info in ludus_games::GAMES {
            let (kept, unused) = build(&"ai:5".parse().unwrap(), ONE, info.id).unwrap();
            assert!(kept.agent.spec().contains("threads=1"), "{}", info.id);
            assert!(unused.is_empty(), "{}: {unused:?}", info.id);
            assert!(kept.own.is_some(), "{}", info.id);
        }
    }
}
