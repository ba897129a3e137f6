//! `ludus.games()` (the registry as Python data) and `ludus.random_playouts` (random games
//! played entirely in Rust, for speed measurements).

use ludus_engine::{GameInfo, OptionValues};
use ludus_games::{game_entry, GAMES};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The description of one game as a dict.
fn game_dict<'py>(py: Python<'py>, info: &GameInfo) -> PyResult<Bound<'py, PyDict>> {
    let game = PyDict::new(py);
    game.set_item("id", info.id)?;
    game.set_item("name", info.name)?;
    game.set_item("description", info.description)?;
    game.set_item("min_players", info.min_seats)?;
    game.set_item("max_players", info.max_seats)?;
    let default_game = crate::core::new_core(info.id, &[], None, 0).ok();
    let defaults = default_game
        .as_ref()
        .map(|core| core.options())
        .unwrap_or_default();
    let seats: Vec<&str> = default_game
        .as_ref()
        .map(|core| {
            ludus_engine::Seat::all(core.seat_count())
                .map(|seat| core.seat_name(seat))
                .collect()
        })
        .unwrap_or_default();
    game.set_item("seats", seats)?;
    let options = PyList::empty(py);
    for option in info.options {
        let entry = PyDict::new(py);
        entry.set_item("name", option.name)?;
        entry.set_item("help", option.help)?;
        match option.values {
            OptionValues::Choice(words) => {
                entry.set_item("kind", "choice")?;
                entry.set_item("values", words.to_vec())?;
            }
            OptionValues::Range { min, max, step } => {
                entry.set_item("kind", "range")?;
                entry.set_item("min", min)?;
                entry.set_item("max", max)?;
                entry.set_item("step", step)?;
            }
            OptionValues::Flag => {
                entry.set_item("kind", "flag")?;
                entry.set_item("values", vec![false, true])?;
            }
        }
        let default = defaults
            .iter()
            .find(|(name, _)| name == option.name)
            .map(|(_, value)| value.clone());
        entry.set_item("default", default)?;
        options.append(entry)?;
    }
    game.set_item("options", options)?;
    game.set_item("test_variants", test_variants(py, info.id)?)?;
    Ok(game)
}

/// The option sets the workspace's tests play besides the defaults (declared in the game's
/// folder), as dicts of option name to value text: the Python tests take them from here.
fn test_variants<'py>(py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    let variants = game_entry(id).map_or(&[][..], |entry| entry.tests.variants);
    for variant in variants {
        let options = PyDict::new(py);
        for pair in *variant {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            options.set_item(name, value)?;
        }
        list.append(options)?;
    }
    Ok(list)
}

/// The games with their players (`seats`: the seat names with default options) and every
/// rules option (name, help, kind, values,
/// default; `values` for choices and flags, `min`, `max`, `step` for numbers), as
/// `ludus games` prints them, and `test_variants`, the option sets the tests play.
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for info in GAMES {
        list.append(game_dict(py, info)?)?;
    }
    Ok(list)
}

/// Plays `n` uniformly random games of `game` from the usual setup, entirely in Rust, and
/// returns a dict: games, decisions, turns, seconds, wins (per seat), draws.
#[pyfunction]
#[pyo3(signature = (game, n, seed = 0, options = None))]
pub fn random_playouts<'py>(
    py: Python<'py>,
    game: &str,
    n: u64,
    seed: u64,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let pairs = crate::option_pairs(options)?;
    let core = crate::core::new_core(game, &pairs, None, seed)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let stats = py.detach(|| core.random_playouts(n, seed));
    let dict = PyDict::new(py);
    dict.set_item("games", stats.games)?;
    dict.set_item("decisions", stats.decisions)?;
    dict.set_item("turns", stats.turns)?;
    dict.set_item("seconds", stats.seconds)?;
    dict.set_item("wins", stats.wins)?;
    dict.set_item("draws", stats.draws)?;
    Ok(dict)
}
