"""ludus.VecEnv steps N games in Rust exactly as N separate ludus.Game objects would, writes
its arrays in place, refuses illegal actions without moving any game, gives the same games on
one thread or two, and serves as a Gymnasium VectorEnv."""

import random

import numpy as np
import pytest

import ludus


def _random_actions(legal: np.ndarray, rng: random.Random) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in legal], dtype=np.int64)


@pytest.mark.parametrize("game_id", ludus.game_ids())
def test_a_batch_plays_as_separate_games_do(game_id):
    n, seed = 6, 11
    env = ludus.VecEnv(game_id, n, seed=seed)
    singles = [ludus.new_game(game_id, seed=seed + i) for i in range(n)]
    episodes = [0] * n
    arrays = (env.observations, env.legal, env.rewards, env.terminated, env.to_move)
    rng = random.Random(3)
    ended = 0
    for _ in range(300):
        for i, g in enumerate(singles):
            assert env.to_move[i] == g.to_move
            assert np.array_equal(env.observations[i], g.observation_tensor(g.to_move))
            assert np.flatnonzero(env.legal[i]).tolist() == g.legal_actions()
        actions = _random_actions(env.legal, rng)
        env.step(actions)
        for i, g in enumerate(singles):
            g.apply(int(actions[i]))
            assert env.terminated[i] == g.is_over()
            if g.is_over():
                ended += 1
                assert env.rewards[i].tolist() == pytest.approx(g.returns())
                episodes[i] += 1
                singles[i] = ludus.new_game(game_id, seed=seed + episodes[i] * n + i)
            else:
                assert not env.rewards[i].any()
    assert ended > 0, "no game ended: the resets were not checked"
    assert all(a is b for a, b in zip(arrays, (env.observations, env.legal, env.rewards,
                                               env.terminated, env.to_move)))


def test_an_illegal_action_moves_no_game():
    game_id = ludus.game_ids()[0]
    env = ludus.VecEnv(game_id, 4, seed=1)
    before = env.observations.copy()
    actions = _random_actions(env.legal, random.Random(1))
    illegal = int(np.flatnonzero(~env.legal[2])[0])
    actions[2] = illegal
    with pytest.raises(ValueError, match=f"game 2: action {illegal} is not legal"):
        env.step(actions)
    assert np.array_equal(env.observations, before)
    with pytest.raises(ValueError, match="3 actions for 4 games"):
        env.step(actions[:3])
    with pytest.raises(ValueError, match="expected one action id per game"):
        env.step("a1")
    with pytest.raises(ValueError, match="n=0"):
        ludus.VecEnv(game_id, 0)
    with pytest.raises(ValueError):
        ludus.VecEnv("chess", 4)


def test_two_threads_play_the_same_games_as_one():
    game_id = ludus.game_ids()[-1]
    runs = []
    for threads in (1, 2):
        env = ludus.VecEnv(game_id, 300, seed=5, threads=threads)
        rng = random.Random(9)
        trace = []
        for _ in range(60):
            env.step(_random_actions(env.legal, rng))
            trace.append((env.observations.copy(), env.rewards.copy(), env.terminated.copy()))
        runs.append(trace)
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_the_gymnasium_vector_env_plays_self_play_episodes():
    pytest.importorskip("gymnasium")
    from ludus.gymnasium import LudusVectorEnv

    game_id = ludus.game_ids()[0]
    envs = LudusVectorEnv(game_id, num_envs=8, seed=2)
    observations, infos = envs.reset(seed=2)
    assert observations.shape == envs.observation_space.shape
    rng = random.Random(4)
    finished = 0
    for _ in range(400):
        actions = _random_actions(infos["action_mask"], rng)
        movers = infos["to_move"].copy()
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert rewards.shape == (8,) and not truncated.any()
        for i in np.flatnonzero(terminated):
            finished += 1
            assert rewards[i] == infos["returns"][i][movers[i]]
    assert finished > 0


@pytest.mark.parametrize("game_id", ludus.game_ids())
def test_sample_draws_legal_actions_reproducibly(game_id):
    env = ludus.VecEnv(game_id, 64, seed=3)
    first = env.sample(seed=8)
    assert np.array_equal(first, env.sample(seed=8))
    for _ in range(50):
        actions = env.sample()
        assert env.legal[np.arange(64), actions].all()
        env.step(actions)
