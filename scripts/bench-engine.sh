#!/bin/sh
# Engine benchmark: perft 5 from the start position (target: at most 3 s, single
# thread); the search at a fixed time on fixed positions (the depth it completes and
# its nodes a second on each of the 32 middlegame and endgame positions of
# scripts/bench-positions.txt, taken from games against Fairy-Stockfish, a fresh table
# for each); and the arena (target: ai at 100 ms per move wins 100/100 against random
# and at least 90/100 against greedy, both colours).
#
# usage: scripts/bench-engine.sh [perft|search|arena|all] [GAMES] [THINK_MS]
#   default: all, 100 games, 100 ms per move (the search part thinks THINK_MS on
#   each position). The arena part can take a while. OPTIONS='Name=value;...' sets
#   UCI options for the search part, e.g. OPTIONS='Use NNUE=false' for the
#   hand-written evaluation.
set -eu
what=${1:-all}
games=${2:-100}
think=${3:-100}
. "$(dirname "$0")/prepare.sh"

if [ "$what" = perft ] || [ "$what" = all ]; then
    echo "== perft 5 from the start position (expect 152386930, at most 3 s)"
    "$bin" perft 5 --time
fi

if [ "$what" = search ] || [ "$what" = all ]; then
    echo "== search: $think ms on each position of scripts/bench-positions.txt (one core; load: $(cut -d' ' -f1-3 /proc/loadavg))${OPTIONS:+; $OPTIONS}"
    # One session: each position gets ucinewgame (an empty table), then go movetime.
    {
        # OPTIONS: 'Name=value;Name=value' as setoption commands.
        printf '%s' "${OPTIONS:-}" | tr ';' '\n' | while IFS='=' read -r name value; do
            [ -n "$name" ] && printf 'setoption name %s value %s\n' "$name" "$value"
        done
        while read -r position; do
            printf 'ucinewgame\nposition fen %s\ngo movetime %s\n' "$position" "$think"
        done <scripts/bench-positions.txt
        # No 'quit': it would stop the searches still waiting. The end of the input
        # lets every 'go' finish, then the engine exits.
        printf 'ucinewgame\n'
    } | "$bin" uci | awk '
        /^info depth/ { for (i = 1; i < NF; i++) { if ($i == "depth") d = $(i + 1); if ($i == "nodes") n = $(i + 1); if ($i == "time") t = $(i + 1) } }
        /^bestmove/ {
            k++; nodes += n; ms += t; depth += d
            printf "position %2d: depth %2d, %8d nodes, %4d ms\n", k, d, n, t
            d = 0; n = 0; t = 0
        }
        END { printf "average: depth %.1f, %d nodes/s\n", depth / k, nodes * 1000 / (ms > 0 ? ms : 1) }'
fi

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
