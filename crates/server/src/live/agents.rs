//! Computer players for the server, built through the registry as the terminal app builds them.
//!
//! Level 5 searches on every core unless its spec sets `threads`. A seat keeps only the spec and a seed; the agent is built for each search on the worker
//! thread. A level-4 agent holds a 16 MB transposition table, so keeping one per idle game
//! would cost the server gigabytes at ten thousand games; a fresh agent per decision costs a
//! few milliseconds against budgets of a second.

use ludus_ai::{build_agent, erase, AgentError, AgentSpec, AnyAgent};
use ludus_engine::{Game, Heuristic};
use ludus_games::{dispatch, GameVisitor};

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
    pub fn new(game_id: &'static str, spec: &str, seed: u64) -> Result<Computer, String> {
        let computer = Computer {
            game_id,
            spec: spec.trim().to_string(),
            seed,
        };
        computer.build(0)?;
        Ok(computer)
    }

    /// The agent for the decision after `played` decisions.
    pub fn build(&self, played: usize) -> Result<Box<dyn AnyAgent>, String> {
        build(self.game_id, &self.spec, self.seed ^ (played as u64) << 20)
    }

    /// The threads its search uses: level 5 takes every core unless its spec says otherwise.
    pub fn threads(&self) -> usize {
        self.spec
            .parse::<AgentSpec>()
            .map_or(1, |spec| spec.on_every_core().threads())
    }
}

/// The agent `spec` for the game `game_id`.
pub fn build(game_id: &str, spec: &str, seed: u64) -> Result<Box<dyn AnyAgent>, String> {
    struct Make<'a> {
        spec: &'a AgentSpec,
        seed: u64,
    }
    impl GameVisitor for Make<'_> {
        type Output = Result<Box<dyn AnyAgent>, String>;
        fn visit<G: Game + Heuristic>(self) -> Self::Output {
            build_agent::<G>(self.spec, self.seed)
                .map(erase)
                .map_err(|e| e.to_string())
        }
    }
    // Level 5 searches on every core, as in the terminal app (the search permits count its
    // threads: `computer::run`).
    let parsed = spec
        .parse::<AgentSpec>()
        .map_err(|e: AgentError| e.to_string())?
        .on_every_core();
    dispatch(
        game_id,
        Make {
            spec: &parsed,
            seed,
        },
    )
    .map_err(|e| e.to_string())?
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
}
