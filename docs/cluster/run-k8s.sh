#!/bin/bash
# Runs the arena Job, then the merge Job once every shard succeeded. `kubectl wait` for
# `complete` alone would sit out its whole timeout on a Job that failed, so a second wait
# watches for `failed`, and whichever answers first decides.
set -euo pipefail
kubectl apply -f results-pvc.yaml
kubectl apply -f arena-job.yaml
kubectl wait --for=condition=complete job/ludus-arena --timeout=3h &
complete=$!
kubectl wait --for=condition=failed job/ludus-arena --timeout=3h &
failed=$!
if wait -n "$complete" "$failed" && ! kill -0 "$complete" 2>/dev/null; then
  kill "$failed" 2>/dev/null || true
else
  kill "$complete" "$failed" 2>/dev/null || true
  echo "ludus-arena failed: kubectl describe job/ludus-arena" >&2
  exit 1
fi
kubectl apply -f merge-job.yaml
kubectl wait --for=condition=complete job/ludus-merge --timeout=15m
kubectl logs job/ludus-merge
