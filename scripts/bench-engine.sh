#!/bin/sh
# Engine benchmark: perft 5 from the start position (target: at most 3 s, single
# thread); the search at a fixed time on fixed positions (the depth it completes and
# its nodes a second on each of the 32 middlegame and endgame positions of
# scripts/bench-positions.txt, taken from games against Fairy-Stockfish, a fresh table
# for each); the time the search takes to a fixed depth on the same positions; and the
# arena (target: ai at 100 ms per move wins 100/100 against random and at least 90/100
# against greedy, both colours).
#
# usage: scripts/bench-engine.sh [perft|search|depth|all] [GAMES] [THINK_MS]
#        scripts/bench-engine.sh arena [GAMES] [THINK_MS]
#   default: all (perft, search, depth and arena), 100 games, 100 ms per move (the
#   search part thinks THINK_MS on each position). The arena part can take a while.
#   OPTIONS='Name=value;...' sets UCI options for the search and depth parts, e.g.
#   OPTIONS='Use NNUE=false' for the hand-written evaluation. THREADS='1 2' runs the
#   search and depth parts once for each number of search threads (the UCI option
#   Threads, set only above 1; default 1) and ends with the speed-up of each over the
#   first. DEPTH=D is the depth of the depth part (default 13).
#
# The summary lines, to quote:
#   search 100 ms, 2 threads: average depth D, N nodes/s
#   depth 13, 2 threads: S s for 32 positions, N nodes/s
#   speed-up of 2 threads over 1: X nodes/s, Y time to depth 13
set -eu
what=${1:-all}
games=${2:-100}
think=${3:-100}
threads_list=${THREADS:-1}
depth=${DEPTH:-13}
# A whole number from 1 on.
count() { case $1 in '' | *[!0-9]* | 0*) return 1 ;; esac; }
for n in $threads_list $depth; do
    count "$n" || { echo "THREADS must be numbers from 1 separated by spaces, DEPTH a number from 1" >&2; exit 2; }
done
. "$(dirname "$0")/prepare.sh"

if [ "$what" = perft ] || [ "$what" = all ]; then
    echo "== perft 5 from the start position (expect 152386930, at most 3 s)"
    "$bin" perft 5 --time
fi

# The UCI session of one part, on standard output: the options, then for each position
# ucinewgame (an empty table) and `go $1`. No 'quit': it would stop the searches still
# waiting; the end of the input lets every 'go' finish, then the engine exits.
session() {
    # OPTIONS: 'Name=value;Name=value' as setoption commands.
    printf '%s' "${OPTIONS:-}" | tr ';' '\n' | while IFS='=' read -r name value; do
        [ -n "$name" ] && printf 'setoption name %s value %s\n' "$name" "$value"
    done
    # Threads is set only above 1, so that the script also runs engines without it.
    [ "$threads" -gt 1 ] && printf 'setoption name Threads value %s\n' "$threads"
    while read -r position; do
        printf 'ucinewgame\nposition fen %s\ngo %s\n' "$position" "$1"
    done <scripts/bench-positions.txt
    printf 'ucinewgame\n'
}

# Reads the engine's answers: a line per position, the summary line labelled `$2`,
# then `totals NODES MS` for the speed-ups.
measure() {
    "$bin" uci --tuning | awk -v part="$1" -v label="$2" '
        /^info depth/ { for (i = 1; i < NF; i++) { if ($i == "depth") d = $(i + 1); if ($i == "nodes") n = $(i + 1); if ($i == "time") t = $(i + 1) } }
        /^bestmove/ {
            k++; nodes += n; ms += t; depth += d
            printf "position %2d: depth %2d, %8d nodes, %5d ms\n", k, d, n, t
            d = 0; n = 0; t = 0
        }
        END {
            nps = int(nodes * 1000 / (ms > 0 ? ms : 1))
            if (part == "search") printf "%s: average depth %.1f, %d nodes/s\n", label, depth / (k > 0 ? k : 1), nps
            else printf "%s: %.1f s for %d positions, %d nodes/s\n", label, ms / 1000, k, nps
            printf "totals %d %d\n", nodes, ms
        }'
}

# Runs part `$1` (search or depth) at $threads threads: prints its lines and sets
# $nps and $ms from its totals.
part() {
    if [ "$1" = search ]; then
        go="movetime $think" label="search $think ms, $(plural "$threads")"
        echo "== search: $think ms on each position of scripts/bench-positions.txt, $(plural "$threads") (load: $(cut -d' ' -f1-3 /proc/loadavg))${OPTIONS:+; $OPTIONS}"
    else
        go="depth $depth" label="depth $depth, $(plural "$threads")"
        echo "== depth: to depth $depth on each position of scripts/bench-positions.txt, $(plural "$threads") (load: $(cut -d' ' -f1-3 /proc/loadavg))${OPTIONS:+; $OPTIONS}"
    fi
    lines=$(session "$go" | measure "$1" "$label")
    printf '%s\n' "$lines" | grep -v '^totals '
    # shellcheck disable=SC2046 # the two numbers of the totals line
    set -- $(printf '%s\n' "$lines" | sed -n 's/^totals //p')
    nps=$(($1 * 1000 / ($2 > 0 ? $2 : 1))) ms=$2
}

plural() { if [ "$1" -eq 1 ]; then echo "$1 thread"; else echo "$1 threads"; fi; }

# The first thread count's nodes a second (search) and time to depth, and the
# speed-up lines of the others over it.
first= first_nps= first_ms= speedups=
for threads in $threads_list; do
    s_nps= d_ms=
    if [ "$what" = search ] || [ "$what" = all ]; then
        part search
        s_nps=$nps
    fi
    if [ "$what" = depth ] || [ "$what" = all ]; then
        part depth
        d_ms=$ms
    fi
    if [ -z "$first" ]; then
        first=$threads first_nps=$s_nps first_ms=$d_ms
        continue
    fi
    line="speed-up of $(plural "$threads") over $first:"
    [ -n "$s_nps" ] && line="$line $(awk -v a="$s_nps" -v b="$first_nps" 'BEGIN { printf "%.2fx", a / (b > 0 ? b : 1) }') nodes/s"
    [ -n "$s_nps" ] && [ -n "$d_ms" ] && line="$line,"
    [ -n "$d_ms" ] && line="$line $(awk -v a="$d_ms" -v b="$first_ms" 'BEGIN { printf "%.2fx", b / (a > 0 ? a : 1) }') time to depth $depth"
    speedups="$speedups$line
"
done
printf '%s' "$speedups"

if [ "$what" = arena ] || [ "$what" = all ]; then
    echo "== arena: ai at $think ms per move, $games games per line"
    echo "   (target: 100/100 against random, at least 90/100 against greedy)"
    for pair in "ai random" "random ai" "ai greedy" "greedy ai"; do
        set -- $pair
        start=$(date +%s)
        result=$("$bin" arena --red "$1" --blue "$2" --games "$games" --think "$think" --quiet)
        end=$(date +%s)
        printf '%-7s (red) vs %-7s (blue): %s  [%s s]\n' "$1" "$2" "$result" "$((end - start))"
    done
fi
