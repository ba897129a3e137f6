#!/usr/bin/env python3
"""A small UGI engine for Ludus's tests: it plays a random legal decision, asking
`ludus moves` for the rules (Ludus as a rules oracle). A mode makes it misbehave on its first
`go`: illegal (a move that does not exist), crash (exits), hang (never answers), garbage
(prints a line that is not UGI). slow:MS plays randomly after sleeping MS milliseconds on every
`go`, and answers a `go` without clocks (wtime/btime or p1time...) with an illegal move, so a
test learns that the arena sent the clocks.

Usage: random_ugi.py LUDUS GAME [random|illegal|crash|hang|garbage|slow:MS]
"""
import random
import subprocess
import sys
import time


def legal_moves(ludus, game, fen, moves):
    command = [ludus, "moves", game]
    if fen:
        command += ["--position", fen]
    if moves:
        command += ["--after", " ".join(moves)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return done.stdout.split()


def main():
    ludus, game = sys.argv[1], sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) > 3 else "random"
    rng = random.Random(7)
    fen, moves = None, []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "ugi":
            print("id name random_ugi.py")
            print("id author the Ludus tests")
            print("ugiok")
        elif command == "isready":
            print("readyok")
        elif command == "position":
            split = words.index("moves") if "moves" in words else len(words)
            head, moves = words[1:split], words[split + 1:]
            fen = " ".join(head[1:]) if head[0] == "fen" else None
        elif command == "go":
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode.startswith("slow:"):
                time.sleep(int(mode[5:]) / 1000)
                if not {"wtime", "p1time"} & set(words):
                    print("bestmove no-clocks-given")
                    sys.stdout.flush()
                    continue
            if mode == "garbage":
                print("hello, I am not a UGI line")
            elif mode == "illegal":
                print("bestmove z99")
            else:
                print("info string thinking hard")
                print("info depth 1 score cp 7 nodes 1")
                print("bestmove " + rng.choice(legal_moves(ludus, game, fen, moves)))
        elif command == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
