"""Pictures of positions for videos of agents: every game draws as RGB (and SVG) with its
pieces in their seats' colours and the last move marked, through ludus.Game, PettingZoo's
render_mode="rgb_array" and the Gymnasium vector environment."""

import random

import numpy as np
import pytest

import ludus

SCALE = 0.5  # pixels per SVG unit; a cell is 100 units, the margin 40
LAST_MOVE = (0xF0, 0xE0, 0x7C)


@pytest.mark.parametrize("game_id", ludus.game_ids())
def test_every_game_draws_its_board(game_id):
    g = ludus.new_game(game_id, seed=1)
    rng = random.Random(1)
    for _ in range(6):
        g.apply(rng.choice(g.legal_actions()))
    frame = g.render_rgb(SCALE)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 150 and frame.shape[1] > 150
    assert len({tuple(p) for p in frame.reshape(-1, 3)[::97]}) > 4, "a picture of one colour"
    svg = g.render_svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "#f0e07c" in svg, "the last move is not marked"
    # Coordinates: the first column's letter and the first row's number on the edges.
    assert ">a</text>" in svg and ">1</text>" in svg


def test_a_piece_shows_in_its_seats_colour_and_the_last_move_in_yellow():
    # The first game whose first decision puts a piece on an empty board cell.
    for game_id in ludus.game_ids():
        g = ludus.new_game(game_id, seed=1)
        before = g.render_rgb(SCALE)
        g.apply(g.legal_actions()[0])
        after = g.render_rgb(SCALE)
        changed = np.argwhere((before != after).any(axis=2))
        if len(changed):
            break
    assert len(changed), "no game's first decision changed its picture"
    colours = {tuple(int(v) for v in after[y, x]) for y, x in changed[:: max(1, len(changed) // 200)]}
    assert LAST_MOVE in colours or any(
        abs(c[0] - 0xF0) + abs(c[1] - 0xE0) + abs(c[2] - 0x7C) < 30 for c in colours
    ), colours


def test_pettingzoo_and_gymnasium_render_rgb_arrays():
    from ludus.gymnasium import LudusVectorEnv
    from ludus.pettingzoo import raw_env

    game_id = ludus.game_ids()[0]
    env = raw_env(game_id, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.ndim == 3 and frame.dtype == np.uint8
    text = raw_env(game_id, render_mode="ansi")
    text.reset(seed=1)
    assert text.render() == str(text.game)
    envs = LudusVectorEnv(game_id, num_envs=3, render_mode="rgb_array")
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 3 and all(f.shape == frame.shape for f in frames)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(game_id, render_mode="human")
    with pytest.raises(ValueError, match="expected an index below 3"):
        envs.batch.render_rgb(3)
