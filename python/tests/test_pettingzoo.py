"""PettingZoo: each game (and Splut! with 3 and 4 seats) passes PettingZoo's own api_test and
seed test; eliminated Splut! seats leave while the others play on; a multi-decision turn
selects the same agent again; rewards match the Ludus returns."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from ludus.pettingzoo import env, raw_env  # noqa: E402

from conftest import VARIANTS  # noqa: E402


@pytest.mark.parametrize("game, options", VARIANTS)
def test_pettingzoo_api_test(game, options):
    api_test(env(game, **options), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("game, options", VARIANTS)
def test_pettingzoo_seed_test(game, options):
    seed_test(lambda **kw: env(game, **options, **kw), num_cycles=100)


def play(e, seed):
    """Plays random legal actions to the end; returns the agents in the order they acted
    and the sum of the rewards each received."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    order, totals = [], {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            order.append(agent)
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        e.step(action)
    return order, totals


def test_agents_are_named_by_seat_and_spaces_match_the_game():
    e = raw_env("splut", players=4)
    assert e.possible_agents == ["blue_0", "red_1", "green_2", "yellow_3"]
    e.reset()
    assert e.action_space("red_1").n == 49
    assert e.observation_space("red_1")["observation"].shape == (27, 9, 9)
    assert raw_env("qilin").possible_agents == ["red_0", "black_1"]


def test_a_multi_decision_turn_selects_the_same_agent_again():
    e = env("qawale")
    order, _ = play(e, seed=0)
    # Dark chooses a stack, then sows it: at least three decisions in a row.
    assert order[:3] == ["dark_0"] * 3


def test_rewards_are_the_ludus_returns_at_the_end():
    for seed in range(5):
        e = raw_env("replica")
        _, totals = play(e, seed)
        assert sorted(totals.values()) == [-1.0, 1.0]
        assert list(totals.values()) == e.game.returns()


def test_eliminated_splut_seats_leave_while_the_others_play_on():
    for seed in range(40):
        e = raw_env("splut", players=4, max_turns=400)
        rng = random.Random(seed)
        e.reset(seed=seed)
        left_early = None
        for agent in e.agent_iter():
            observation, reward, termination, _, _ = e.last()
            if termination and not e.game.is_over():
                left_early = (agent, reward)
            e.step(None if termination else
                   rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            if left_early:
                break
        if left_early:
            agent, reward = left_early
            assert reward == pytest.approx(-1 / 3)
            seat = e.possible_agents.index(agent)
            assert not e.game.seats_in_play()[seat]
            assert agent not in e.agents and not e.game.is_over()
            assert e.agent_selection in e.agents
            return
    pytest.fail("no seat was eliminated in 40 random four-player games")


def test_render_shows_the_board_as_text():
    e = raw_env("yoxii", render_mode="ansi")
    e.reset()
    assert "White" in e.render()
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("yoxii", render_mode="human")
    with pytest.raises(ValueError, match="unknown game"):
        raw_env("go")
