"""OpenSpiel: each game (and Splut! with 3 and 4 players) passes OpenSpiel's own
random_sim_test with serialization, and OpenSpiel's MCTS plays whole games through
evaluate_bots."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import ludus.openspiel  # noqa: E402,F401  (registers the games)
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

import ludus  # noqa: E402

from conftest import VARIANTS, openspiel_name  # noqa: E402

# Every game and test variant: more simulations at the defaults than for each variant.
GAMES = [(openspiel_name(game, options), 3 if options else 10) for game, options in VARIANTS]


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {f"ludus_{g}" for g in ludus.game_ids()} <= names


@pytest.mark.parametrize("name, sims", GAMES)
def test_openspiel_random_sim_test(name, sims):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_parameters_reach_the_rules():
    game = pyspiel.load_game("ludus_splut(players=4,size=13)")
    assert game.num_players() == 4
    assert game.min_utility() == pytest.approx(-1 / 3) and game.max_utility() == 1.0
    state = game.new_initial_state()
    assert state.observation_tensor(0) and np.array(state.observation_tensor(0)).size == 27 * 13 * 13
    assert game.get_type().parameter_specification["players"] == 2
    qilin = pyspiel.load_game("ludus_qilin")
    assert qilin.num_distinct_actions() == 624
    assert qilin.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert qilin.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_states_match_the_ludus_game_and_serialize():
    game = pyspiel.load_game("ludus_qawale")
    state = game.new_initial_state()
    for notation in ["a1", "N", "E", "N"]:
        action = next(a for a in state.legal_actions()
                      if state.action_to_string(state.current_player(), a) == notation)
        state.apply_action(action)
    assert state.current_player() == 1
    assert state.game_state.position() == "NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L"
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()


# Each game with its first test variant, where it has one: Splut!'s caps a game at 40 turns, as
# MCTS with random rollouts would otherwise play Splut! for up to 1000.
MCTS_GAMES = [openspiel_name(g["id"], (g["test_variants"] or [{}])[0]) for g in ludus.games()]


@pytest.mark.parametrize("name", MCTS_GAMES)
def test_mcts_bots_play_games_to_the_end(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator,
                         random_state=rng) for _ in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == game.num_players() and sum(returns) == pytest.approx(0.0)
