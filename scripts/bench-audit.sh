#!/usr/bin/env bash
# Benchmark of `duckchess audit` and `duckchess gen --suite`. Not a test: prints numbers.
#  1. `gen --suite` for a few seeds: wall and CPU time, peak RSS, what it killed.
#  2. `audit` of the default suite (every mistake of the catalogue on every input, in
#     process) and of the official cases when ../shared/official/duckchess is there:
#     the best of five runs, and peak RSS; `audit --coverage` of both likewise.
#  3. The audit of 20 copies of the default suite, 20 times, for a per-command figure
#     (every mistake stops at its first difference on each input, as in any audit).
#  4. `audit --witness` for one grown mistake of each group: found and shrunk on demand.
#  5. `audit`'s peak memory on 5,000 and 50,000 one-command tests (flat: some dozens of
#     bytes a test).
# Budget: auditing the default suite within 1 s, `gen --suite` within 60 s (2 cores).
# How strong the suite is on mistakes it was not built against: scripts/bench-heldout.sh.
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
  /usr/bin/time -f '%e %U %S %M' -o "$dir/t" "$bin" gen --suite "$dir/suite-$s" --seed "$s" \
    >"$dir/out" 2>&1 || true
  read -r secs user sys kb < <(tail -1 "$dir/t")
  printf '  seed %-3s %6.2f s (CPU %5.2f s), peak RSS %5.1f MB: %s\n' "$s" "$secs" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u + s}')" \
    "$(awk -v k="$kb" 'BEGIN{print k / 1024}')" "$(head -1 "$dir/out" | sed 's/ and suite.txt to [^:]*//')"
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
printf '  default suite              '
best_of_five "$dir/default"
printf '  default suite, --coverage  '
best_of_five --coverage "$dir/default"
official=../shared/official/duckchess
if [ -d "$official" ]; then
  printf '  official cases             '
  best_of_five "$official"
  printf '  official cases, --coverage '
  best_of_five --coverage "$official"
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

echo "4. audit --witness, one grown mistake of each group (found and shrunk on demand)"
"$bin" audit --list | awk '/^one (row|direction)/ { getline; print $1 }' >"$dir/sample"
total=0
while read -r name; do
  /usr/bin/time -f '%e' -o "$dir/t" "$bin" audit --witness "$name" >"$dir/w" || true
  secs=$(tail -1 "$dir/t")
  total=$(awk -v a="$total" -v b="$secs" 'BEGIN{print a + b}')
  printf '  %-50s %5.2f s, %3d commands\n' "$name" "$secs" "$(head -1 "$dir/w")"
done <"$dir/sample"
printf '  %d witnesses in %.1f s\n' "$(wc -l <"$dir/sample")" "$total"

echo "5. audit's peak memory over many one-command tests"
answer=$(printf '1\n0 0 1 0\n' | "$bin" judge)
for n in 5000 50000; do
  mkdir "$dir/many-$n"
  # Written by the shell itself: no process a file.
  (cd "$dir/many-$n" && for ((i = 1; i <= n; i++)); do
    printf '1\n0 0 1 0\n' >"$i.in"
    printf '%s\n' "$answer" >"$i.ans"
  done)
  /usr/bin/time -f '%e %M' -o "$dir/t" "$bin" audit "$dir/many-$n" >/dev/null || true
  read -r secs kb < <(tail -1 "$dir/t")
  printf '  %6d tests: %6.2f s, peak RSS %5.1f MB\n' "$n" "$secs" "$(awk -v k="$kb" 'BEGIN{print k / 1024}')"
  rm -rf "$dir/many-$n"
done
