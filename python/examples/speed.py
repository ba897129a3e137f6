"""Random playouts per second: Ludus stepped one action at a time from Python, the same
games through OpenSpiel's Python-game bridge, OpenSpiel's own C++ games stepped from Python,
and ``ludus.random_playouts`` (the whole loop in Rust). Prints the Markdown table of
``docs/PYTHON.md``.

    python examples/speed.py [--seconds 3]
"""

import argparse
import random
import time

import pyspiel

import ludus
import ludus.openspiel  # noqa: F401


def rate(play_one, seconds):
    """Games per second and mean decisions per game of ``play_one`` over ``seconds``."""
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += play_one()
        games += 1
    return games / elapsed, decisions / games


def ludus_step(game, rng):
    def play_one():
        g = ludus.new_game(game)
        n = 0
        while not g.is_over():
            g.apply(rng.choice(g.legal_actions()))
            n += 1
        return n
    return play_one


def spiel_step(name, rng):
    game = pyspiel.load_game(name)

    def play_one():
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n
    return play_one


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rng = random.Random(0)
    rows = []
    for game in ludus.game_ids():
        rows.append((f"Ludus {game}, `Game.apply` from Python", *rate(ludus_step(game, rng), args.seconds)))
    for game in ludus.game_ids():
        rows.append((f"Ludus {game} as OpenSpiel Python game `ludus_{game}`",
                     *rate(spiel_step(f"ludus_{game}", rng), args.seconds)))
    for name in ["nine_mens_morris", "checkers", "breakthrough"]:
        rows.append((f"OpenSpiel C++ `{name}` from Python", *rate(spiel_step(name, rng), args.seconds)))
    for game in ludus.game_ids():
        stats = ludus.random_playouts(game, 1, seed=0)
        n = max(1, int(1.0 / max(stats["seconds"], 1e-6)))
        stats = ludus.random_playouts(game, n, seed=0)
        while stats["seconds"] < args.seconds / 2:
            n *= 2
            stats = ludus.random_playouts(game, n, seed=0)
        rows.append((f"`ludus.random_playouts(\"{game}\")` (loop in Rust)",
                     stats["games"] / stats["seconds"], stats["decisions"] / stats["games"]))
    print("| how | playouts/s | decisions/game |")
    print("|---|---:|---:|")
    for how, games, decisions in rows:
        print(f"| {how} | {games:,.0f} | {decisions:.0f} |")


if __name__ == "__main__":
    main()
