#!/usr/bin/env python3
"""Random playouts per CPU-second, Ludus beside OpenSpiel, on one thread.

Ludus: `ludus bench GAME --seconds S` under `/usr/bin/time`, so that the rate is divided by
the process's CPU seconds (user + system), not by the wall clock, which means little on a
loaded machine. OpenSpiel (the pinned `open_spiel==2.0.2`): C++ states stepped two ways,
and the faster one counts, since Python's overhead would otherwise be charged to OpenSpiel:

- `cpp`: `pyspiel.evaluate_bots` with uniform random bots plays a whole game in C++ (each
  decision lists the legal actions and the bot draws one);
- `python`: a Python loop of `state.legal_actions()` and `state.apply_action(..)`.

Both time one thread with `time.process_time()`. The Python loop also gives the mean game
length in decisions (`evaluate_bots` does not say), which turns OpenSpiel's playouts into
decisions.

The ratios printed at the end are the issue's: decisions per CPU-second of the Ludus game over
those of its nearest OpenSpiel game (a decision is an action in both), and for the pair marked
`per game` playouts over playouts, since a game of the one is far longer than a game of the
other in decisions while both are one game.

Run from the repository root after `cargo build --release -p ludus`:

    nice -n 10 python3 crates/games/benches/openspiel_side_by_side.py --seconds 10
    python3 crates/games/benches/openspiel_side_by_side.py --seconds 5 --rounds 5 --only "splut 2p"

With `--rounds N` every pair is measured N times, the two sides of a pair one right after the
other in each round, and each ratio is given as the median of its rounds with the lowest and
highest: a ratio near a goal moves by a few per cent from one run to the next (OpenSpiel's
figure as much as Ludus's), and a single run cannot tell which side of the goal it lies on.

Needs `pip install open_spiel==2.0.2`.
"""

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import time

# Each Ludus bench beside its nearest OpenSpiel game: (label, ludus game, options, openspiel
# game, how the ratio is taken). The pairs follow the issue: board, branching and game length.
PAIRS = [
    ("qilin", "qilin", [], "nine_mens_morris", "decision"),
    ("replica", "replica", [], "checkers", "decision"),
    ("yoxii", "yoxii", [], "breakthrough", "decision"),
    ("splut 2p", "splut", [], "quoridor", "decision"),
    ("splut 4p", "splut", ["players=4"], "quoridor", "decision"),
    ("qawale", "qawale", [], "connect_four", "game"),
]


def openspiel_rates(name, seconds, seed):
    """Playouts per CPU-second (the faster of the two ways) and the mean game length."""
    import pyspiel  # imported here so that --help works without OpenSpiel

    game = pyspiel.load_game(name)
    start = game.new_initial_state()
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    clock = time.process_time()
    games = 0
    while time.process_time() - clock < seconds:
        pyspiel.evaluate_bots(start.clone(), bots, seed + games)
        games += 1
    cpp = games / (time.process_time() - clock)

    rng = random.Random(seed)
    clock = time.process_time()
    games = decisions = 0
    while time.process_time() - clock < seconds:
        state = start.clone()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            decisions += 1
        games += 1
    python = games / (time.process_time() - clock)
    return max(cpp, python), "cpp" if cpp >= python else "python", decisions / games


def ludus_rates(binary, game, options, seconds):
    """Playouts per CPU-second and the mean game length in decisions, from `ludus bench`."""
    command = ["/usr/bin/time", "-f", "cpu %U %S", binary, "bench", game, "--json"]
    command += ["--seconds", str(seconds)]
    for option in options:
        command += ["--option", option]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    playouts = json.loads(run.stdout)["playouts"]
    user, system = re.search(r"^cpu ([\d.]+) ([\d.]+)$", run.stderr, re.M).groups()
    return playouts["games"] / (float(user) + float(system)), playouts["mean_decisions"]


def ratio_of(per, rate, length, their_rate, their_length):
    """Ludus over OpenSpiel: playouts over playouts `per` game, else decisions over decisions."""
    if per == "game":
        return rate / their_rate
    return rate * length / (their_rate * their_length)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ludus", default="target/release/ludus", help="the ludus binary")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1, help="measures of every pair (1 to 100)")
    parser.add_argument(
        "--only", action="append", metavar="LABEL",
        help="only this pair, by its Ludus label (repeatable): " + ", ".join(p[0] for p in PAIRS),
    )
    args = parser.parse_args()
    if not 1 <= args.rounds <= 100:
        parser.error(f"--rounds {args.rounds}: expected 1 to 100")
    labels = [pair[0] for pair in PAIRS]
    for label in args.only or []:
        if label not in labels:
            parser.error(f"--only {label!r}: expected one of " + ", ".join(labels))
    pairs = [pair for pair in PAIRS if not args.only or pair[0] in args.only]

    if args.rounds > 1:
        return rounds(args, pairs)
    print(f"{'openspiel game':18} {'way':6} {'playouts/cpu-s':>14} {'length':>7} {'ns/decision':>11}")
    theirs = {}
    for name in sorted({pair[3] for pair in pairs}):
        rate, way, length = openspiel_rates(name, args.seconds, args.seed)
        theirs[name] = (rate, length)
        print(f"{name:18} {way:6} {rate:14.0f} {length:7.1f} {1e9 / (rate * length):11.1f}")
    print()
    print(f"{'ludus game':10} {'playouts/cpu-s':>14} {'length':>7} {'ns/decision':>11}  ratio")
    for label, game, options, nearest, per in pairs:
        rate, length = ludus_rates(args.ludus, game, options, args.seconds)
        ratio = ratio_of(per, rate, length, *theirs[nearest])
        print(
            f"{label:10} {rate:14.0f} {length:7.1f} {1e9 / (rate * length):11.1f}"
            f"  {ratio:5.1f}x {nearest} per {per}"
        )
    return 0


def rounds(args, pairs):
    """Each pair measured `args.rounds` times, its two sides back to back in every round; a
    line a round, then each ratio's median, lowest and highest."""
    ratios = {pair[0]: [] for pair in pairs}
    for number in range(1, args.rounds + 1):
        for label, game, options, nearest, per in pairs:
            their_rate, _, their_length = openspiel_rates(nearest, args.seconds, args.seed + number)
            rate, length = ludus_rates(args.ludus, game, options, args.seconds)
            ratio = ratio_of(per, rate, length, their_rate, their_length)
            ratios[label].append(ratio)
            print(
                f"round {number}: {label:10} {1e9 / (rate * length):7.1f} ns a decision, "
                f"{nearest} {1e9 / (their_rate * their_length):7.1f}: {ratio:5.2f}x per {per}",
                flush=True,
            )
    print()
    for label, values in ratios.items():
        values.sort()
        print(
            f"{label:10} median {statistics.median(values):5.2f}x "
            f"(lowest {values[0]:5.2f}, highest {values[-1]:5.2f}, {len(values)} rounds)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
