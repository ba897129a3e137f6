//! `ludus.VecEnv`: a batch of games stepped by one call, with observations, legal-action
//! masks, rewards, end flags and the seats to move in NumPy arrays that every step rewrites in
//! place (see `batch.rs` for the games' side).

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::batch::{new_batch, Batch, Rows};

/// At most this many games in one batch (about 1 GB of Qawale observations).
const MAX_GAMES: usize = 1 << 20;

/// N games of one kind stepped together in Rust: `ludus.VecEnv("qawale", 1024, seed=0)`.
///
/// After `reset()` and every `step(actions)`, the arrays `observations` `[n, planes, height,
/// width]` (float32, the seat to move's view), `legal` `[n, actions]` (bool), `rewards`
/// `[n, seats]` (float32, the returns of a game that ended in this step), `terminated` `[n]`
/// (bool) and `to_move` `[n]` (int32) hold the new values: the same arrays every time,
/// rewritten in place. A game that ends starts its next episode in the same step, so its row
/// already shows the new game. `threads` workers step the games (1 by default).
#[pyclass(name = "VecEnv", module = "ludus")]
pub struct PyVecEnv {
    batch: Box<dyn Batch>,
    /// The generator of `sample()`.
    rng: SmallRng,
    pool: rayon::ThreadPool,
    #[pyo3(get)]
    observations: Py<PyArray4<f32>>,
    #[pyo3(get)]
    legal: Py<PyArray2<bool>>,
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    #[pyo3(get)]
    terminated: Py<PyArray1<bool>>,
    #[pyo3(get)]
    to_move: Py<PyArray1<i32>>,
    #[pyo3(get)]
    game: String,
}

impl std::fmt::Debug for PyVecEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "VecEnv({}, {} games)",
            self.game,
            self.batch.shape().games
        )
    }
}

fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (game, n, seed = 0, options = None, threads = 1))]
    fn new(
        py: Python<'_>,
        game: &str,
        n: usize,
        seed: u64,
        options: Option<&Bound<'_, PyDict>>,
        threads: usize,
    ) -> PyResult<Self> {
        if n == 0 || n > MAX_GAMES {
            return Err(value_error(format!(
                "n={n}: expected a number of games from 1 to {MAX_GAMES}"
            )));
        }
        if threads == 0 || threads > 256 {
            return Err(value_error(format!("threads={threads}: expected 1 to 256")));
        }
        let pairs = crate::option_pairs(options)?;
        let batch = new_batch(game, &pairs, n).map_err(value_error)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("ludus-vecenv-{i}"))
            .build()
            .map_err(value_error)?;
        let shape = batch.shape();
        let [planes, height, width] = shape.observation;
        let mut env = PyVecEnv {
            batch,
            rng: SmallRng::seed_from_u64(seed),
            pool,
            observations: PyArray4::zeros(py, [n, planes, height, width], false).unbind(),
            legal: PyArray2::zeros(py, [n, shape.actions], false).unbind(),
            rewards: PyArray2::zeros(py, [n, shape.seats], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            to_move: PyArray1::zeros(py, n, false).unbind(),
            game: game.to_string(),
        };
        env.reset(py, Some(seed))?;
        Ok(env)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.shape().games
    }

    /// The number of action ids (the width of `legal`).
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.batch.shape().actions
    }

    /// The number of seats (the width of `rewards`).
    #[getter]
    fn num_players(&self) -> usize {
        self.batch.shape().seats
    }

    /// Starts every game again (with `seed`, or the seed the batch was made with); game `i`'s
    /// k-th episode gets seed `seed + k·n + i`. Returns `observations`.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<Py<PyArray4<f32>>> {
        let seed = seed.unwrap_or(0);
        self.with_rows(py, |batch, rows| {
            batch.reset(seed, rows);
            Ok(())
        })?;
        Ok(self.observations.clone_ref(py))
    }

    /// Plays `actions[i]` (an action id, legal in game `i`) in every game, then rewrites the
    /// arrays. An illegal action raises `ValueError` naming the game, and no game moves.
    /// `actions` is an int64 array (read in place) or any sequence of ints.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions: Vec<i64> = match actions.extract::<PyReadonlyArray1<'_, i64>>() {
            Ok(array) => array.as_slice().map_err(value_error)?.to_vec(),
            Err(_) => actions.extract().map_err(|_| {
                value_error("actions: expected one action id per game (an int64 array or ints)")
            })?,
        };
        self.with_rows(py, |batch, rows| batch.step(&actions, rows))
    }

    /// A uniformly random legal action id for every game (int64 `[n]`), drawn in Rust: a
    /// random opponent or a baseline without a Python loop. `seed` restarts the generator.
    #[pyo3(signature = (seed = None))]
    fn sample<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> Bound<'py, PyArray1<i64>> {
        if let Some(seed) = seed {
            self.rng = SmallRng::seed_from_u64(seed);
        }
        let mut out = vec![0i64; self.batch.shape().games];
        self.batch.sample(&mut self.rng, &mut out);
        PyArray1::from_vec(py, out)
    }

    /// A picture of game `index` (uint8 `[height, width, 3]`), as `Game.render_rgb`.
    #[pyo3(signature = (index, scale = 0.5))]
    fn render_rgb<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        scale: f32,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        let view = self.batch.view(index).ok_or_else(|| {
            value_error(format!(
                "game {index}: expected an index below {}",
                self.batch.shape().games
            ))
        })?;
        let (height, width, bytes) = py
            .detach(|| crate::render::rgb(&view, scale))
            .map_err(value_error)?;
        PyArray1::from_vec(py, bytes).reshape([height, width, 3])
    }

    fn __len__(&self) -> usize {
        self.batch.shape().games
    }

    fn __repr__(&self) -> String {
        format!("{self:?}")
    }
}

impl PyVecEnv {
    /// Borrows the arrays for writing and runs `work` on the batch's threads without the GIL.
    fn with_rows(
        &mut self,
        py: Python<'_>,
        work: impl FnOnce(&mut dyn Batch, Rows<'_>) -> Result<(), String> + Send,
    ) -> PyResult<()> {
        let mut observations = self
            .observations
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut legal = self.legal.bind(py).try_readwrite().map_err(value_error)?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(value_error)?;
        let mut terminated = self
            .terminated
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut to_move = self.to_move.bind(py).try_readwrite().map_err(value_error)?;
        let rows = Rows {
            observations: observations.as_slice_mut().map_err(value_error)?,
            legal: legal.as_slice_mut().map_err(value_error)?,
            rewards: rewards.as_slice_mut().map_err(value_error)?,
            terminated: terminated.as_slice_mut().map_err(value_error)?,
            to_move: to_move.as_slice_mut().map_err(value_error)?,
        };
        let (batch, pool) = (&mut *self.batch, &self.pool);
        py.detach(|| pool.install(|| work(batch, rows)))
            .map_err(value_error)
    }
}
