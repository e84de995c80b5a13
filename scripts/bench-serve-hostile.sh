#!/bin/sh
# Hostile clients against 'duckchess serve' on loopback, with figures (no pass or fail):
#
# - the latency of a normal POST /api/targets while 0, 100 and 1,000 idle connections
#   are open (half silent, half with part of a request line sent), and the resident
#   size then; and while 24 clients that asked for a 6 MB replay never read it;
# - the same with 1,000 idle connections to a server limited to 256 descriptors: how
#   many the server closed (the oldest) and whether it still runs;
# - the server's resident size (VmRSS) after, and its peak (VmHWM) during, each of these
#   sequences: 30 replays of a 256 KB judge input (a 10,000-step answer), long games on
#   /api/state, /api/play and /api/load (24,000 moves, beyond the limit, and games at
#   the limit), 3,000 random requests (fuzz), 8 clients replaying at once, and 16
#   clients at once sending the largest JSON body (256 KB of moves, refused with 413);
# - 300 sequential /api/ai requests whose search answers at once: how many got 503.
#
# The peak is reset before each phase through /proc/PID/clear_refs (Linux); where that
# is refused, the peak shown is the process's peak so far.
#
# usage: scripts/bench-serve-hostile.sh [IDLE]   (default 1000: the largest idle count)
# BIN=path runs another binary (for example an older build) instead of building.
set -eu
idle=${1:-1000}
if [ -n "${BIN:-}" ]; then
  bin=$BIN
  cd "$(dirname "$0")/.."
else
  . "$(dirname "$0")/prepare.sh"
  bin=${CARGO_TARGET_DIR:-target}/release/duckchess
fi
command -v python3 >/dev/null 2>&1 || {
  echo "installing python3 (the hostile client)" >&2
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
}

work=$(mktemp -d)
servers=
cleanup() {
  exec 3>&- 4>&- 2>/dev/null || true
  for p in $servers; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
# start NAME FD [ULIMIT]: a server that stops at the end of its standard input, a pipe
# held open on descriptor FD until the end; with ULIMIT, under that descriptor limit.
start() {
  mkfifo "$work/$1.stdin"
  if [ -n "${3:-}" ]; then
    sh -c 'ulimit -n "$1" && exec "$2" serve --port 0' sh "$3" "$bin" \
      < "$work/$1.stdin" > "$work/$1.out" 2> "$work/$1.err" &
  else
    "$bin" serve --port 0 < "$work/$1.stdin" > "$work/$1.out" 2> "$work/$1.err" &
  fi
  servers="$servers $!"
  eval "exec $2> \"\$work/\$1.stdin\""
  for _ in $(seq 100); do
    grep -q http "$work/$1.out" 2>/dev/null && break
    sleep 0.05
  done
}
start main 3
start limited 4 256
url=$(grep -o 'http://[^ ]*' "$work/main.out")
limited=$(grep -o 'http://[^ ]*' "$work/limited.out")
set -- $servers
pid=$1 limited_pid=$2
echo "server: $url (pid $pid), default limits (8 workers), machine: $(nproc) cores shared"
echo "second server, 256 descriptors (ulimit -n): $limited (pid $limited_pid)"

python3 - "$url" "$pid" "$idle" "$limited" "$limited_pid" <<'PY'
import os, random, resource, socket, statistics, sys, threading, time

url, pid, idle_max = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
limited_url, limited_pid = sys.argv[4], int(sys.argv[5])


def address(url):
    host, port = url[len("http://"):].rstrip("/").rsplit(":", 1)
    return host, int(port)


addr = address(url)
host, port = addr
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def memory(pid=pid):
    """VmRSS and VmHWM of the server, in MB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def reset_peak():
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def request(path, body=b"", timeout=30.0, to=addr):
    """One request on a fresh connection: (status or a word, answer bytes, seconds)."""
    start = time.monotonic()
    head = (f"POST {path} HTTP/1.1\r\nHost: {to[0]}:{to[1]}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    try:
        s = socket.create_connection(to, timeout=timeout)
        s.settimeout(timeout)
        s.sendall(head + body)
        got = 0
        first = b""
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            if len(first) < 16:
                first += chunk[:16]
            got += len(chunk)
        s.close()
        status = first.split(b" ")[1].decode() if first.startswith(b"HTTP/") else "none"
    except socket.timeout:
        status, got = "timeout", 0
    except OSError as e:
        status, got = type(e).__name__, 0
    return status, got, time.monotonic() - start


def counts(statuses):
    seen = {}
    for s in statuses:
        seen[s] = seen.get(s, 0) + 1
    return ", ".join(f"{n}x {s}" for s, n in sorted(seen.items()))


print(f"rss at start: {memory()[0]:.1f} MB")

# 1. A normal request while idle connections are open.
print()
print("== latency of POST /api/targets with idle connections open (20 requests each)")
normal = b'{"moves":[[0,1,2,2],[9,1,7,2]],"from":[3,4]}'


def idle_connections(n, to):
    idle = []
    for i in range(n):
        s = socket.create_connection(to, timeout=10)
        if i % 2:
            s.sendall(b"GET / HT")  # a trickle that stops
        idle.append(s)
    time.sleep(0.3)
    return idle


def latency(to):
    results = [request("/api/targets", normal, timeout=15, to=to) for _ in range(20)]
    times = sorted(t * 1000 for _, _, t in results)
    return (f"median {statistics.median(times):8.1f} ms, max {times[-1]:8.1f} ms"
            f"  ({counts(s for s, _, _ in results)})")


for n in sorted({0, min(100, idle_max), idle_max}):
    idle = idle_connections(n, addr)
    line = latency(addr)
    print(f"  {n:5d} idle: {line}; rss {memory()[0]:.1f} MB")
    for s in idle:
        s.close()
time.sleep(0.3)
print(f"  rss after: {memory()[0]:.1f} MB")

# 1b. A normal request while clients that asked for a long replay never read it.
print()
print("== latency of POST /api/targets while 24 clients never read a 6 MB replay")
long_input = b"32000\n" + b"0 0 0 0\n" * 32000
stalled = []
for _ in range(24):
    s = socket.create_connection(addr, timeout=30)
    s.sendall((f"POST /api/replay HTTP/1.1\r\nHost: {host}:{port}\r\n"
               f"Content-Length: {len(long_input)}\r\n\r\n").encode() + long_input)
    stalled.append(s)
time.sleep(1.5)
print(f"  24 stalled: {latency(addr)}; rss {memory()[0]:.1f} MB")
for s in stalled:
    s.close()
time.sleep(0.3)

print()
print(f"== beyond the descriptor limit: {idle_max} idle connections to the server"
      " limited to 256 descriptors")
idle = idle_connections(idle_max, address(limited_url))
line = latency(address(limited_url))
closed = 0
for s in idle:
    s.setblocking(False)
    try:
        if s.recv(1) == b"":
            closed += 1
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
alive = os.path.exists(f"/proc/{limited_pid}/status")
print(f"  normal request: {line}")
print(f"  idle connections closed by the server: {closed} of {idle_max} (the oldest);"
      f" server alive: {'yes' if alive else 'NO'}, rss {memory(limited_pid)[0]:.1f} MB")
for s in idle:
    s.close()


def phase(name, work):
    exact = reset_peak()
    start = time.monotonic()
    statuses, sizes = work()
    rss, peak = memory()
    what = "peak" if exact else "peak so far"
    print(f"== {name}")
    print(f"  answers: {counts(statuses)}; largest answer {max(sizes) / 1024:,.0f} KB;"
          f" {time.monotonic() - start:.1f} s")
    print(f"  rss after: {rss:.1f} MB, {what}: {peak:.1f} MB")


# 2. Memory after large answers and long games.
print()
replay_input = b"32000\n" + b"0 0 0 0\n" * 32000


def replays():
    r = [request("/api/replay", replay_input) for _ in range(30)]
    return [s for s, _, _ in r], [n for _, n, _ in r]


phase(f"30 x POST /api/replay, a {len(replay_input) // 1024} KB input", replays)

cycle = [[0, 1, 2, 2], [9, 1, 7, 2], [2, 2, 0, 1], [7, 2, 9, 1]]


def game(moves):
    return [cycle[i % 4] for i in range(moves)]


def moves_json(moves):
    return "[" + ",".join(f"[{a},{b},{c},{d}]" for a, b, c, d in moves) + "]"


def saved(moves):
    lines = [f"{a} {b} {c} {d}" for a, b, c, d in moves]
    return ("rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n"
            f"{len(moves)}\n" + "\n".join(lines) + "\n").encode()


def long_games(length):
    def work():
        statuses, sizes = [], []
        moves = game(length)
        bodies = [
            ("/api/state", f'{{"moves":{moves_json(moves)}}}'.encode()),
            ("/api/play", f'{{"moves":{moves_json(moves)},"move":[0,1,2,2]}}'.encode()),
            ("/api/load", saved(moves)),
        ]
        for _ in range(10):
            for path, body in bodies:
                s, n, _ = request(path, body)
                statuses.append(f"{path[5:]} {s}")
                sizes.append(n)
        return statuses, sizes
    return work


for length in (24000, 2000):
    phase(f"10 x /api/state, /api/play, /api/load with {length:,}-move games",
          long_games(length))


def fuzz():
    rng = random.Random(5380)
    pieces = [b"{", b"}", b"[", b"]", b'"moves"', b'"start"', b'"from"', b'"move"',
              b'"think"', b":", b",", b"[0,1,2,2]", b"[9,1,7,2]", b"1e999", b'"\\ud800"',
              b"\xff", b"0 3 1 2\n", b"99999999999999999999 ", b'"4k4/9/9/9/9/9/9/9/9/R3K4 r"']
    paths = ["/api/state", "/api/targets", "/api/play", "/api/replay", "/api/load",
             "/api/save", "/api/nope", "/"]
    statuses, sizes = [], []
    for i in range(3000):
        kind = rng.random()
        if kind < 0.1:
            # a long list of moves, mostly legal
            body = f'{{"moves":{moves_json(game(rng.randrange(1, 2500)))}}}'.encode()
        elif kind < 0.2:
            count = rng.randrange(1, 30000)
            body = f"{count}\n".encode() + b"0 3 1 2\n" * min(count, 30000)
        else:
            body = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 400)))
        s, n, _ = request(rng.choice(paths), body[:256 * 1024])
        statuses.append(s)
        sizes.append(n)
    return statuses, sizes


phase("3,000 random requests (fuzz)", fuzz)


def together():
    results = []

    def client():
        for _ in range(5):
            results.append(request("/api/replay", replay_input))

    threads = [threading.Thread(target=client) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [s for s, _, _ in results], [n for _, n, _ in results]


phase("8 clients at once, 5 x /api/replay each", together)

# The most a JSON body can make the server hold: 256 KB of moves, parsed before the
# move limit can refuse them, from more clients than there are workers.
crowd = ('{"moves":[' + ",".join(["[0,1,2,2]"] * 26200) + "]}").encode()


def crowded():
    results = []

    def client():
        for _ in range(10):
            results.append(request("/api/state", crowd))

    threads = [threading.Thread(target=client) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [s for s, _, _ in results], [n for _, n, _ in results]


phase(f"16 clients at once, 10 x /api/state each with a {len(crowd) // 1024} KB game"
      " (26,200 moves)", crowded)

# 3. The computer's move where the search ends at once: the slot must be free again.
print()
take = b'{"start":"4k4/9/9/9/9/9/9/9/9/R3K4 r","moves":[[0,0,9,0],[9,4,9,3]],"think":10}'
r = [request("/api/ai", take) for _ in range(300)]
print(f"== 300 sequential /api/ai that answer at once: {counts(s for s, _, _ in r)}")
time.sleep(0.5)
rss, peak = memory()
print()
print(f"rss at the end: {rss:.1f} MB")
PY

exec 3>&- 4>&-
for p in $servers; do wait "$p" || true; done
servers=
echo "servers stopped: $(cat "$work/main.err" "$work/limited.err" | sort -u)"
