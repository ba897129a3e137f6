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

/// What a search found, in action ids.
#[derive(Debug)]
pub struct Found {
    /// The chosen action.
    pub action: u32,
    /// The evaluation in words ("+0.35", "win in 3", "62%", "wins in 2 turns"), if any.
    pub evaluation: Option<String>,
    /// The evaluation on a scale from -1 (lost) to 1 (won) for the seat to move, if any.
    pub value: Option<f64>,
    /// Depth of the last completed search (see `ludus_ai::Analysis::depth`).
    pub depth: u32,
    /// Nodes searched or MCTS iterations.
    pub nodes: u64,
    /// The expected line, starting with `action`.
    pub pv: Vec<u32>,
    /// Shares over the legal actions, summing to 1 (MCTS visits; otherwise all on `action`).
    pub policy: Vec<(u32, f64)>,
}

/// An agent for one game type, seeing the game through the erased [`Core`].
pub trait CoreAgent: Send {
    /// The search's result, or `None` if the game is over or of another type.
    fn analyse(&mut self, game: &dyn Core, stop: &StopFlag) -> Option<Found>;
}

/// An agent of game `G`.
pub struct TypedAgent<G: Game>(pub Box<dyn Agent<G>>);

impl<G: Game + Heuristic + Encoding> CoreAgent for TypedAgent<G> {
    fn analyse(&mut self, game: &dyn Core, stop: &StopFlag) -> Option<Found> {
        let typed = game.as_any().downcast_ref::<Typed<G>>()?;
        let state = typed.0.state();
        state.to_move()?;
        let analysis = self.0.analyse(state, stop);
        let action = state.action_id(analysis.action);
        let mut line = state.clone();
        let mut pv = Vec::with_capacity(analysis.pv.len());
        for &step in &analysis.pv {
            if line.outcome().is_some() || !line.is_legal(step) {
                break;
            }
            pv.push(line.action_id(step));
            line.apply(step);
        }
        let mut policy: Vec<(u32, f64)> = self
            .0
            .policy()
            .into_iter()
            .map(|(a, share)| (state.action_id(a), share))
            .collect();
        if policy.is_empty() {
            policy.push((action, 1.0));
        }
        Some(Found {
            action,
            evaluation: analysis.evaluation.map(|e| e.to_string()),
            value: analysis.evaluation.map(ludus_ai::Evaluation::bar),
            depth: analysis.depth,
            nodes: analysis.nodes,
            pv,
            policy,
        })
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
    fn search(&self, core: &dyn Core, stop: &StopFlag) -> PyResult<Found> {
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
            .analyse(core, stop)
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
        self.run(py, game).map(|found| found.action)
    }

    /// Searches like `choose` and says what the search found: a dict of `action` (id),
    /// `move` (notation), `evaluation` (words, or None), `value` (-1 lost to 1 won for the
    /// seat to move, or None), `depth`, `nodes`, `pv` (ids, starting with `action`) and
    /// `policy` (float32 over every action id, summing to 1: MCTS visit shares; searches that
    /// rank only their choice put all of it on `action`).
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyGame>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let found = self.run(py, game)?;
        let core_game = game.borrow();
        let core = core_game.core();
        let mut policy = vec![0f32; core.num_distinct_actions()];
        for &(id, share) in &found.policy {
            if let Some(slot) = policy.get_mut(id as usize) {
                *slot = share as f32;
            }
        }
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("action", found.action)?;
        dict.set_item("move", core.id_to_move(found.action).ok())?;
        dict.set_item("evaluation", found.evaluation)?;
        dict.set_item("value", found.value)?;
        dict.set_item("depth", found.depth)?;
        dict.set_item("nodes", found.nodes)?;
        dict.set_item("pv", found.pv)?;
        dict.set_item("policy", numpy::PyArray1::from_vec(py, policy))?;
        Ok(dict)
    }
    fn __repr__(&self) -> String {
        format!(
            "ludus.agent({:?}, seed={})",
            self.spec.to_string(),
            self.seed
        )
    }
}

impl PyAgent {
    /// The search of `choose` and `analyse` (see `choose` for the threads and Ctrl-C).
    fn run(&self, py: Python<'_>, game: &Bound<'_, PyGame>) -> PyResult<Found> {
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
}
