//! The Ludus games for Python: the extension module `ludus._ludus`, wrapped by the `ludus`
//! package (`python/python/ludus/`), which adds OpenSpiel and PettingZoo on top.
//!
//! Everything goes through the registry and the engine contract: the module keeps no rules
//! and no list of games. A game is an erased [`core::Core`] (a `Session` of any game with
//! integer action ids from its `Encoding`); agents are the `ludus-ai` computer players.
//! Every input from Python is checked: bad input raises `ValueError` or `ludus.IllegalMove`
//! with the engine's one-line message, never a crash.

mod agent;
mod batch;
mod catalogue;
mod core;
mod game;
mod render;
mod text;
mod vecenv;

use std::path::PathBuf;

use ludus_engine::record::GameRecord;
use ludus_engine::{Outcome, Verdict};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use crate::game::PyGame;

create_exception!(
    ludus,
    IllegalMove,
    PyValueError,
    "A move the rules refuse here, or notation that is not a move of this game."
);

/// How a game ended.
#[pyclass(name = "Outcome", module = "ludus", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyOutcome {
    /// The winning seat (0-based), or None for a draw.
    winner: Option<usize>,
    /// Why the game ended, in words ("king reached h8", "turn limit").
    reason: String,
}

impl PyOutcome {
    fn from_outcome(outcome: &Outcome) -> Self {
        PyOutcome {
            winner: match outcome.verdict {
                Verdict::Win(seat) => Some(seat.to_usize()),
                Verdict::Draw => None,
            },
            reason: outcome.reason.to_string(),
        }
    }
}

#[pymethods]
impl PyOutcome {
    /// Whether nobody won.
    #[getter]
    fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    fn __repr__(&self) -> String {
        match self.winner {
            Some(seat) => format!("<Outcome: seat {seat} wins ({})>", self.reason),
            None => format!("<Outcome: draw ({})>", self.reason),
        }
    }
}

/// Rules options given as a Python dict, as `key=value` texts (booleans as true/false).
pub(crate) fn option_pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<String>> {
    let Some(options) = options else {
        return Ok(Vec::new());
    };
    options
        .iter()
        .map(|(key, value)| {
            let value = if value.is_instance_of::<PyBool>() {
                value.extract::<bool>()?.to_string()
            } else {
                value.str()?.to_string()
            };
            Ok(format!("{}={value}", key.str()?))
        })
        .collect()
}

/// A new game from the usual setup: `new_game("qilin", {"min_pieces": 3}, seed=0)`. The seed
/// settles random rules choices (Qawale's `first_player=random`).
#[pyfunction]
#[pyo3(signature = (game, options = None, seed = 0))]
fn new_game(game: &str, options: Option<&Bound<'_, PyDict>>, seed: u64) -> PyResult<PyGame> {
    let pairs = option_pairs(options)?;
    core::new_core(game, &pairs, None, seed)
        .map(PyGame::new)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A game from a position string of the game's specification.
#[pyfunction]
#[pyo3(signature = (game, position, options = None))]
fn from_position(
    game: &str,
    position: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyGame> {
    let pairs = option_pairs(options)?;
    core::new_core(game, &pairs, Some(position), 0)
        .map(PyGame::new)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Loads a saved game (a JSON record or a game's text record) and replays it.
#[pyfunction]
// PyO3 extracts arguments as owned values.
#[allow(clippy::needless_pass_by_value)]
fn load(path: PathBuf) -> PyResult<PyGame> {
    game::load_game(&path)
}

/// A game from a JSON record (`Game.to_json()`), replayed through the rules.
#[pyfunction]
fn from_json(text: &str) -> PyResult<PyGame> {
    let record = GameRecord::from_json(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    core::core_from_record(&record)
        .map(PyGame::new)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymodule]
fn _ludus(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("IllegalMove", m.py().get_type::<IllegalMove>())?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyOutcome>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(from_position, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(from_json, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue::games, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue::random_playouts, m)?)?;
    Ok(())
}
