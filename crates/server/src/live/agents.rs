//! Computer players for the server, built through the registry as the terminal app builds them.
//!
//! Level 5 searches on every core unless its spec sets `threads` (never on more threads than
//! the server has search slots). A seat keeps only the spec and a seed; the agent is built for
//! each search on the worker thread. A level-4 agent holds a 16 MB transposition table, so keeping one per idle game
//! would cost the server gigabytes at ten thousand games; a fresh agent per decision costs a
//! few milliseconds against budgets of a second.
//!
//! What a spec may buy is capped by the server ([`Caps`]): a new game whose spec asks for more
//! memory or threads is refused with the cap; specs already held (games loaded at start, from
//! servers with other caps) are clamped to the caps when their agent is built.

use ludus_ai::{build_agent, erase, AgentError, AgentKind, AgentSpec, AnyAgent};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

use crate::Config;

/// MCTS tree nodes counted per MiB of the memory cap (about 64 bytes a node).
const TREE_NODES_PER_MB: usize = 1 << 14;

/// What one search may use on this server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The most memory for a table or a tree, in MiB (`Config::max_hash_mb`).
    pub hash_mb: usize,
    /// The most threads: the search slots (`Config::search_threads`).
    pub threads: usize,
}

impl Caps {
    /// The caps `config` sets.
    pub fn of(config: &Config) -> Caps {
        Caps {
            hash_mb: config.max_hash_mb,
            threads: config.search_threads.max(1),
        }
    }

    fn tree_nodes(self) -> usize {
        self.hash_mb.saturating_mul(TREE_NODES_PER_MB).max(1)
    }

    /// Refuses a spec that asks for more than the caps, naming the cap (a spec that does not
    /// parse is left to the agent's own check, which says what is wrong with it).
    pub fn check(self, spec: &str) -> Result<(), OverCap> {
        let Ok(spec) = spec.parse::<AgentSpec>() else {
            return Ok(());
        };
        let number = |key| spec.param(key).and_then(|v| v.trim().parse::<u64>().ok());
        let over = |key, cap: usize| number(key).filter(|n| *n > cap as u64);
        if let Some(asked) = over("hash", self.hash_mb) {
            return Err(OverCap::Hash {
                asked,
                cap: self.hash_mb,
            });
        }
        if let Some(asked) = over("tree", self.tree_nodes()) {
            return Err(OverCap::Tree {
                asked,
                cap: self.tree_nodes(),
                hash_mb: self.hash_mb,
            });
        }
        if let Some(asked) = over("threads", self.threads) {
            return Err(OverCap::Threads {
                asked,
                cap: self.threads,
            });
        }
        Ok(())
    }

    /// `spec` with whatever it asks above the caps lowered to them.
    fn clamp(self, mut spec: AgentSpec) -> AgentSpec {
        let caps = [
            ("hash", self.hash_mb),
            ("tree", self.tree_nodes()),
            ("threads", self.threads),
        ];
        for (key, value) in &mut spec.params {
            let cap = caps.iter().find(|(k, _)| k == key).map(|(_, cap)| *cap);
            if let (Some(cap), Ok(n)) = (cap, value.trim().parse::<u64>()) {
                if n > cap as u64 {
                    *value = cap.to_string();
                }
            }
        }
        spec
    }
}

/// A computer player's spec that asks for more than this server's caps, naming the cap.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OverCap {
    /// A transposition table bigger than `max_hash_mb`.
    #[error(
        "hash={asked} MiB is over this server's cap: expected hash at most {cap} (max_hash_mb)"
    )]
    Hash {
        /// The MiB asked.
        asked: u64,
        /// The cap.
        cap: usize,
    },
    /// A search tree bigger than `max_hash_mb` holds.
    #[error(
        "tree={asked} nodes is over this server's cap: expected tree at most {cap} ({hash_mb} MiB at 64 bytes a node, max_hash_mb)"
    )]
    Tree {
        /// The nodes asked.
        asked: u64,
        /// The cap in nodes.
        cap: usize,
        /// The cap in MiB it comes from.
        hash_mb: usize,
    },
    /// More threads than the server's search slots.
    #[error("threads={asked} is over this server's search slots: expected threads at most {cap}")]
    Threads {
        /// The threads asked.
        asked: u64,
        /// The cap.
        cap: usize,
    },
}

/// Why a computer player could not be made or asked for.
#[derive(Debug, thiserror::Error)]
pub enum ComputerError {
    /// The spec does not build an agent (its own message says why).
    #[error(transparent)]
    Spec(#[from] AgentError),
    /// The game is not in this build.
    #[error(transparent)]
    Game(#[from] ludus_games::UnknownGame),
    /// The spec asks for more than the caps.
    #[error(transparent)]
    OverCap(#[from] OverCap),
}

/// The computer player of a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Computer {
    /// The game it plays.
    pub game_id: &'static str,
    /// Its spec (`ai:3`, `ai:4:depth=1`).
    pub spec: String,
    /// Its seed; each decision mixes in the number of decisions played.
    pub seed: u64,
}

impl Computer {
    /// A checked computer player: the spec must build an agent for the game.
    pub fn new(game_id: &'static str, spec: &str, seed: u64) -> Result<Computer, ComputerError> {
        let computer = Computer {
            game_id,
            spec: spec.trim().to_string(),
            seed,
        };
        // Checked within the smallest caps: a stored or asked spec is validated without
        // allocating the table it asks for (a held `hash=1024` would cost 1 GiB here).
        computer.build_within(
            0,
            Caps {
                hash_mb: 1,
                threads: 1,
            },
        )?;
        Ok(computer)
    }

    /// The agent for the decision after `played` decisions.
    pub fn build(&self, played: usize) -> Result<Box<dyn AnyAgent>, ComputerError> {
        build(self.game_id, &self.spec, self.seed ^ (played as u64) << 20)
    }

    /// The agent for the decision after `played` decisions, within `caps`.
    pub fn build_within(
        &self,
        played: usize,
        caps: Caps,
    ) -> Result<Box<dyn AnyAgent>, ComputerError> {
        build_capped(
            self.game_id,
            &self.spec,
            self.seed ^ (played as u64) << 20,
            Some(caps),
        )
    }

    /// Whether it decides without searching deeply (levels 1 and 2: random and greedy), so
    /// its decisions run at once, without waiting for a search slot.
    pub fn is_cheap(&self) -> bool {
        self.spec
            .parse::<AgentSpec>()
            .is_ok_and(|spec| matches!(spec.kind, AgentKind::Random | AgentKind::Greedy))
    }

    /// The threads its search uses: level 5 takes every core unless its spec says otherwise.
    pub fn threads(&self) -> usize {
        self.spec
            .parse::<AgentSpec>()
            .map_or(1, |spec| spec.on_every_core().threads())
    }
}

/// The agent `spec` for the game `game_id`.
pub fn build(game_id: &str, spec: &str, seed: u64) -> Result<Box<dyn AnyAgent>, ComputerError> {
    build_capped(game_id, spec, seed, None)
}

/// The agent `spec` for the game `game_id`, within `caps` if given.
fn build_capped(
    game_id: &str,
    spec: &str,
    seed: u64,
    caps: Option<Caps>,
) -> Result<Box<dyn AnyAgent>, ComputerError> {
    struct Make<'a> {
        spec: &'a AgentSpec,
        seed: u64,
    }
    impl GameVisitor for Make<'_> {
        type Output = Result<Box<dyn AnyAgent>, AgentError>;
        fn visit<G: Game + Heuristic>(self) -> Self::Output {
            build_agent::<G>(self.spec, self.seed).map(erase)
        }
    }
    // Level 5 searches on every core, as in the terminal app (the search slots count its
    // threads: `computer::run`).
    let parsed = spec.parse::<AgentSpec>()?.on_every_core();
    let parsed = match caps {
        Some(caps) => caps.clamp(parsed),
        None => parsed,
    };
    Ok(dispatch(
        game_id,
        Make {
            spec: &parsed,
            seed,
        },
    )??)
}

/// How people call a computer player: `Level 3` for `ai:3`, else its spec.
pub fn label(spec: &str) -> String {
    match spec.trim().strip_prefix("ai:").map(str::parse::<u8>) {
        Some(Ok(level)) => format!("Level {level}"),
        _ => spec.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_five_searches_on_every_core_unless_its_spec_says_otherwise() {
        let cores = std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(ludus_ai::MAX_THREADS);
        for game in ludus_games::GAMES.iter().map(|info| info.id) {
            let five = Computer::new(game, "ai:5", 1).unwrap();
            assert_eq!(five.threads(), cores, "{game}");
            let built = five.build(3).unwrap().spec();
            assert!(built.contains(&format!("threads={cores}")), "{built}");
            let told = Computer::new(game, "ai:5:threads=1", 1).unwrap();
            assert_eq!(told.threads(), 1, "{game}");
            let four = Computer::new(game, "ai:4", 1).unwrap();
            assert_eq!(four.threads(), 1, "{game}");
            let built = four.build(0).unwrap().spec();
            assert!(!built.contains("threads"), "{built}");
        }
    }

    /// Any game: the caps concern specs, not rules (no game is named outside its folder).
    fn any_game() -> &'static str {
        ludus_games::GAMES[0].id
    }

    #[test]
    fn specs_over_the_caps_are_refused_naming_the_cap_and_clamped_when_held() {
        let caps = Caps {
            hash_mb: 64,
            threads: 2,
        };
        assert_eq!(caps.check("ai:4:hash=64"), Ok(()));
        let refused = caps.check("ai:4:hash=1024").unwrap_err().to_string();
        assert!(refused.contains("expected hash at most 64"), "{refused}");
        let refused = caps.check("ai:mcts:tree=67108864").unwrap_err().to_string();
        assert!(refused.contains("at most 1048576"), "{refused}");
        let refused = caps.check("ai:5:threads=8").unwrap_err().to_string();
        assert!(refused.contains("threads at most 2"), "{refused}");
        let held = Computer::new(any_game(), "ai:4:hash=1024", 1).unwrap();
        let built = held.build_within(0, caps).unwrap().spec();
        assert!(built.contains("hash=64"), "{built}");
        let five = Computer::new(any_game(), "ai:5", 1).unwrap();
        let one = Caps {
            hash_mb: 64,
            threads: 1,
        };
        let built = five.build_within(0, one).unwrap().spec();
        assert!(!built.contains("threads=2"), "{built}");
        assert!(Computer::new(any_game(), "ai:2", 1).unwrap().is_cheap());
        assert!(!Computer::new(any_game(), "ai:3", 1).unwrap().is_cheap());
    }
}
