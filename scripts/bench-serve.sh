#!/bin/sh
# Load test of 'duckchess serve' on loopback: CLIENTS concurrent connections for SECONDS
# seconds per endpoint (wrk, from Debian), each request on a fresh connection as the
# server closes every connection after its answer. Prints requests/s, latency
# percentiles and errors for "legal targets" and "play", the server's resident memory
# after each phase (flat memory: it should not grow), and its peak RSS (GNU time).
#
# usage: scripts/bench-serve.sh [SECONDS] [CLIENTS]     (default: 10 s, 32 clients)
set -eu
seconds=${1:-10}
clients=${2:-32}
. "$(dirname "$0")/prepare.sh"
bin=${CARGO_TARGET_DIR:-target}/release/duckchess
if ! command -v wrk >/dev/null 2>&1; then
  echo "installing wrk (HTTP load generator)" >&2
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi

work=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null || true; rm -rf "$work"' EXIT
mkfifo "$work/stdin"
# The server stops at the end of its standard input: a pipe we hold open until the end.
/usr/bin/time -f "%M" -o "$work/peak" "$bin" serve --port 0 < "$work/stdin" > "$work/out" 2> "$work/err" &
timed=$!
exec 3> "$work/stdin"
for _ in $(seq 100); do
  grep -q http "$work/out" 2>/dev/null && break
  sleep 0.05
done
url=$(grep -o 'http://[^ ]*' "$work/out")
pid=$(pgrep -P "$timed" duckchess)
rss() { awk '/VmRSS/ { print $2 " kB" }' "/proc/$pid/status"; }
echo "server: $url (pid $pid), default limits (8 workers, queue 64)"
echo "load:   wrk, $clients connections, $seconds s per endpoint, machine: $(nproc) cores shared"
echo "rss at start: $(rss)"

# A game of four moves travels with every request, as the page sends it.
moves='[[0,1,2,2],[9,1,7,2],[3,4,4,4],[6,4,5,4]]'
lua() {
  cat > "$work/$1.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$2'
LUA
}
lua targets "{\"moves\":$moves,\"from\":[4,4]}"
lua play "{\"moves\":$moves,\"move\":[4,4,5,4]}"

for phase in targets play; do
  echo
  echo "== $phase: POST /api/$phase"
  wrk -t 2 -c "$clients" -d "${seconds}s" --latency -s "$work/$phase.lua" "${url}api/$phase" \
    > "$work/$phase.txt" 2>&1 || true
  awk '/Requests\/sec|requests in|Non-2xx|Socket errors|Latency  /' "$work/$phase.txt"
  grep -E '^ +(50|90|99)%' "$work/$phase.txt" | sed 's/^ *\([0-9]*\)% *\(.*\)/  latency p\1: \2/'
  grep -q 'Non-2xx\|Socket errors' "$work/$phase.txt" || echo "  errors: none (no socket errors, no non-2xx answers)"
  echo "  rss after $phase: $(rss)"
done

exec 3>&-
wait "$timed" || true
echo
echo "server stopped: $(cat "$work/err")"
echo "peak RSS of the server: $(cat "$work/peak") kB"
