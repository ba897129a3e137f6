#!/usr/bin/env python3
"""Splits the server threads' CPU samples of a `longgame` profile into parts, each sample
counted once (call-graph shares count a sample under every function of its chain, and the
loopback's delivery runs inside the sends, so those shares overlap). docs/SCALING.md,
"Each sample counted once", gives the figures.

    G='{"players":4,"size":25,"max_turns":0,"repetition":0}'
    perf record -F 4999 -g -o lg.data target/release/examples/longgame 6000 splut "$G"
    perf script -i lg.data --comm tokio-rt-worker -F comm,ip,sym > lg.txt
    python3 crates/bench/server_cpu_split.py lg.txt
"""

import collections
import sys

# The first part whose test a sample's chain passes is the sample's part.
PARTS = [
    ("the loopback delivering into the clients' sockets (inside the sends)",
     lambda syms: "net_rx_action" in syms and ("sendto" in syms or "__send" in syms)),
    ("the sends' own path", lambda syms: "sendto" in syms or "__send" in syms),
    ("epoll_wait: sleeping and waking", lambda syms: "epoll_wait" in syms),
    ("recv", lambda syms: "recv" in syms),
    ("futex", lambda syms: "futex" in syms),
]


def part_of(frames):
    syms = " ".join(frame[1] if len(frame) > 1 else "" for frame in frames)
    for name, test in PARTS:
        if test(syms):
            return name
    return "kernel, other" if frames[0][0].startswith("ffffffff") else "user space"


def main(path):
    parts = collections.Counter()
    for sample in open(path, encoding="utf-8").read().split("\n\n"):
        lines = [line.strip() for line in sample.strip().split("\n") if line.strip()]
        if len(lines) < 2 or not lines[0].startswith("tokio-rt-worker"):
            continue
        parts[part_of([line.split(None, 1) for line in lines[1:]])] += 1
    total = sum(parts.values())
    if total == 0:
        sys.exit(f"{path}: no samples of the server's threads (tokio-rt-worker)")
    for name, count in parts.most_common():
        print(f"{100 * count / total:5.1f} %  {name}")
    print(f"{total} samples")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("expected: server_cpu_split.py PERF_SCRIPT_OUTPUT")
    main(sys.argv[1])
