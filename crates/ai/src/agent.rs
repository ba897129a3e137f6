//! The agent trait, the stop flag searches poll, and construction from a spec.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ludus_engine::{Game, Heuristic};
use thiserror::Error;

use crate::{
    best, AgentKind, AgentSpec, AlphaBetaAgent, AlphaBetaConfig, Analysis, GreedyAgent, MctsAgent,
    MctsConfig, Meetings, MinimaxAgent, MinimaxConfig, RandomAgent, SearchBudget,
};

/// A computer player for games of type `G`.
///
/// Agents decide one decision at a time: a turn of several decisions is several calls, and the
/// agent may be asked again with the same seat to move. Given the same seed, budget limits
/// that do not depend on time (`depth`, `nodes`, `iterations`) and the same sequence of calls,
/// an agent makes the same decisions. A time budget makes the depth reached depend on the
/// machine.
pub trait Agent<G: Game>: Send {
    /// Chooses a legal decision for the seat to move. Precondition: the game is not over.
    /// Returns early with its best choice so far when `stop` is raised. Agents may skip the
    /// search when only one decision is legal.
    fn choose(&mut self, state: &G, stop: &StopFlag) -> G::Action {
        self.analyse(state, stop).action
    }

    /// Searches like [`Agent::choose`] and reports what it found: the decision, the
    /// evaluation from the seat to move's view, the depth and node count, the expected line.
    /// Precondition: the game is not over.
    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action>;

    /// Like [`Agent::analyse`], calling `info` with the best found so far whenever the search
    /// completes a stage (alpha-beta: each iteration), for a user interface to show while it
    /// thinks. The default calls it once, with the result.
    fn analyse_with(
        &mut self,
        state: &G,
        stop: &StopFlag,
        info: &mut dyn FnMut(&Analysis<G::Action>),
    ) -> Analysis<G::Action> {
        let analysis = self.analyse(state, stop);
        info(&analysis);
        analysis
    }

    /// The spec that built this agent, for tables and records.
    fn spec(&self) -> String;

    /// How the last search spread its preference over the root's decisions, as shares
    /// summing to 1: MCTS's visit shares. Empty for searches that rank only their chosen
    /// decision (alpha-beta proves one best decision, not an order of the others).
    fn policy(&self) -> Vec<(G::Action, f64)> {
        Vec::new()
    }

    /// What the threads of the last search met of one another: with tree-parallel MCTS,
    /// `None` for every other search.
    fn meetings(&self) -> Option<Meetings> {
        None
    }

    /// The budget of the next searches, to change between decisions while the agent keeps its
    /// tables and tree (a driver with a clock gives each decision its share). `None` for
    /// agents without one (random, greedy).
    fn budget_mut(&mut self) -> Option<&mut SearchBudget> {
        None
    }

    /// Allocates the agent's tables now, so that the first search does not pay for them.
    /// Returns the bytes they take (0 for agents without tables).
    fn prepare(&mut self) -> usize {
        0
    }
}

/// A flag another thread raises to make a search return at once.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// Asks the search to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Lowers the flag again, so that the same flag can serve the next search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
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
///
/// Levels: 1 random, 2 greedy, 3 minimax, 4 alpha-beta, 5 best (the strongest configuration
/// `G` names in `GameInfo::strongest`, see [`best_spec`](crate::best_spec)); `ai:mcts` names
/// MCTS directly. `solve=N` (alpha-beta, MCTS and level 5; level 5 has it by default) tries
/// the exact solver on a quarter of the budget when at most N turns remain, and plays what it
/// proves ([`SolvingAgent`](crate::SolvingAgent)); `solve=0` turns it off, and `tables=false`
/// keeps it but without the endgame tables and the game's book. Every parameter is checked:
/// an unknown key or a bad value is an [`AgentError::Parameter`].
pub fn build_agent<G: Game + Heuristic>(
    spec: &AgentSpec,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    if let Some((params, rest)) = crate::solver::solve_param(spec)? {
        return Ok(crate::solver::with_solver(
            build_plain::<G>(&rest, seed)?,
            &rest,
            params,
        ));
    }
    build_plain(spec, seed)
}

/// [`build_agent`] for a spec without the solver parameter.
fn build_plain<G: Game + Heuristic>(
    spec: &AgentSpec,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    let name = spec.to_string();
    Ok(match spec.kind {
        AgentKind::Random => {
            crate::params::Params::new(spec, &[])?;
            Box::new(RandomAgent::new(seed))
        }
        AgentKind::Greedy => Box::new(GreedyAgent::from_spec(spec, seed)?),
        AgentKind::Minimax => Box::new(MinimaxAgent::<G>::new(
            MinimaxConfig::from_spec(spec)?,
            name,
            seed,
        )),
        AgentKind::AlphaBeta => Box::new(AlphaBetaAgent::<G>::new(
            AlphaBetaConfig::from_spec(spec)?,
            name,
            seed,
        )),
        AgentKind::Mcts => Box::new(MctsAgent::<G>::new(
            MctsConfig::from_spec(spec)?,
            name,
            seed,
        )),
        AgentKind::Best => {
            let resolved = best::resolve(&G::INFO, spec);
            if resolved.kind == AgentKind::Best {
                return Err(AgentError::Unavailable(name));
            }
            let mut agent = build_agent::<G>(&resolved, seed)?;
            agent = Box::new(Renamed { agent, name });
            agent
        }
    })
}

/// An agent shown under another spec (level 5 under `ai:best`).
struct Renamed<G: Game> {
    agent: Box<dyn Agent<G>>,
    name: String,
}

impl<G: Game> Agent<G> for Renamed<G> {
    fn choose(&mut self, state: &G, stop: &StopFlag) -> G::Action {
        self.agent.choose(state, stop)
    }
    fn analyse(&mut self, state: &G, stop: &StopFlag) -> Analysis<G::Action> {
        self.agent.analyse(state, stop)
    }
    fn analyse_with(
        &mut self,
        state: &G,
        stop: &StopFlag,
        info: &mut dyn FnMut(&Analysis<G::Action>),
    ) -> Analysis<G::Action> {
        self.agent.analyse_with(state, stop, info)
    }
    fn spec(&self) -> String {
        self.name.clone()
    }
    fn budget_mut(&mut self) -> Option<&mut SearchBudget> {
        self.agent.budget_mut()
    }
    fn prepare(&mut self) -> usize {
        self.agent.prepare()
    }
}
