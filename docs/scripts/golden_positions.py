"""Makes the golden files of the solver test (crates/games/tests/data/GAME.solved).

Plays random games of every two-seat game with the Python package, takes the positions at the
start of each of the last turns, proves them with `ludus solve --json`, and keeps a few of each
value (wins, draws, losses of several distances) that prove within a small node count, so that
`crates/ai/tests/games/golden.rs` proves them again quickly. Run from the repository root:

    python docs/scripts/golden_positions.py target/release/ludus [GAME..]

The output depends only on the seeds below and the rules.
"""

import json
import random
import subprocess
import sys

import ludus

NODE_LIMIT = 200_000
PER_GAME = 8
LAST_TURNS = 6
GAMES_PLAYED = 40


def late_positions(game, seed):
    """Positions at the start of each of a random game's last turns."""
    rng = random.Random(seed)
    g = ludus.new_game(game, seed=seed)
    starts = [g.position()]
    turn = g.turn
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
        if g.turn != turn and not g.is_over():
            turn = g.turn
            starts.append(g.position())
    return starts[-LAST_TURNS:]


def solve(binary, game, position):
    out = subprocess.run(
        [binary, "solve", game, "--position", position, "--json", "--time", "1"],
        capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None
    report = json.loads(out.stdout)
    if report.get("proved") is None or report["nodes"] > NODE_LIMIT:
        return None
    return report["text"]


def main():
    binary = sys.argv[1]
    wanted = sys.argv[2:]
    for info in ludus.games():
        game = info["id"]
        if info["min_players"] > 2 or (wanted and game not in wanted):
            continue
        chosen = {}
        for seed in range(GAMES_PLAYED):
            # At most two positions of a game and two of each value text, for variety.
            from_this_game = 0
            for position in reversed(late_positions(game, seed)):
                text = solve(binary, game, position)
                if text is None or from_this_game == 2:
                    continue
                if sum(1 for t in chosen.values() if t == text) < 2:
                    chosen.setdefault(position, text)
                    from_this_game += 1
            if len(chosen) >= PER_GAME:
                break
        if not chosen:
            print(f"{game}: nothing proved", file=sys.stderr)
            continue
        path = f"crates/games/tests/data/{game}.solved"
        with open(path, "w", encoding="utf-8") as f:
            f.write("# position<TAB>value for the side to move, proved by `ludus solve`;\n")
            f.write("# made by docs/scripts/golden_positions.py (random games, seeds from 0)\n")
            for position, text in list(chosen.items())[:PER_GAME]:
                # A position of several lines on one, as `from_position` reads it back.
                one_line = position.replace("\n", "; ")
                f.write(f"{one_line}\t{text}\n")
        print(f"{game}: {len(chosen)} positions -> {path}")


if __name__ == "__main__":
    main()
