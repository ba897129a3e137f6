#!/usr/bin/env python3
"""Checks that no player lost a won position it had proved.

Reads the game records that `ludus arena ... --save-games DIR` writes (one JSON file a game,
with a `decisions` list of notes beside the moves) and finds every decision whose note's
score says the player to move had proved a win (`proved win N`, as UGI writes it). A
proved win is exact: with the fastest win played from there on, the game must end in that
seat's win. A game in which a seat proved a win and then did not win is a violation.

    python3 docs/scripts/proved_wins.py DIR [DIR...] [--json]

Prints, per player (the spec in the record), the decisions with any proved value (win,
draw or loss), those with a proved win and the games with one, and the violations (file, seat, first proved decision and the result); exits
with status 1 when there is a violation, 2 when a file cannot be read as a record.
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path


def proved_win(score):
    """The distance of a `proved win N` score, or None for any other score."""
    if not isinstance(score, str):
        return None
    parts = score.split()
    if len(parts) == 3 and parts[:2] == ["proved", "win"] and parts[2].isdigit():
        return int(parts[2])
    return None


def check_record(path, record, totals, violations):
    """Adds one game's proved wins to `totals` and its violations to `violations`."""
    players = record.get("players") or []
    result = record.get("result") or {}
    winner = result.get("winner")
    first_proof = {}
    for number, note in enumerate(record.get("decisions") or [], start=1):
        seat = note["seat"]
        name = players[seat - 1]["kind"] if seat <= len(players) else f"seat {seat}"
        score = note.get("score")
        if isinstance(score, str) and score.startswith("proved"):
            totals[name]["proved"] += 1
        turns = proved_win(score)
        if turns is None:
            continue
        totals[name]["decisions"] += 1
        first_proof.setdefault(seat, (number, turns, name))
    for seat, (number, turns, name) in first_proof.items():
        totals[name]["games"] += 1
        if winner != seat:
            violations.append(
                {
                    "file": str(path),
                    "seat": seat,
                    "player": name,
                    "decision": number,
                    "proved": f"win in {turns} turns",
                    "winner": winner,
                    "reason": result.get("reason"),
                }
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="folders of saved records")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    totals = defaultdict(lambda: {"proved": 0, "decisions": 0, "games": 0})
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
                f"{counts['decisions']} with a proved win, in {counts['games']} games"
            )
        print(f"{len(violations)} violations")
        for v in violations:
            print(
                f"  {v['file']}: seat {v['seat']} ({v['player']}) proved a {v['proved']} "
                f"at decision {v['decision']}; winner {v['winner']} ({v['reason']})"
            )
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
