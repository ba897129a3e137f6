//! The agent trait, the stop flag searches poll, and construction from a spec.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ludus_engine::{Game, Heuristic};
use thiserror::Error;

use crate::{AgentKind, AgentSpec, RandomAgent};

/// A computer player for games of type `G`.
pub trait Agent<G: Game>: Send {
    /// Chooses a legal decision for the seat to move. Precondition: the game is not over.
    /// Returns early with its best choice so far when `stop` is raised.
    fn choose(&mut self, state: &G, stop: &StopFlag) -> G::Action;

    /// The spec that built this agent, for tables and records.
    fn spec(&self) -> String;
}

/// A flag another thread raises to make a search return at once.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// Asks the search to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether a stop was asked for.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// An agent that cannot be built.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum AgentError {
    /// Text that is not an agent spec.
    #[error("bad player '{0}': expected human, ai:LEVEL (1-5) or ai:AGENT:key=value,...")]
    Syntax(String),
    /// A parameter the agent does not take, or a bad value.
    #[error("bad parameter '{0}' for {1}")]
    Parameter(String, String),
    /// A level or agent this build does not have yet.
    #[error("computer player '{0}' is not available yet")]
    Unavailable(String),
}

/// Builds the agent `spec` describes for game `G`, seeded with `seed`.
pub fn build_agent<G: Game + Heuristic>(
    spec: &AgentSpec,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    match spec.kind {
        AgentKind::Random => Ok(Box::new(RandomAgent::new(seed))),
        _ => Err(AgentError::Unavailable(spec.to_string())),
    }
}
