#!/usr/bin/env bash
# Judge throughput and peak memory on `gen --mode big` inputs of 10^6 and 10^7 commands,
# with `cat` of the input and of the output as the I/O floor. Not a test: prints numbers.
# Usage: scripts/bench.sh [SIZES...]   (default: 1000000 10000000)
set -euo pipefail
. "$(dirname "$0")/prepare.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000)

measure() { # label, commands, command...
  local label=$1 n=$2; shift 2
  local best="" rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f '%e %M' -o "$dir/t" "$@" >/dev/null
    read -r secs kb <"$dir/t"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; rss=$kb; fi
  done
  awk -v l="$label" -v n="$n" -v s="$best" -v k="$rss" 'BEGIN{
    rate = (s > 0) ? sprintf("%.1f M commands/s", n / s / 1e6) : "too fast to time";
    printf "  %-28s %6.2f s  %-22s peak RSS %6.1f MB\n", l, s, rate, k / 1024 }'
}

for n in "${sizes[@]}"; do
  $bin gen --seed 1 --q "$n" --mode big >"$dir/in"
  $bin <"$dir/in" >"$dir/out"
  printf '%s commands: input %s MB, output %s MB\n' "$n" \
    "$(( $(stat -c %s "$dir/in") / 1000000 ))" "$(( $(stat -c %s "$dir/out") / 1000000 ))"
  measure "duckchess < in > /dev/null" "$n" sh -c "$bin <'$dir/in'"
  measure "cat in (I/O floor)" "$n" sh -c "cat '$dir/in'"
  measure "cat out (I/O floor)" "$n" sh -c "cat '$dir/out'"
done
