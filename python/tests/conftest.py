"""Shared helpers of the Python test suites: the games and option sets every suite runs,
and seeded random play through the public API."""

import random

import pytest

import ludus



def _typed(text):
    """An option value as OpenSpiel and PettingZoo parameters want it: a number, a flag or a
    word."""
    if text.lstrip("-").isdigit():
        return int(text)
    return {"true": True, "false": False}.get(text, text)


# Every registered game at its defaults, then with each option set its folder declares for
# the tests (``test_variants``): no suite keeps its own list of games.
VARIANTS = [(g["id"], {}) for g in ludus.games()] + [
    (g["id"], {name: _typed(value) for name, value in variant.items()})
    for g in ludus.games()
    for variant in g["test_variants"]
]


def openspiel_name(game, options):
    """The OpenSpiel name of a game with options: ``ludus_splut(players=3)``."""
    args = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                    for k, v in options.items())
    return f"ludus_{game}({args})" if args else f"ludus_{game}"


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
