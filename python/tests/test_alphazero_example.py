"""The AlphaZero example (``examples/alphazero.py``) runs one short iteration end to end, as a
user would start it, and writes its metrics and learning curve: on plain NumPy always, and
with JAX when Flax and Optax are installed."""

import importlib.util
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import ludus

EXAMPLE = pathlib.Path(__file__).parent.parent / "examples" / "alphazero.py"
BACKENDS = ["numpy", "jax"]


def has_jax():
    return all(importlib.util.find_spec(m) is not None for m in ("jax", "flax", "optax"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_quick_iteration_writes_metrics_and_curve(tmp_path, backend):
    if backend == "jax" and not has_jax():
        pytest.skip("JAX, Flax or Optax is not installed")
    out = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--backend", backend,
         "--iterations", "1", "--quick", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["backend"] == backend
    assert metrics["settings"]["game"] in {g["id"] for g in ludus.games()}
    [step] = metrics["iterations"]
    assert step["decisions"] > 0 and step["positions"] == step["decisions"]
    assert step["loss_policy"] > 0 and step["loss_value"] >= 0
    # The baseline (untrained) and the final match, each game won, drawn or lost once.
    baseline, final = metrics["curve"][0], metrics["curve"][-1]
    assert (baseline["iteration"], final["iteration"]) == (0, 1)
    for point in (baseline, final):
        assert point["won"] + point["drawn"] + point["lost"] == point["games"] == 2
    svg = (out / "curve.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == 2
    # The trained weights load again: a run that trains nothing writes them back unchanged.
    again = tmp_path / "again"
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--backend", backend, "--iterations", "0", "--quick",
         "--load", str(out / "weights.pkl"), "--out", str(again)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert [p["iteration"] for p in json.loads((again / "metrics.json").read_text())["curve"]] == [0]
    assert (again / "weights.pkl").read_bytes() == (out / "weights.pkl").read_bytes()


def test_an_unknown_game_gets_a_one_line_error(tmp_path):
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--game", "no-such-game", "--iterations", "1", "--quick",
         "--backend", "numpy", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "no-such-game" in line
    assert not (tmp_path / "run").exists()


def test_yoxii_symmetries_move_squares_and_action_ids_together():
    """Each of the eight maps carries a square's observation column and the ids of the actions
    on that square to the same new square, and leaves the on-board plane unchanged."""
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        from az_symmetry import Symmetries
    finally:
        sys.path.pop(0)
    cell_src, action_src = Symmetries("yoxii", None).tables
    assert len({tuple(c) for c in cell_src}) == 8
    rng = np.random.default_rng(5)
    for trial in range(20):
        g = ludus.new_game("yoxii")
        for _ in range(int(rng.integers(0, 30))):
            if not g.is_over():
                g.apply(int(rng.choice(g.legal_actions())))
        if g.is_over():
            continue
        obs = g.observation_tensor()
        flat = obs.reshape(obs.shape[0], -1)
        for cells, actions in zip(cell_src, action_src):
            moved = flat[:, cells]
            # Plane 9 marks the board's 37 squares (docs/PYTHON.md), a symmetric shape.
            assert (moved[9] == flat[9]).all()
            for new_id in range(len(actions)):
                old_sq, new_sq = actions[new_id] % 49, new_id % 49
                assert (moved[:, place(new_sq)] == flat[:, place(old_sq)]).all()


def place(square):
    """Where the observation draws a Yoxii square: rows from the top rank, columns by file."""
    file, rank = divmod(int(square), 7)
    return (6 - rank) * 7 + file
