"""Ludus for Python: five abstract strategy games with fast Rust engines.

Qilin Chess XiaSanZi (``qilin``), Splut! for 2-4 players (``splut``), Qawale (``qawale``),
Replica (``replica``) and Yoxii (``yoxii``). The rules run in Rust; this package gives them
integer action ids and observation tensors for learning algorithms, OpenSpiel games
(``import ludus.openspiel``) and PettingZoo environments (``ludus.pettingzoo.env(...)``).

>>> import ludus
>>> g = ludus.new_game("qawale")
>>> g.apply_move("a1:NEN")
4
>>> g.to_move, g.turn
(1, 1)
>>> action = ludus.agent("ai:2").choose(g)
>>> g.apply(action)

Seats count from 0. Bad input raises ``ValueError`` (``ludus.IllegalMove`` for moves)
with a one-line message saying what was expected.
"""

from ._ludus import (
    __version__,
    Agent,
    Game,
    IllegalMove,
    Outcome,
    VecEnv,
    from_json,
    from_position,
    games,
    load,
    new_game,
    random_playouts,
)

__all__ = [
    "__version__",
    "Agent",
    "Game",
    "IllegalMove",
    "Outcome",
    "VecEnv",
    "agent",
    "from_json",
    "from_position",
    "game_ids",
    "games",
    "load",
    "new_game",
    "random_playouts",
]


def agent(spec: str, seed: int = 0) -> Agent:
    """A Ludus computer player: ``agent("ai:4")``, ``agent("ai:mcts:time=0.2", seed=1)``.

    ``spec`` is ``ai:LEVEL`` (1 random, 2 greedy, 3 minimax, 4 alpha-beta, 5 the strongest per
    game) or ``ai:AGENT:key=value,...`` as on the command line; ``choose(game)`` returns the
    action id it plays for the seat to move.
    """
    return Agent(spec, seed)


def game_ids() -> list:
    """The registry names of the games, in menu order."""
    return [g["id"] for g in games()]
