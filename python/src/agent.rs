//! `ludus.agent(spec)`: Ludus's computer players (random to alpha-beta and MCTS) for Python.
//! An agent is built for a game type the first time it plays that game, and again when it
//! meets another game.

use std::sync::Mutex;

use ludus_ai::{Agent, AgentSpec, StopFlag};
use ludus_engine::{Encoding, Game, Heuristic};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::{Core, Typed};
use crate::game::PyGame;

/// An agent for one game type, seeing the game through the erased [`Core`].
pub trait CoreAgent: Send {
    /// The id of the chosen legal action, or `None` if the game is over or of another type.
    fn choose(&mut self, game: &dyn Core, stop: &StopFlag) -> Option<u32>;
}

/// An agent of game `G`.
pub struct TypedAgent<G: Game>(pub Box<dyn Agent<G>>);

impl<G: Game + Heuristic + Encoding> CoreAgent for TypedAgent<G> {
    fn choose(&mut self, game: &dyn Core, stop: &StopFlag) -> Option<u32> {
        let typed = game.as_any().downcast_ref::<Typed<G>>()?;
        let state = typed.0.state();
        state.to_move()?;
        let action = self.0.choose(state, stop);
        Some(state.action_id(action))
    }
}

/// The agent last built, with the game it was built for.
struct Built {
    game: &'static str,
    agent: Box<dyn CoreAgent>,
}

/// A Ludus computer player: `ludus.agent("ai:4")`, `ludus.agent("ai:mcts:time=0.2", seed=1)`.
///
/// Specs are those of the command line: `ai:1` (random) to `ai:5` (the strongest per game),
/// or `ai:AGENT:key=value,...` with AGENT one of random, greedy, minimax, alphabeta, mcts,
/// best. `choose(game)` returns the id of the decision the agent plays for the seat to move.
#[pyclass(name = "Agent", module = "ludus")]
pub struct PyAgent {
    spec: AgentSpec,
    seed: u64,
    built: Mutex<Option<Built>>,
}

impl std::fmt::Debug for PyAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Agent({}, seed {})", self.spec, self.seed)
    }
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<Self> {
        let spec: AgentSpec = spec
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        // Build once now, for the first game of the registry, so that a bad parameter is
        // refused here rather than at the first move.
        let first = ludus_games::GAMES.first().map_or("", |info| info.id);
        let probe = crate::core::new_core(first, &[], None, 0)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        probe
            .build_agent(&spec, seed)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyAgent {
            spec,
            seed,
            built: Mutex::new(None),
        })
    }

    /// The agent's spec, as given.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The id of the decision this agent plays for the seat to move in `game`. Raises
    /// `ValueError` when the game is over. The search runs without holding the GIL.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyGame>) -> PyResult<u32> {
        let game = game.borrow();
        let core = game.core();
        if core.to_move().is_none() {
            return Err(PyValueError::new_err(
                "the game is over: there is no decision to choose",
            ));
        }
        let mut built = self
            .built
            .lock()
            .map_err(|_| PyValueError::new_err("the agent failed in an earlier call"))?;
        let game_id = core.info().id;
        if built.as_ref().is_none_or(|b| b.game != game_id) {
            let agent = core
                .build_agent(&self.spec, self.seed)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            *built = Some(Built {
                game: game_id,
                agent,
            });
        }
        let agent = &mut built.as_mut().expect("built just above").agent;
        let chosen = py.detach(|| agent.choose(core, &StopFlag::default()));
        chosen.ok_or_else(|| PyValueError::new_err("the agent found no decision to play"))
    }

    fn __repr__(&self) -> String {
        format!(
            "ludus.agent({:?}, seed={})",
            self.spec.to_string(),
            self.seed
        )
    }
}
