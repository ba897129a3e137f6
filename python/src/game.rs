//! The Python `ludus.Game` class: a game of any kind with integer action ids, notation,
//! observation tensors, records and returns. Every method checks its input and raises
//! `ValueError` or `ludus.IllegalMove` with the engine's one-line message.

use std::path::{Path, PathBuf};

use ludus_engine::{Outcome, Seat};
use ludus_games::{load_record_file, save_record_file};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::core::{core_from_record, Core};
use crate::{IllegalMove, PyOutcome};

/// A game in progress of one of the five Ludus games, with its history.
///
/// Seats are numbered from 0 in turn order. An action is one decision (a turn may take
/// several: Qawale's stack then each step, Yoxii's Totem move then placement, Splut!'s 1-3
/// steps), identified by an integer id in `0..num_distinct_actions`.
#[pyclass(name = "Game", module = "ludus")]
pub struct PyGame {
    core: Box<dyn Core>,
}

impl std::fmt::Debug for PyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Game({}, {:?})",
            self.core.info().id,
            self.core.position()
        )
    }
}

impl PyGame {
    pub fn new(core: Box<dyn Core>) -> Self {
        PyGame { core }
    }

    pub fn core(&self) -> &dyn Core {
        self.core.as_ref()
    }
}

/// The error of a move the rules refuse, as `ludus.IllegalMove`.
pub fn illegal(error: impl std::fmt::Display) -> PyErr {
    IllegalMove::new_err(error.to_string())
}

/// Zero-sum returns: the winner 1, every other seat `-1 / (seats - 1)`; a draw 0 each when
/// every seat is still in play. A seat knocked out before a draw gets `-1 / (seats - 1)` and
/// the seats in play share the rest (the rules' "draw shared by all surviving players"): each
/// seat's [`Verdict::shares`] moved and scaled so that a win is 1 and the values sum to 0.
pub fn returns_of(outcome: Option<&Outcome>, in_play: &[bool]) -> Vec<f64> {
    let seats = in_play.len();
    let Some(verdict) = outcome.map(|o| o.verdict) else {
        return vec![0.0; seats];
    };
    let even = 1.0 / seats.max(1) as f64;
    let scale = seats as f64 / (seats.max(2) - 1) as f64;
    verdict
        .shares(in_play)
        .into_iter()
        .map(|share| (share - even) * scale)
        .collect()
}

impl PyGame {
    fn seat(&self, seat: i64) -> PyResult<Seat> {
        let count = self.core.seat_count();
        usize::try_from(seat)
            .ok()
            .and_then(|s| Seat::from_number(s + 1, count))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "bad seat {seat}: expected 0 to {} (seats count from 0)",
                    count - 1
                ))
            })
    }

    fn action(id: i64) -> PyResult<u32> {
        u32::try_from(id).map_err(|_| {
            illegal(format!(
                "illegal action {id}: expected a non-negative action id"
            ))
        })
    }
}

#[pymethods]
impl PyGame {
    /// The game's registry name (`qilin`, `splut`, `qawale`, `replica`, `yoxii`).
    #[getter]
    fn game(&self) -> &'static str {
        self.core.info().id
    }

    /// How many seats play.
    #[getter]
    fn num_players(&self) -> usize {
        self.core.seat_count()
    }

    /// The rules options, name to value (as text).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.core.options() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The seat to decide now (0-based), or None when the game is over.
    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.core.to_move().map(Seat::to_usize)
    }

    /// Completed turns (a turn may take several decisions).
    #[getter]
    fn turn(&self) -> u32 {
        self.core.turn()
    }

    /// How the game ended, or None while it goes on.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.core.outcome().map(|o| PyOutcome::from_outcome(&o))
    }

    /// The size of the action space: every action id is below it.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.core.num_distinct_actions()
    }

    /// The shape `(planes, height, width)` of `observation_tensor`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.core.observation_shape();
        (p, h, w)
    }

    /// An upper bound on the decisions of a game with these options.
    #[getter]
    fn max_game_length(&self) -> usize {
        self.core.max_decisions()
    }

    /// The Zobrist key of the position.
    #[getter]
    fn key(&self) -> u64 {
        self.core.key()
    }

    /// The rules' name of `seat` ("Red", "Dark", "Blue").
    fn seat_name(&self, seat: i64) -> PyResult<&'static str> {
        Ok(self.core.seat_name(self.seat(seat)?))
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.core.to_move().is_none()
    }

    /// Per seat, whether it is still in the game (Splut! removes a seat whose sorcerer dies;
    /// in the other games every seat plays to the end).
    fn seats_in_play(&self) -> Vec<bool> {
        let view = self.core.view();
        (0..self.core.seat_count())
            .map(|i| view.seats.get(i).is_none_or(|s| s.alive))
            .collect()
    }

    /// The legal action ids, ascending (empty when the game is over).
    fn legal_actions(&self) -> Vec<u32> {
        self.core.legal_ids()
    }

    /// The legal decisions in notation, in the order of `legal_actions()`.
    fn legal_moves(&self) -> Vec<String> {
        self.core.legal_moves()
    }

    /// Plays the legal action `action` (an id); raises IllegalMove otherwise.
    fn apply(&mut self, action: i64) -> PyResult<()> {
        self.core.apply_id(Self::action(action)?).map_err(illegal)
    }

    /// Plays a decision or a whole turn in notation (`"a1:NEN"`, `"d5 3@d4"`); returns how
    /// many decisions it held. Nothing is played unless all are legal.
    fn apply_move(&mut self, notation: &str) -> PyResult<usize> {
        self.core.apply_text(notation).map_err(illegal)
    }

    /// The notation of the legal action `action`.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        self.core.id_to_move(Self::action(action)?).map_err(illegal)
    }

    /// The id of the legal decision written `notation`.
    fn move_to_action(&self, notation: &str) -> PyResult<u32> {
        self.core.move_to_id(notation).map_err(illegal)
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        PyGame::new(self.core.clone_box())
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// One value per seat, summing to zero: 1 for the winner and `-1/(seats-1)` for the
    /// others; a draw 0 each, or, where seats were knocked out before it, `-1/(seats-1)` for
    /// those and the rest shared by the seats in play; 0 each for a game in progress.
    fn returns(&self) -> Vec<f64> {
        returns_of(self.core.outcome().as_ref(), &self.seats_in_play())
    }

    /// The returns if the game were drawn now: 0 each, or, where seats are already knocked
    /// out, `-1/(seats-1)` for those and the rest shared by the seats in play. The OpenSpiel
    /// and PettingZoo wrappers end a game here at `max_game_length` decisions (a cap that only
    /// games with every draw rule switched off reach).
    fn draw_returns(&self) -> Vec<f64> {
        let drawn = Outcome::draw("decision cap");
        returns_of(Some(&drawn), &self.seats_in_play())
    }

    /// The position string of the game's specification.
    fn position(&self) -> String {
        self.core.position()
    }

    /// The turns played so far in turn notation (the last one may be unfinished).
    fn history(&self) -> Vec<String> {
        self.core.history().into_iter().map(|t| t.text).collect()
    }

    /// The ids of the decisions played so far, in order.
    fn actions(&self) -> Vec<u32> {
        self.core.action_ids()
    }

    /// The observation of `seat` (default: the seat to move, or seat 0 at the end) as a
    /// float32 array of shape `observation_shape`; the planes are documented per game.
    #[pyo3(signature = (seat = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let seat = match seat {
            Some(seat) => self.seat(seat)?,
            None => self.core.to_move().unwrap_or(Seat::FIRST),
        };
        let [p, h, w] = self.core.observation_shape();
        let mut values = vec![0.0; p * h * w];
        self.core.observe(seat, &mut values);
        PyArray1::from_vec(py, values).reshape([p, h, w])
    }

    /// The board as the web page draws it, as an SVG document.
    fn render_svg(&self) -> String {
        crate::render::svg(&self.core.view())
    }

    /// The board as an RGB picture (uint8 `[height, width, 3]`), `scale` pixels per SVG unit
    /// (a cell is 100 units): for videos of agents.
    #[pyo3(signature = (scale = 0.5))]
    fn render_rgb<'py>(&self, py: Python<'py>, scale: f32) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let view = self.core.view();
        let (height, width, bytes) = py
            .detach(|| crate::render::rgb(&view, scale))
            .map_err(PyValueError::new_err)?;
        PyArray1::from_vec(py, bytes).reshape([height, width, 3])
    }

    /// `seat` resigns: in two-seat games the other wins; in Splut! the seat leaves.
    fn resign(&mut self, seat: i64) -> PyResult<()> {
        let seat = self.seat(seat)?;
        self.core.resign(seat);
        Ok(())
    }

    /// Takes back the last decision or resignation; False if there was none.
    fn undo(&mut self) -> bool {
        self.core.undo()
    }

    /// The game as a JSON record (the format of `ludus play --save` and `ludus replay`).
    fn to_json(&self) -> String {
        self.core.record().to_json()
    }

    /// Saves the game to `path` (JSON, or the game's text record format for `.txt`),
    /// atomically; `ludus replay` reads it.
    // PyO3 extracts arguments as owned values.
    #[allow(clippy::needless_pass_by_value)]
    fn save(&self, path: PathBuf) -> PyResult<()> {
        save_record_file(&path, &self.core.record()).map_err(|e| match e {
            ludus_engine::RecordError::Io { .. } => PyOSError::new_err(e.to_string()),
            other => PyValueError::new_err(other.to_string()),
        })
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let module = py.import("ludus")?;
        Ok((module.getattr("from_json")?.unbind(), (self.to_json(),)))
    }

    fn __str__(&self) -> String {
        crate::text::render(&self.core.view())
    }

    fn __repr__(&self) -> String {
        format!(
            "<ludus.Game {} turn {} {:?}>",
            self.core.info().id,
            self.core.turn(),
            self.core.position()
        )
    }
}

/// Reads a record file (JSON or a game's text format) and replays it through the rules.
pub fn load_game(path: &Path) -> PyResult<PyGame> {
    let record = load_record_file(path).map_err(|e| match e {
        ludus_engine::RecordError::Io { .. } => PyOSError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    })?;
    core_from_record(&record)
        .map(PyGame::new)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
