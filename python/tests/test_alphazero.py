"""OpenSpiel's own AlphaZero trains on a Ludus game: its worker processes get the game by
pickle, play it with MCTS and the network, and the learner writes its checkpoints."""

import json
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("pyspiel")

import ludus  # noqa: E402


def test_alphazero_runs_two_learner_steps(tmp_path):
    # The first two-seat game of the registry.
    game = next(g["id"] for g in ludus.games() if g["max_players"] == 2)
    script = pathlib.Path(__file__).with_name("alphazero_tiny.py")
    out = tmp_path / "az"
    result = subprocess.run(
        [sys.executable, str(script), f"ludus_{game}", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    steps = [json.loads(line) for line in (out / "learner.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2]
    assert steps[-1]["total_trajectories"] >= 1
    assert (out / "checkpoint-2").exists()
