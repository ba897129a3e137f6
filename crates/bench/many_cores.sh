#!/usr/bin/env bash
# The figures of docs/SCALING.md that need more than two cores, in one run of about four
# minutes on a 16-core machine, each as JSON lines in OUT_DIR:
#
# - mcts.jsonl: MCTS iterations per second at 1, 2, 4, 8 and 16 threads, on one tree and a
#   tree each, every game from three fixed positions, with where the threads met
#   (`mcts_scaling`, "Search threads on 16 cores"); mcts_hold4096.jsonl: one tree again, its
#   updates held back from 4,096 visits ("Updates held back from 16 visits");
#   mcts_spread1.jsonl, mcts_spread05.jsonl: one tree with every thread's exploration alike,
#   and spread from c down to c/2 ("Threads apart by their exploration");
# - alphabeta.jsonl: alpha-beta (Lazy SMP) nodes per second at 1, 4 and 16 threads
#   (`ludus bench --agent`);
# - loadtest.jsonl: the unpaced load test with everything on two of the cores, then on all
#   (`ludus-loadtest --spawn --json`, "The changed cells from the rules");
# - machine.txt: the processor and the load before the runs.
#
# Usage: crates/bench/many_cores.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds `ludus`, `ludus-loadtest` and `mcts_scaling`, release builds of this tree:
#
#   cargo build --release -p ludus -p ludus-loadtest
#   cargo build --release -p ludus-ai --features bench-examples --example mcts_scaling
#   mkdir -p .bin && cp target/release/{ludus,ludus-loadtest} target/release/examples/mcts_scaling .bin/
#   strip .bin/*    # the three fit in a few tens of MiB without their debug information
#
# The script only reads BIN_DIR and writes OUT_DIR; each run is bounded by its own time
# limit, so a machine shared with other work gives lower figures, never a hang.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 BIN_DIR OUT_DIR" >&2
    exit 2
fi
bin=$1
out=$2
mkdir -p "$out"
for program in ludus ludus-loadtest mcts_scaling; do
    if [[ ! -x "$bin/$program" ]]; then
        echo "$0: $bin/$program is missing or not executable (see the build commands above)" >&2
        exit 2
    fi
done

{
    nproc
    grep -m1 'model name' /proc/cpuinfo || true
    uptime
} > "$out/machine.txt"

# Threads beyond the machine's cores would measure its scheduler, not the search.
cores=$(nproc)
threads=1
for t in 2 4 8 16; do
    if ((t <= cores)); then threads+=",$t"; fi
done

"$bin/mcts_scaling" 0.5 3 "$threads" tree,root ai:mcts > "$out/mcts.jsonl"
# One tree with updates held back only from 4,096 visits (the default before 16), for the
# comparison at 16 threads that two cores could only count.
"$bin/mcts_scaling" 0.5 1 "$threads" tree ai:mcts:hold=4096 > "$out/mcts_hold4096.jsonl"
# The threads' exploration constants alike (the default before `spread`), and from c down to
# c/2, five times the default's range: two cores could not show how far apart 16 threads
# need to be.
"$bin/mcts_scaling" 0.5 1 "$threads" tree ai:mcts:spread=1 > "$out/mcts_spread1.jsonl"
"$bin/mcts_scaling" 0.5 1 "$threads" tree ai:mcts:spread=0.5 > "$out/mcts_spread05.jsonl"

: > "$out/alphabeta.jsonl"
for game in qilin splut qawale replica yoxii; do
    for t in 1 4 16; do
        ((t <= cores)) || continue
        rate=$("$bin/ludus" bench "$game" --seconds 0.1 --positions 3 \
            --agent "ai:alphabeta:time=1,threads=$t" | awk '/^nodes\/s:/ {print $2}')
        printf '{"game":"%s","threads":%d,"nodes_per_second":%s}\n' "$game" "$t" "${rate:-null}" \
            >> "$out/alphabeta.jsonl"
    done
done

: > "$out/loadtest.jsonl"
if ((cores >= 2)); then
    taskset -c 0,1 "$bin/ludus-loadtest" --spawn --server-bin "$bin/ludus" --games 1000 \
        --seconds 12 --json >> "$out/loadtest.jsonl"
fi
"$bin/ludus-loadtest" --spawn --server-bin "$bin/ludus" --games 1000 --seconds 12 --json \
    >> "$out/loadtest.jsonl"
