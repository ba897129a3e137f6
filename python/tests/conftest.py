"""Shared helpers of the Python test suites: the games and option sets every suite runs,
and seeded random play through the public API."""

import random

import pytest

import ludus

# Every game, and Splut! with 3 and 4 players (4 on a bigger board).
VARIANTS = [
    ("qilin", {}),
    ("qilin", {"min_pieces": 3, "protect_lines": True}),
    ("splut", {}),
    ("splut", {"players": 3}),
    ("splut", {"players": 4, "size": 11}),
    ("qawale", {}),
    ("qawale", {"first_player": "random"}),
    ("replica", {}),
    ("replica", {"sight": "all8"}),
    ("yoxii", {}),
    ("yoxii", {"tiebreak": "none"}),
]


def variant_id(variant):
    game, options = variant
    return game + "".join(f"-{k}={v}" for k, v in sorted(options.items()))


@pytest.fixture(params=VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def variant(request):
    return request.param


def random_game(game, options, seed, step=None):
    """Plays a random game to the end, calling ``step(g)`` before every decision."""
    rng = random.Random(seed)
    g = ludus.new_game(game, options, seed=seed)
    while not g.is_over():
        if step is not None:
            step(g)
        g.apply(rng.choice(g.legal_actions()))
    return g
