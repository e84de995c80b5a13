#!/bin/sh
# The engine against hostile peers: 'match' against an opponent that floods its output
# before the handshake ('yes garbage') and one that floods 'info' lines once asked to
# move, each bounded by a 60 s timeout; prints each run's exit status, wall time and peak
# RSS (GNU time; the target is a forfeit or a failed handshake in a few seconds under
# 64 MB). Then the latency of 'go movetime 1' through 'duckchess uci', on the first
# search of a process and on later ones (python3 for the stopwatch; the target is a
# few ms from the first search on).
#
# usage: scripts/bench-engine-hostile.sh [PROCESSES]     (default 20 processes of 5 searches)
#   BIN=path/to/duckchess measures another build (an older one, say) with the same runs.
set -eu
processes=${1:-20}
. "$(dirname "$0")/prepare.sh"
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/duckchess}
if ! command -v python3 >/dev/null 2>&1; then
  echo "installing python3 for the latency stopwatch" >&2
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/flood.sh" <<'SCRIPT'
#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo 'id name flood'; echo uciok;;
    isready) echo readyok;;
    go*) yes 'info depth 1 score cp 0 nodes 1 time 1 pv a1a2';;
    quit) exit 0;;
  esac
done
SCRIPT
chmod +x "$work/flood.sh"

hostile() {
  label=$1
  shift
  echo "== match against $label: $*"
  status=0
  /usr/bin/time -f "%e %M" -o "$work/time" timeout 60 "$bin" match "$@" \
    >"$work/out" 2>"$work/err" || status=$?
  grep -E '^game |^engine:' "$work/out" | sed 's/^/   /' || true
  sed 's/^/   stderr: /' "$work/err"
  # GNU time puts "Command exited with non-zero status N" first: the figures are last.
  read -r secs kb <<END
$(tail -n 1 "$work/time")
END
  echo "   exit $status, ${secs:-?} s, peak RSS $(( ${kb:-0} / 1024 )) MB"
}
hostile "yes garbage (floods before the handshake)" \
  --opponent "yes garbage" --movetime 20 --openings 1
hostile "an info flood on go" --opponent "$work/flood.sh" --movetime 20 --openings 1

echo "== go movetime 1: time from 'go' to 'bestmove', $processes processes of 5 searches"
python3 - "$bin" "$processes" <<'PY'
import subprocess, sys, time
exe, runs = sys.argv[1], int(sys.argv[2])

def searches(count):
    p = subprocess.Popen([exe, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)
    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()
    def wait(prefix):
        while not p.stdout.readline().startswith(prefix):
            pass
    send("uci")
    send("isready")
    wait("readyok")
    took = []
    for _ in range(count):
        started = time.perf_counter()
        send("go movetime 1")
        wait("bestmove")
        took.append((time.perf_counter() - started) * 1000)
        send("isready")
        wait("readyok")
    send("quit")
    p.wait()
    return took

first, later = [], []
for _ in range(runs):
    t = searches(5)
    first.append(t[0])
    later += t[1:]
for name, xs in (("first search", first), ("later searches", later)):
    xs.sort()
    print("   %-15s min %5.1f  median %5.1f  max %5.1f ms" %
          (name, xs[0], xs[len(xs) // 2], xs[-1]))
PY
