"""Records: games saved from Python load back in Python and in the `ludus replay` command."""

import os
import pathlib
import shutil
import subprocess

import pytest

import ludus
from conftest import random_game

REPO = pathlib.Path(__file__).resolve().parents[2]


def ludus_binary():
    """The command-line binary: $LUDUS_BIN, else one built in the workspace's target/."""
    given = os.environ.get("LUDUS_BIN")
    if given:
        return given
    for build in ("debug", "release"):
        candidate = REPO / "target" / build / "ludus"
        if candidate.exists():
            return str(candidate)
    return shutil.which("ludus")


@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_saved_games_load_back_with_the_same_history(tmp_path, variant, suffix):
    game, options = variant
    g = random_game(game, options, seed=4)
    path = tmp_path / f"game{suffix}"
    g.save(path)
    loaded = ludus.load(str(path))
    assert loaded.position() == g.position()
    assert loaded.history() == g.history() and loaded.actions() == g.actions()
    assert loaded.returns() == g.returns()


def test_an_unfinished_game_loads_and_plays_on(tmp_path):
    g = ludus.new_game("qawale")
    g.apply_move("a1:NE")  # half a turn: the sowing is pending
    g.save(tmp_path / "half.json")
    loaded = ludus.load(tmp_path / "half.json")
    assert loaded.legal_moves() == g.legal_moves() and loaded.to_move == 0


def test_damaged_and_missing_records_are_refused(tmp_path):
    g = random_game("replica", {}, seed=1)
    path = tmp_path / "game.json"
    g.save(path)
    path.write_text(path.read_text().replace('"b', '"z', 1))
    with pytest.raises(ValueError):
        ludus.load(path)
    with pytest.raises(OSError):
        ludus.load(tmp_path / "missing.json")


def test_ludus_replay_reads_games_saved_from_python(tmp_path):
    binary = ludus_binary()
    if binary is None:
        pytest.skip("no ludus binary built (cargo build) and LUDUS_BIN not set")
    for game, options in [(game, {}) for game in ludus.game_ids()]:
        g = random_game(game, options, seed=2)
        path = tmp_path / f"{game}.json"
        g.save(path)
        run = subprocess.run([binary, "replay", str(path)], capture_output=True, text=True,
                             timeout=120, stdin=subprocess.DEVNULL)
        assert run.returncode == 0, run.stderr
        assert g.outcome.reason in run.stdout
