#!/usr/bin/env python3
"""Writes Qilin openings in the endings the 4-a-side tables cover, for `ludus arena --openings`.

Each line is a movement-stage position with four pieces a side on random points and a random
side to move. With `--min-win-turns K`, only positions the tables prove won for the side to
move in at least K turns are kept (asked of `ludus solve --json`): the long wins, where a
search without the tables has the most room to go wrong.

    python3 docs/scripts/qilin_endings.py --count 300 --seed 36 > qilin-4v4.txt
    python3 docs/scripts/qilin_endings.py --count 300 --seed 37 --min-win-turns 12 \\
        --tablebases tb4 > qilin-4v4-long.txt

The same seed and arguments give the same file.
"""

import argparse
import json
import random
import subprocess
import sys


def random_ending(rng):
    points = rng.sample(range(24), 8)
    board = ["."] * 24
    for point in points[:4]:
        board[point] = "R"
    for point in points[4:]:
        board[point] = "B"
    return "".join(board) + " move " + rng.choice("RB") + " 0/0 0"


def proved_win_turns(ludus, tablebases, position):
    """The turns of the stored win of `position` for its side to move, else None."""
    answer = subprocess.run(
        [ludus, "solve", "qilin", "--position", position, "--tablebases", tablebases,
         "--time", "1", "--json"],
        capture_output=True, text=True, check=False)
    if answer.returncode != 0:
        sys.exit(f"qilin_endings.py: ludus solve failed: {answer.stderr.strip()}")
    proved = json.loads(answer.stdout).get("proved")
    return proved["turns"] if proved and proved["value"] == "win" else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--min-win-turns", type=int, default=0,
                        help="keep only wins for the side to move in at least this many turns")
    parser.add_argument("--tablebases", default="tb4", help="the 4-a-side tables")
    parser.add_argument("--ludus", default="ludus", help="the ludus binary")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kept = 0
    while kept < args.count:
        position = random_ending(rng)
        if args.min_win_turns > 0:
            turns = proved_win_turns(args.ludus, args.tablebases, position)
            if turns is None or turns < args.min_win_turns:
                continue
        print(position)
        kept += 1


if __name__ == "__main__":
    main()
