"""The AlphaZero example (``examples/alphazero.py``) runs one short iteration end to end, as a
user would start it, and writes its metrics and learning curve: on plain NumPy always, and
with JAX when Flax and Optax are installed."""

import importlib.util
import json
import pathlib
import subprocess
import sys

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
