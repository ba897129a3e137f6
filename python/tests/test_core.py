"""The core API: action ids and notation round trips over random games, returns against the
Rust outcome, constant observation shapes, records, agents, and errors for bad input."""

import copy
import pickle

import numpy as np
import pytest

import ludus
from conftest import random_game


def test_games_lists_every_game_once_with_options_and_defaults():
    games = {g["id"]: g for g in ludus.games()}
    assert len(games) == len(ludus.games()) == len(ludus.game_ids())
    for game in games.values():
        g = ludus.new_game(game["id"])
        assert g.num_players == game["min_players"] and len(game["seats"]) == g.num_players
        for option in game["options"]:
            assert g.options[option["name"]] == option["default"], (game["id"], option)
    splut = games["splut"]
    assert (splut["min_players"], splut["max_players"]) == (2, 4)
    assert games["qilin"]["seats"] == ["Red", "Black"]
    players = next(o for o in splut["options"] if o["name"] == "players")
    assert (players["kind"], players["min"], players["max"], players["default"]) == (
        "range", 2, 4, "2")
    sight = next(o for o in games["replica"]["options"] if o["name"] == "sight")
    assert sight["values"] == ["forward3", "all8"] and sight["default"] == "forward3"


def test_every_legal_action_and_its_notation_round_trip(variant):
    game, options = variant

    def check(g):
        actions, moves = g.legal_actions(), g.legal_moves()
        assert actions == sorted(set(actions)) and len(moves) == len(actions)
        assert all(0 <= a < g.num_distinct_actions for a in actions)
        for action, move in zip(actions, moves):
            assert g.action_to_move(action) == move
            assert g.move_to_action(move) == action

    for seed in range(3):
        g = random_game(game, options, seed, check)
        assert g.legal_actions() == [] and g.legal_moves() == []


def test_returns_follow_the_rust_outcome_and_sum_to_zero(variant):
    game, options = variant
    for seed in range(5):
        g = random_game(game, options, seed)
        returns, outcome = g.returns(), g.outcome
        assert g.to_move is None and outcome is not None
        assert len(returns) == g.num_players and abs(sum(returns)) < 1e-9
        if outcome.winner is None:
            # A draw is shared equally by the seats still in; after a Splut! knock-out the
            # seats out lose what the others share.
            assert outcome.is_draw and len({r for r in returns if r >= 0}) == 1, returns
        else:
            assert returns[outcome.winner] == 1.0
            assert all(r < 0 for i, r in enumerate(returns) if i != outcome.winner)


def test_observation_shapes_stay_constant_over_whole_games(variant):
    game, options = variant
    shape = ludus.new_game(game, options).observation_shape

    def check(g):
        for seat in range(g.num_players):
            tensor = g.observation_tensor(seat)
            assert tensor.shape == shape and tensor.dtype == np.float32
            assert tensor.min() >= 0.0 and tensor.max() <= 1.0

    random_game(game, options, 1, check)


def test_a_multi_decision_turn_keeps_the_seat_and_counts_one_turn():
    g = ludus.new_game("yoxii")
    g.apply(g.move_to_action("d5"))
    assert (g.to_move, g.turn) == (0, 0)
    g.apply(g.move_to_action("3@d4"))
    assert (g.to_move, g.turn) == (1, 1)
    assert g.history() == ["d5 3@d4"]
    assert g.actions() == [25, 49 + 2 * 49 + 24]


def test_whole_turns_in_notation_and_positions():
    g = ludus.new_game("qawale")
    assert g.apply_move("a1:NEN") == 4
    assert g.position() == "NN,-,-,NN/-,D,-,-/N,N,-,-/-,-,-,NN L"
    again = ludus.from_position("qawale", g.position())
    assert again.legal_moves() == g.legal_moves() and again.key == g.key


def test_clones_copies_and_pickles_are_independent():
    g = ludus.new_game("replica")
    for other in (g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        other.apply(other.legal_actions()[0])
        assert other.turn == 1 and g.turn == 0
    g.apply_move("b4-c5")
    restored = pickle.loads(pickle.dumps(g))
    assert restored.position() == g.position() and restored.history() == ["b4-c5"]


def test_options_seed_and_first_player():
    assert ludus.new_game("qilin", {"min_pieces": 3}).options["min_pieces"] == "3"
    assert ludus.new_game("splut", {"players": 4}).num_players == 4
    assert ludus.new_game("yoxii", {"first_player": "red"}).to_move == 1
    firsts = {ludus.new_game("qawale", {"first_player": "random"}, seed=s).to_move
              for s in range(16)}
    assert firsts == {0, 1}


@pytest.mark.parametrize("call, error", [
    (lambda: ludus.new_game("chess"), "unknown game 'chess'"),
    (lambda: ludus.new_game("qilin", {"min_pieces": 9}), "min_pieces"),
    (lambda: ludus.new_game("qilin", {"colour": "red"}), "colour"),
    (lambda: ludus.new_game("splut", {"size": 10}), "size"),
    (lambda: ludus.from_position("replica", "not a position"), "expected 8 ranks"),
    (lambda: ludus.new_game("qawale").apply(20), "not a legal action id"),
    (lambda: ludus.new_game("qawale").apply(-1), "non-negative"),
    (lambda: ludus.new_game("qawale").apply(2**40), "non-negative"),
    (lambda: ludus.new_game("qawale").apply_move("z9"), "z9"),
    (lambda: ludus.new_game("qawale").move_to_action(""), "expected a square"),
    (lambda: ludus.new_game("qawale").action_to_move(1), "not a legal action id"),
    (lambda: ludus.new_game("qawale").observation_tensor(2), "bad seat 2"),
    (lambda: ludus.new_game("qawale").seat_name(-1), "bad seat -1"),
    (lambda: ludus.new_game("qawale").resign(7), "bad seat 7"),
    (lambda: ludus.agent("ai:9"), "expected human, ai:LEVEL"),
    (lambda: ludus.agent("ai:alphabeta:depth=x"), "depth"),
    (lambda: ludus.from_json("{}"), "not a ludus game record"),
])
def test_bad_input_raises_value_errors_with_a_message(call, error):
    with pytest.raises(ValueError, match=error):
        call()


def test_illegal_moves_raise_illegal_move_and_change_nothing():
    g = ludus.new_game("replica")
    before = g.position()
    with pytest.raises(ludus.IllegalMove):
        g.apply_move("a1-h8")
    with pytest.raises(ludus.IllegalMove):
        g.apply(4159)
    assert g.position() == before and g.actions() == []
    g.resign(0)
    assert g.is_over() and g.outcome.winner == 1
    with pytest.raises(ludus.IllegalMove, match="over"):
        g.apply(0)
    with pytest.raises(ValueError, match="over"):
        ludus.agent("ai:1").choose(g)


def test_agents_choose_legal_actions_in_every_game():
    for game in ludus.game_ids():
        g = ludus.new_game(game)
        agent = ludus.agent("ai:alphabeta:depth=2")
        for _ in range(6):
            if g.is_over():
                break
            action = agent.choose(g)
            assert action in g.legal_actions()
            g.apply(action)
    assert ludus.agent("ai:4").spec == "ai:alphabeta"
    g = ludus.new_game("splut", {"players": 4})
    assert ludus.agent("ai:5:time=0.05").choose(g) in g.legal_actions()


def test_random_playouts_run_in_rust():
    stats = ludus.random_playouts("qilin", 200, seed=3)
    assert stats["games"] == 200 and sum(stats["wins"]) + stats["draws"] == 200
    assert stats["decisions"] >= stats["turns"] > 0 and stats["seconds"] > 0
    assert stats == {**ludus.random_playouts("qilin", 200, seed=3), "seconds": stats["seconds"]}
    four = ludus.random_playouts("splut", 5, options={"players": 4})
    assert len(four["wins"]) == 4


def test_str_draws_the_board():
    text = str(ludus.new_game("replica"))
    assert "a   b   c" in text and "White to move" in text


def test_every_id_of_the_action_space_is_played_or_refused(variant):
    game, options = variant
    g = ludus.new_game(game, options, seed=5)
    for _ in range(3):
        legal = set(g.legal_actions())
        for action in range(g.num_distinct_actions + 2):
            trial = g.clone()
            if action in legal:
                trial.apply(action)
                assert len(trial.actions()) == len(g.actions()) + 1
            else:
                with pytest.raises(ludus.IllegalMove):
                    trial.apply(action)
        for _ in range(7):
            if not g.is_over():
                g.apply(g.legal_actions()[-1])
