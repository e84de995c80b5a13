#!/usr/bin/env bash
# Benchmark of `duckchess chase`: builds the release binary, then prints the answer, the wall
# time and the peak resident memory of single queries for n = 20, 50 and 100.
# Start positions include the deepest ones (3n - 2 moves), which run every layer.
# Budget: n = 100 within 2 s and 256 MB on the 2-core machine.
set -euo pipefail
. "$(dirname "$0")/prepare.sh"

positions=(
    "2 1 1 2 2"
    "20 1 1 20 20"
    "20 10 10 1 1"
    "20 1 2 1 20"
    "50 1 1 50 50"
    "50 25 25 1 1"
    "50 1 1 1 50"
    "100 1 1 1 3"
    "100 1 1 100 100"
    "100 50 50 1 1"
    "100 1 2 1 100"
    "100 37 81 12 5"
)

printf '%-18s %-11s %s\n' "input" "answer" "time and peak RSS"
for input in "${positions[@]}"; do
    answer=$(echo "$input" | "$bin" chase 2>/dev/null)
    measured=$( { echo "$input" | /usr/bin/time -f '%e s %M KB' "$bin" chase >/dev/null; } 2>&1 )
    printf '%-18s %-11s %s\n' "$input" "$answer" "$measured"
done
