#!/usr/bin/env bash
# usage: docs/scripts/proxy_check.sh [LUDUS_BINARY]
#
# Runs `ludus serve` behind the reverse proxies of docs/deploy/ on loopback, with TLS from a
# throwaway self-signed certificate for games.example.org: nginx (docs/deploy/nginx.conf)
# and, when it is installed, Caddy (docs/deploy/Caddyfile). Each proxy runs a test copy of
# the file in which only the certificate, the ports and the listen addresses are changed.
# Through each proxy it checks: the plain-HTTP redirect, the page, /healthz (HTTP/1.1 and
# HTTP/2), POSTs (a game; a sign-up whose cookie is Secure; a change signed in by that cookie
# with the page's Origin), the WebSocket upgrades of /api/lobby/ws and /api/games/ID/ws (101
# and the first frame), a body over 1 MiB refused, and that the server's request log names
# the client as the proxy saw it: curl connects from 127.0.0.2 while the proxy reaches the
# server from 127.0.0.1, and an X-Forwarded-For the client forges never shows.
# Then, as docs/DEPLOY.md says: `ludus admin backup` while the server runs, a server started
# on the copy serves the game, and SIGTERM stops the server with status 0 and its
# write-ahead log folded into the database.
#
# Needs nginx, openssl and curl (caddy optional). Prints one line per check; exit status 0
# when every check passed. The binary defaults to target/release/ludus, else target/debug/ludus.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
bin=${1:-}
if [ -z "$bin" ]; then
  bin=target/release/ludus
  [ -x "$bin" ] || bin=target/debug/ludus
fi
bin=$(realpath "$bin")
for tool in nginx openssl curl; do
  command -v "$tool" >/dev/null || { echo "proxy_check: $tool is not installed"; exit 2; }
done

name=games.example.org
dir=$(mktemp -d)
failed=0
pids=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  if [ "$failed" = 0 ]; then rm -rf "$dir"; else echo "proxy_check: logs kept in $dir"; fi
}
trap cleanup EXIT

pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }
expect() { # expect WHAT GOT WANTED(regex)
  if [[ $2 =~ $3 ]]; then pass "$1: $2"; else fail "$1: got '$2', expected /$3/"; fi
}
free_port() { # the first port from $1 on that nobody listens on
  local port=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}
wait_port() {
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
start_server() { # start_server DB LOG: sets $server_pid and $server_port
  "$bin" serve --addr 127.0.0.1:0 --db "$1" --allow-host "$name" --trust-proxy \
    --connections-per-client 0 --public-url "https://$name" --log info >"$dir/out" 2>"$2" &
  server_pid=$!
  pids+=("$server_pid")
  local url=""
  for _ in $(seq 100); do url=$(head -n1 "$dir/out" 2>/dev/null); [ -n "$url" ] && break; sleep 0.1; done
  [ -n "$url" ] || { echo "proxy_check: the server did not start:"; cat "$2"; exit 1; }
  server_port=${url##*:}; server_port=${server_port%/}
}

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null \
  || { echo "proxy_check: openssl could not make a certificate"; exit 2; }
db=$dir/games.sqlite3
start_server "$db" "$dir/server.log"
echo "ludus serve on 127.0.0.1:$server_port (database $db)"

# check PROXY HTTPS_PORT HTTP_PORT: every check through one proxy.
check() {
  local proxy=$1 port=$2 http_port=$3 base="https://$name:$2" origin
  origin="Origin: https://$name:$2"
  local c=(curl -sS --max-time 10 --resolve "$name:$port:127.0.0.1" --resolve "$name:$http_port:127.0.0.1"
    --cacert "$dir/cert.pem" --interface 127.0.0.2)
  echo "-- through $proxy (https on 127.0.0.1:$port)"
  expect "$proxy: plain http redirects to https" \
    "$("${c[@]}" -o /dev/null -w '%{http_code} %{redirect_url}' "http://$name:$http_port/lobby")" \
    "^30[18] https://$name(:[0-9]+)?/lobby$"
  expect "$proxy: GET / (the page)" \
    "$("${c[@]}" -o "$dir/page" -w '%{http_code}' "$base/") $(grep -ci '<!doctype html' "$dir/page")" '^200 1$'
  expect "$proxy: GET /healthz" "$("${c[@]}" -w ' %{http_code}' "$base/healthz")" '^\{"ok":true\} 200$'
  expect "$proxy: GET /healthz over HTTP/2" \
    "$("${c[@]}" --http2 -o /dev/null -w 'HTTP/%{http_version} %{http_code}' "$base/healthz")" '^HTTP/2 200$'
  local created id
  created=$("${c[@]}" -H "$origin" -w ' %{http_code}' "$base/api/games" \
    -d '{"game":"qawale","players":["human","ai:1"],"names":["Ana"]}')
  expect "$proxy: POST /api/games (with the page's Origin)" "$created" '"id":"[0-9a-f]+".* 201$'
  id=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' <<<"$created")
  local user="ana_$proxy" jar="$dir/jar-$proxy"
  local signup
  signup=$("${c[@]}" --http2 -H "$origin" -c "$jar" -D "$dir/signup-headers-$proxy" -o /dev/null \
    -w 'HTTP/%{http_version} %{http_code}' "$base/api/account/signup" \
    -d "{\"name\":\"$user\",\"password\":\"correct horse battery\"}")
  expect "$proxy: POST /api/account/signup over HTTP/2" "$signup" '^HTTP/2 201$'
  expect "$proxy: the session cookie is Secure (--public-url https://…)" \
    "$(grep -i '^set-cookie: ludus_session=' "$dir/signup-headers-$proxy" | grep -io '; *secure' | head -n1 | tr -d ' ')" '^;[Ss]ecure$'
  expect "$proxy: POST signed in by the cookie, with the page's Origin (Host passed as the browser sent it)" \
    "$("${c[@]}" -H "$origin" -b "$jar" -w ' %{http_code}' "$base/api/account/about" -d '{"about":"hello"}')" ' 200$'
  local ws=(-i -N --http1.1 --max-time 3 -H 'Connection: Upgrade' -H 'Upgrade: websocket'
    -H 'Sec-WebSocket-Version: 13' -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==')
  "${c[@]}" "${ws[@]}" "$base/api/lobby/ws" >"$dir/ws-lobby-$proxy" 2>/dev/null
  expect "$proxy: WebSocket /api/lobby/ws" \
    "$(head -n1 "$dir/ws-lobby-$proxy" | tr -d '\r') $(grep -ac '"type":"seeks"' "$dir/ws-lobby-$proxy")" \
    '^HTTP/1.1 101 Switching Protocols [1-9]'
  "${c[@]}" "${ws[@]}" "$base/api/games/$id/ws" >"$dir/ws-game-$proxy" 2>/dev/null
  expect "$proxy: WebSocket /api/games/$id/ws" \
    "$(head -n1 "$dir/ws-game-$proxy" | tr -d '\r') $(grep -ac '"type":"snapshot"' "$dir/ws-game-$proxy")" \
    '^HTTP/1.1 101 Switching Protocols [1-9]'
  head -c 1500000 /dev/zero | tr '\0' 'x' >"$dir/big"
  expect "$proxy: a 1.5 MB body is refused" \
    "$("${c[@]}" -o /dev/null -w '%{http_code}' -H "$origin" --data-binary @"$dir/big" "$base/api/games")" '^413$'
  "${c[@]}" -o /dev/null -H 'X-Forwarded-For: 203.0.113.9' "$base/api/games/forged$proxy"
  sleep 0.3
  expect "$proxy: the server logs the client's address, not the forged X-Forwarded-For" \
    "$(grep -a "path=/api/games/forged$proxy " "$dir/server.log" | grep -o 'client=[^}]*' | head -n1)" \
    '^client=127\.0\.0\.2$'
  expect "$proxy: every request through it logged with client=127.0.0.2" \
    "$(grep -a "request{" "$dir/server.log" | grep -ac 'client=127\.0\.0\.1}') lines with client=127.0.0.1" '^0 lines'
}

# nginx: the test copy of docs/deploy/nginx.conf, included by a minimal main file.
nginx_https=$(free_port 18443)
nginx_http=$(free_port 18080)
sed -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$server_port;|" \
  -e "s|listen 80;|listen 127.0.0.1:$nginx_http;|" \
  -e "s|listen 443 ssl http2;|listen 127.0.0.1:$nginx_https ssl http2;|" \
  -e '/listen \[::\]/d' \
  -e "s|/etc/letsencrypt/live/$name/fullchain.pem|$dir/cert.pem|" \
  -e "s|/etc/letsencrypt/live/$name/privkey.pem|$dir/key.pem|" \
  docs/deploy/nginx.conf >"$dir/ludus.conf"
for changed in "127.0.0.1:$server_port" "127.0.0.1:$nginx_http;" "127.0.0.1:$nginx_https ssl" "$dir/cert.pem" "$dir/key.pem"; do
  grep -qF "$changed" "$dir/ludus.conf" || { echo "proxy_check: docs/deploy/nginx.conf changed shape ($changed not substituted)"; exit 1; }
done
mkdir -p "$dir/nginx-temp"
{
  [ "$(id -u)" = 0 ] && echo "user root;"
  cat <<EOF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
events { worker_connections 256; }
http {
  access_log $dir/nginx-access.log;
  client_body_temp_path $dir/nginx-temp/body;
  proxy_temp_path $dir/nginx-temp/proxy;
  fastcgi_temp_path $dir/nginx-temp/fastcgi;
  uwsgi_temp_path $dir/nginx-temp/uwsgi;
  scgi_temp_path $dir/nginx-temp/scgi;
  include $dir/ludus.conf;
}
EOF
} >"$dir/nginx.conf"
if nginx -t -q -e "$dir/nginx-error.log" -p "$dir" -c "$dir/nginx.conf"; then
  pass "nginx -t on docs/deploy/nginx.conf (test copy)"
  nginx -e "$dir/nginx-error.log" -p "$dir" -c "$dir/nginx.conf"
  wait_port "$nginx_https" && check nginx "$nginx_https" "$nginx_http"
else
  fail "nginx -t on docs/deploy/nginx.conf (test copy)"
fi

# Caddy: the test copy of docs/deploy/Caddyfile with the certificate, ports and no admin API.
if command -v caddy >/dev/null; then
  caddy_https=$(free_port 19443)
  caddy_http=$(free_port 19080)
  {
    printf '{\n\tadmin off\n\thttp_port %s\n\thttps_port %s\n\tstorage file_system %s\n}\n\n' \
      "$caddy_http" "$caddy_https" "$dir/caddy-data"
    sed -e "s|^$name {|&\n\ttls $dir/cert.pem $dir/key.pem|" \
      -e "s|reverse_proxy 127.0.0.1:8080|reverse_proxy 127.0.0.1:$server_port|" docs/deploy/Caddyfile
  } >"$dir/Caddyfile"
  if XDG_DATA_HOME=$dir XDG_CONFIG_HOME=$dir caddy validate --config "$dir/Caddyfile" --adapter caddyfile >"$dir/caddy-validate.log" 2>&1; then
    pass "caddy validate on docs/deploy/Caddyfile (test copy)"
    XDG_DATA_HOME=$dir XDG_CONFIG_HOME=$dir caddy run --config "$dir/Caddyfile" --adapter caddyfile >"$dir/caddy.log" 2>&1 &
    pids+=("$!")
    wait_port "$caddy_https" && check caddy "$caddy_https" "$caddy_http"
  else
    fail "caddy validate on docs/deploy/Caddyfile (test copy): $(tail -n1 "$dir/caddy-validate.log")"
  fi
else
  echo "-- caddy is not installed: its checks are skipped"
fi

echo "-- backup, restore, stop"
games=$("$bin" admin --db "$db" games | wc -l)
if "$bin" admin --db "$db" backup "$dir/backup.sqlite3" >/dev/null; then
  expect "ludus admin backup while the server runs: the copy lists as many games" \
    "$("$bin" admin --db "$dir/backup.sqlite3" games | wc -l) of $games" "^$games of $games\$"
  expect "ludus admin check on the copy" "$("$bin" admin --db "$dir/backup.sqlite3" check >/dev/null 2>&1; echo "status $?")" '^status 0$'
else
  fail "ludus admin backup while the server runs"
fi
first_id=$("$bin" admin --db "$db" --json games | grep -o '"id":"[0-9a-f]*"' | head -n1 | cut -d'"' -f4)
kill -TERM "$server_pid"
wait "$server_pid"
status=$?
expect "SIGTERM stops the server" "status $status" '^status 0$'
expect "the write-ahead log is folded into the database" \
  "$(stat -c %s "$db-wal" 2>/dev/null || echo absent)" '^(0|absent)$'
start_server "$dir/backup.sqlite3" "$dir/restored.log"
expect "a server started on the backup serves game $first_id" \
  "$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$server_port/api/games/$first_id")" '^200$'

if [ "$failed" = 0 ]; then echo "proxy_check: every check passed"; else echo "proxy_check: some checks failed"; fi
exit "$failed"
