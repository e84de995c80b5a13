#!/usr/bin/env bash
# Benchmark of `duckchess audit` and `duckchess gen --suite`. Not a test: prints numbers.
#  1. `gen --suite` for a few seeds: wall time, peak RSS, files written, mistakes killed.
#  2. `audit` of the default suite (every mistake of the catalogue on every input, in
#     process) and of the official cases when ../shared/official/duckchess is there:
#     the best of five runs, and peak RSS.
#  3. The audit of 20 copies of the default suite, 20 times, for a per-command figure
#     (every mistake stops at its first difference on each input, as in any audit).
# Budget: auditing the default suite within 1 s, `gen --suite` within 60 s (2 cores).
# Usage: scripts/bench-audit.sh [SEEDS...]   (default: seeds 1 2 3)
set -euo pipefail
. "$(dirname "$0")/prepare.sh"
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

echo "1. gen --suite"
for s in "${seeds[@]}"; do
  /usr/bin/time -f '%e %M' -o "$dir/t" "$bin" gen --suite "$dir/suite-$s" --seed "$s" >"$dir/out"
  read -r secs kb <"$dir/t"
  printf '  seed %-3s %6.2f s, peak RSS %5.1f MB: %s\n' "$s" "$secs" \
    "$(awk -v k="$kb" 'BEGIN{print k / 1024}')" "$(cat "$dir/out")"
done

# The best of five runs of `audit ARGS`, with the peak RSS of that run.
best_of_five() {
  local best="" rss=""
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f '%e %M' -o "$dir/t" "$bin" audit "$@" >"$dir/report" || true
    # GNU time puts a line about a non-zero exit status (survivors) first.
    read -r secs kb < <(tail -1 "$dir/t")
    if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN{exit !(a < b)}'; then
      best=$secs
      rss=$kb
    fi
  done
  printf '%5.2f s, peak RSS %4.1f MB: %s\n' "$best" "$(awk -v k="$rss" 'BEGIN{print k / 1024}')" \
    "$(head -1 "$dir/report")"
}

echo "2. audit (best of five)"
"$bin" gen --suite "$dir/default" >/dev/null
printf '  default suite   '
best_of_five "$dir/default"
official=../shared/official/duckchess
if [ -d "$official" ]; then
  printf '  official cases  '
  best_of_five "$official"
else
  echo "  official cases: $official is absent; skipped"
fi

echo "3. audit of 20 copies of the default suite, 20 times"
mkdir "$dir/copies"
for i in $(seq 1 20); do
  for f in "$dir"/default/*.in; do
    n=$(basename "$f" .in)
    cp "$f" "$dir/copies/$i-$n.in"
    cp "$dir/default/$n.ans" "$dir/copies/$i-$n.ans"
  done
done
start=$(date +%s%N)
for _ in $(seq 1 20); do "$bin" audit "$dir/copies" >/dev/null; done
end=$(date +%s%N)
commands=$(( $(cat "$dir"/copies/*.in | wc -l) - $(ls "$dir"/copies/*.in | wc -l) ))
mistakes=$("$bin" audit --list | head -1 | cut -d' ' -f1)
# Each mistake stops at its first difference on each input, as the audit does.
awk -v ns=$((end - start)) -v c="$commands" -v m="$mistakes" 'BEGIN{
  s = ns / 1e9 / 20
  printf "  %d commands, %d mistakes: %.3f s a run, %.1f us per command for all of them\n",
    c, m, s, s * 1e6 / c }'
