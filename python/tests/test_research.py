"""What a researcher meets first: agents shared between threads and interrupted by Ctrl-C,
games pickled into worker processes, random first players that vary, multi-seat draws scored
alike everywhere, games capped at their declared length, undo through OpenSpiel, a version."""

import multiprocessing
import pickle
import random
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ludus

pyspiel = pytest.importorskip("pyspiel")
import ludus.openspiel  # noqa: E402,F401  (registers the games)
from ludus.pettingzoo import raw_env  # noqa: E402


def _run_python(code: str, timeout: float) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter; a hang fails the test instead of the suite."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_one_agent_used_from_two_threads_does_not_hang():
    result = _run_python(
        """
        import threading, ludus
        agent = ludus.agent("ai:2")
        def play(n):
            for game in [g for g in ludus.game_ids()] * 2:
                g = ludus.new_game(game, seed=n)
                for _ in range(6):
                    if g.is_over():
                        break
                    g.apply(agent.choose(g))
        threads = [threading.Thread(target=play, args=(n,)) for n in range(2)]
        for t in threads: t.start()
        for t in threads: t.join()
        print("both done")
        """,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "both done" in result.stdout


def test_ctrl_c_stops_a_long_search():
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            # Ctrl-C as a terminal delivers it, whatever this test's own parent left
            # SIGINT as (a shell's background job inherits it ignored).
            "import ludus, signal, sys\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "g = ludus.new_game(ludus.game_ids()[0])\n"
            "print('searching', flush=True)\n"
            "ludus.agent('ai:mcts:time=600').choose(g)\n",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "searching"
    process.send_signal(signal.SIGINT)
    # A search of ten minutes that ignored Ctrl-C would run into this timeout.
    _, stderr = process.communicate(timeout=120)
    assert "KeyboardInterrupt" in stderr, stderr
    assert process.returncode != 0


def _play_pickled(game) -> list:
    """In a worker process: a random game of the unpickled ``game``, its returns."""
    rng = random.Random(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


@pytest.mark.parametrize("game_id", ludus.game_ids())
def test_games_pickle_and_reach_spawned_workers(game_id):
    game = pyspiel.load_game(f"ludus_{game_id}")
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game)
    assert again.get_parameters() == game.get_parameters()
    assert again.num_distinct_actions() == game.num_distinct_actions()
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        returns = pool.apply(_play_pickled, (game,))
    assert len(returns) == game.num_players()
    assert sum(returns) == pytest.approx(0.0)


def _random_first_player_games():
    """(game id, options) of each game that can choose its first player at random."""
    for info in ludus.games():
        for option in info["options"]:
            if option["name"] == "first_player" and "random" in option.get("values", []):
                yield info["id"], {"first_player": "random"}


RANDOM_FIRST = list(_random_first_player_games())


def test_some_game_has_a_random_first_player():
    assert RANDOM_FIRST, "no game offers first_player=random: the tests below check nothing"


@pytest.mark.parametrize("game_id, options", RANDOM_FIRST)
def test_a_random_first_player_varies_between_episodes(game_id, options):
    env = raw_env(game_id, **options)
    firsts = set()
    for _ in range(40):
        env.reset()
        firsts.add(env.agent_selection)
    assert len(firsts) == 2, firsts
    env.reset(seed=5)
    first = env.agent_selection
    env.reset(seed=5)
    assert env.agent_selection == first

    params = ",".join(f"{k}={v}" for k, v in options.items())
    game = pyspiel.load_game(f"ludus_{game_id}({params})")
    assert len({game.new_initial_state().current_player() for _ in range(40)}) == 2
    seeded = [pyspiel.load_game(f"ludus_{game_id}({params},seed=7)") for _ in range(2)]
    sequences = [[g.new_initial_state().current_player() for _ in range(40)] for g in seeded]
    assert sequences[0] == sequences[1]
    assert len(set(sequences[0])) == 2


def _multi_seat_game():
    """The id of a game for three seats, and its options for three."""
    for info in ludus.games():
        if info["max_players"] >= 3:
            return info["id"]
    pytest.skip("no game has three seats")


def test_a_draw_after_a_knockout_is_scored_alike_everywhere():
    game_id = _multi_seat_game()
    options = {"players": 3, "max_turns": 60}
    for seed in range(300):
        rng = random.Random(seed)
        g = ludus.new_game(game_id, options, seed=seed)
        while not g.is_over():
            g.apply(rng.choice(g.legal_actions()))
        if g.outcome.is_draw and not all(g.seats_in_play()):
            break
    else:
        pytest.fail("no drawn game with a seat knocked out in 300 random games")
    # The rules: a draw is shared by the surviving players; the knocked-out seat lost.
    expected = [0.25 if alive else -0.5 for alive in g.seats_in_play()]
    assert g.returns() == pytest.approx(expected)

    params = ",".join(f"{k}={v}" for k, v in options.items())
    state = pyspiel.load_game(f"ludus_{game_id}({params},seed={seed})").new_initial_state()
    for action in g.actions():
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == pytest.approx(expected)

    env = raw_env(game_id, **options)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for action in g.actions():
        while env.agents and (env.terminations[env.agent_selection]):
            env.step(None)
        env.step(action)
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    assert list(totals.values()) == pytest.approx(expected)


def test_a_game_without_draw_rules_stops_at_its_declared_length():
    game_id = _multi_seat_game()
    game = pyspiel.load_game(f"ludus_{game_id}(players=3,max_turns=0,repetition=0)")
    assert game.max_game_length() == 100_000
    # The cap of a real game is out of a test's reach; the same check at a cap of 40.
    rng = random.Random(3)
    for _ in range(5):
        state = game.new_initial_state()
        state._cap = 40
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.move_number() <= 40
        assert sum(state.returns()) == pytest.approx(0.0)
        if not state.game_state.is_over():
            assert state.current_player() == pyspiel.PlayerId.TERMINAL
            assert state.legal_actions() == []
            assert state.returns() == pytest.approx(state.game_state.draw_returns())
    env = raw_env(game_id, players=3, max_turns=0, repetition=0)
    env.reset(seed=3)
    env._cap = 40
    steps = 0
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if termination or truncation else int(rng.choice(mask.nonzero()[0])))
        steps += 1
    assert env._decisions <= 40
    if not env.game.is_over():
        assert all(env.truncations.values())


def test_undo_action_takes_back_decisions_through_openspiel():
    for game_id in ludus.game_ids():
        state = pyspiel.load_game(f"ludus_{game_id}(seed=1)").new_initial_state()
        rng = random.Random(2)
        seen = []
        for _ in range(12):
            if state.is_terminal():
                break
            seen.append((str(state), state.current_player(), state.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
        while seen:
            text, player, legal = seen.pop()
            state.undo_action(player, state.history()[-1])
            assert str(state) == text
            assert state.current_player() == player
            assert state.legal_actions() == legal
        assert state.history() == []
        with pytest.raises(ValueError):
            state.undo_action(0, 0)


def test_the_package_has_a_version():
    assert ludus.__version__.count(".") == 2


def test_an_mcts_analysis_gives_its_visit_shares_as_the_policy():
    game_id = ludus.game_ids()[0]
    g = ludus.new_game(game_id, seed=1)
    found = ludus.agent("ai:mcts:iterations=3000", seed=2).analyse(g)
    policy = found["policy"]
    assert policy.shape == (g.num_distinct_actions,)
    assert policy.sum() == pytest.approx(1.0, abs=1e-5)
    assert set(np.flatnonzero(policy)) <= set(g.legal_actions())
    assert len(np.flatnonzero(policy)) > 1
    assert found["action"] == int(np.argmax(policy))
    assert found["pv"][0] == found["action"] and found["nodes"] == 3000
    assert 0.0 <= (found["value"] + 1) / 2 <= 1.0 and found["evaluation"].endswith("%")
    assert found["move"] == g.action_to_move(found["action"])


def test_an_alpha_beta_analysis_gives_its_line_and_value():
    game_id = ludus.game_ids()[0]
    g = ludus.new_game(game_id, seed=1)
    found = ludus.agent("ai:4:depth=3").analyse(g)
    assert found["depth"] == 3 and found["nodes"] > 0
    assert -1.0 <= found["value"] <= 1.0 and found["evaluation"]
    assert np.flatnonzero(found["policy"]).tolist() == [found["action"]]
    line = g.clone()
    for action in found["pv"]:
        assert action in line.legal_actions()
        line.apply(action)


def test_a_ludus_level_is_an_openspiel_bot_with_a_policy():
    from ludus.openspiel import LudusBot

    game_id = ludus.game_ids()[0]
    state = pyspiel.load_game(f"ludus_{game_id}(seed=1)").new_initial_state()
    bot = LudusBot("ai:mcts:iterations=500", seed=1)
    policy, action = bot.step_with_policy(state)
    assert action in state.legal_actions()
    assert [a for a, _ in policy] == state.legal_actions()
    assert sum(p for _, p in policy) == pytest.approx(1.0, abs=1e-5)
    assert bot.step(state) in state.legal_actions()
