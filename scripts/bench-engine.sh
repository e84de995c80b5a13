#!/bin/sh
# Engine benchmark: perft 5 from the start position (target: at most 3 s, single
# thread) and the arena (target: ai at 100 ms per move wins 100/100 against random and
# at least 90/100 against greedy, both colours).
#
# usage: scripts/bench-engine.sh [perft|arena|all] [GAMES] [THINK_MS]
#   default: all, 100 games, 100 ms per move. The arena part can take a while.
set -eu
what=${1:-all}
games=${2:-100}
think=${3:-100}
. "$(dirname "$0")/prepare.sh"

if [ "$what" = perft ] || [ "$what" = all ]; then
    echo "== perft 5 from the start position (expect 152386930, at most 3 s)"
    "$bin" perft 5 --time
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
