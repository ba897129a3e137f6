//! `ludus.agent(spec)`: Ludus's computer players (random to alpha-beta and MCTS) for Python.
//! An agent is built for a game type the first time it plays that game, and again when it
//! meets another game.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

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

/// How often a waiting `choose` looks for Ctrl-C.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

impl PyAgent {
    /// Builds the agent for `core`'s game if it has none for it, then searches. Runs without
    /// the GIL: a second thread calling the same agent waits for the lock here, not while
    /// holding the GIL that this search needs to return.
    fn search(&self, core: &dyn Core, stop: &StopFlag) -> PyResult<u32> {
        let mut built = self
            .built
            .lock()
            .map_err(|_| PyValueError::new_err("the agent failed in an earlier call"))?;
        let game_id = core.info().id;
        let agent = match built.take() {
            Some(b) if b.game == game_id => b.agent,
            _ => core
                .build_agent(&self.spec, self.seed)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        };
        let built = built.insert(Built {
            game: game_id,
            agent,
        });
        built
            .agent
            .choose(core, stop)
            .ok_or_else(|| PyValueError::new_err("the agent found no decision to play"))
    }
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
    /// `ValueError` when the game is over. The search runs on a thread of its own without the
    /// GIL, so other Python threads go on meanwhile (one using this agent waits its turn) and
    /// Ctrl-C stops the search and raises `KeyboardInterrupt` at once.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyGame>) -> PyResult<u32> {
        let game = game.borrow();
        let core = game.core();
        if core.to_move().is_none() {
            return Err(PyValueError::new_err(
                "the game is over: there is no decision to choose",
            ));
        }
        let stop = StopFlag::default();
        std::thread::scope(|scope| {
            let (done, mut finished) = mpsc::sync_channel(1);
            let stop_search = &stop;
            let search = scope.spawn(move || {
                // Sent even when the search fails, so that the waiting loop below wakes up.
                let result = self.search(core, stop_search);
                let _ = done.send(());
                result
            });
            loop {
                // The receiver moves into the GIL-free closure and back (it is not `Sync`).
                let waited;
                (finished, waited) = py.detach(move || {
                    let waited = finished.recv_timeout(SIGNAL_CHECK);
                    (finished, waited)
                });
                if waited != Err(RecvTimeoutError::Timeout) {
                    break;
                }
                if let Err(interrupt) = py.check_signals() {
                    stop.raise();
                    py.detach(|| drop(search.join()));
                    return Err(interrupt);
                }
            }
            py.detach(|| search.join())
                .map_err(|_| PyValueError::new_err("the agent's search failed"))?
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "ludus.agent({:?}, seed={})",
            self.spec.to_string(),
            self.seed
        )
    }
}
