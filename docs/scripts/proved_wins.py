#!/usr/bin/env python3
"""Checks that no player let go of a result it had proved.

Reads the game records that `ludus arena ... --save-games DIR` writes (one JSON file a game,
with a `decisions` list of notes beside the moves) and finds every decision whose note's
score says the player to move had proved a value (`proved win N`, `proved draw`, `proved
loss N`, as UGI writes them). A proved value is exact: playing the proved best decision from
there on, a seat that proved a win must win, and one that proved a draw must not lose. A
game in which a seat proved a win and did not win, or proved a draw and lost, is a
violation.

    python3 docs/scripts/proved_wins.py DIR [DIR...] [--json]

Prints, per player (the spec in the record), the decisions with any proved value, those
with a proved win, the games in which it proved a win, a draw or a loss, and the violations
(file, seat, first proved decision and the result); exits with status 1 when there is a
violation, 2 when a file cannot be read as a record.
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path


def proved(score):
    """`("win", N)`, `("draw", 0)` or `("loss", N)` for a proved score, else None."""
    if not isinstance(score, str):
        return None
    parts = score.split()
    if len(parts) == 3 and parts[:2] in (["proved", "win"], ["proved", "loss"]):
        return (parts[1], int(parts[2])) if parts[2].isdigit() else None
    if parts == ["proved", "draw"]:
        return ("draw", 0)
    return None


def broken(value, seat, winner):
    """Whether a game with `winner` (None: a draw) breaks `value` proved for `seat`."""
    if value == "win":
        return winner != seat
    if value == "draw":
        return winner is not None and winner != seat
    return False


def check_record(path, record, totals, violations):
    """Adds one game's proved values to `totals` and its violations to `violations`."""
    players = record.get("players") or []
    result = record.get("result") or {}
    winner = result.get("winner")
    first_proof = {}
    for number, note in enumerate(record.get("decisions") or [], start=1):
        seat = note["seat"]
        name = players[seat - 1]["kind"] if seat <= len(players) else f"seat {seat}"
        value = proved(note.get("score"))
        if value is None:
            continue
        totals[name]["proved"] += 1
        if value[0] == "win":
            totals[name]["decisions"] += 1
        first_proof.setdefault((seat, value[0]), (number, value[1], name))
    for (seat, value), (number, turns, name) in sorted(first_proof.items()):
        totals[name][f"{value}_games"] += 1
        if broken(value, seat, winner):
            violations.append(
                {
                    "file": str(path),
                    "seat": seat,
                    "player": name,
                    "decision": number,
                    "proved": "draw" if value == "draw" else f"{value} in {turns} turns",
                    "winner": winner,
                    "reason": result.get("reason"),
                }
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="folders of saved records")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    totals = defaultdict(
        lambda: {"proved": 0, "decisions": 0, "win_games": 0, "draw_games": 0, "loss_games": 0}
    )
    violations = []
    games = 0
    for folder in args.dirs:
        if not folder.is_dir():
            print(f"proved_wins: '{folder}' is not a folder of saved games", file=sys.stderr)
            return 2
        for path in sorted(folder.glob("*.json")):
            try:
                record = json.loads(path.read_text())
            except (OSError, ValueError) as error:
                print(f"proved_wins: cannot read '{path}': {error}", file=sys.stderr)
                return 2
            games += 1
            check_record(path, record, totals, violations)
    if args.json:
        summary = {"games": games, "players": totals, "violations": violations}
        print(json.dumps(summary, indent=2))
    else:
        print(f"{games} games")
        for name, counts in sorted(totals.items()):
            print(
                f"{name}: {counts['proved']} decisions with a proved value, "
                f"{counts['decisions']} with a proved win; games with a proved win "
                f"{counts['win_games']}, draw {counts['draw_games']}, loss {counts['loss_games']}"
            )
        print(f"{len(violations)} violations")
        for v in violations:
            print(
                f"  {v['file']}: seat {v['seat']} ({v['player']}) proved {v['proved']} "
                f"at decision {v['decision']}; winner {v['winner']} ({v['reason']})"
            )
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
