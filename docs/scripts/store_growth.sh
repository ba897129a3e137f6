#!/bin/bash
# usage: docs/scripts/store_growth.sh BINARY LABEL RECORD_FILE
# One client posts RECORD_FILE (a finished game) as new games as fast as the default action
# rate lets it (20 a second), for 20 s; prints the database size and the server's VmRSS, then
# restarts the server on the same database and prints its VmRSS again.
bin=$1; label=$2; record=$3
dir=$(mktemp -d); db=$dir/games.sqlite3
start() {
  "$bin" serve --addr 127.0.0.1:0 --db "$db" > "$dir/out" 2>"$dir/err" &
  pid=$!
  for i in $(seq 100); do url=$(head -1 "$dir/out"); [ -n "$url" ] && break; sleep 0.1; done
}
start
body=$(python3 -c "import json,sys; print(json.dumps({'record': json.load(open(sys.argv[1]))}))" "$record")
echo "$body" > "$dir/body.json"
end=$((SECONDS+20)); ok=0; refused=0
while [ $SECONDS -lt $end ]; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' --data-binary @"$dir/body.json" "${url}api/games")
  if [ "$code" = 201 ]; then ok=$((ok+1)); else refused=$((refused+1)); sleep 0.05; fi
done
sleep 1
rss=$(grep VmRSS /proc/$pid/status | awk '{print $2}')
kill -INT $pid; wait $pid
size=$(du -cb "$db"* | tail -1 | cut -f1)
start
sleep 2
rss2=$(grep VmRSS /proc/$pid/status | awk '{print $2}')
kill -INT $pid; wait $pid
echo "$label: created=$ok refused=$refused db_bytes=$size rss_kib=$rss rss_after_restart_kib=$rss2 record_bytes=$(wc -c < "$dir/body.json")"
rm -rf "$dir"
