#!/usr/bin/env bash
# Which tests are slow: runs every test of the library's unit tests and of the
# integration crate (tests/all) alone, one after another, and prints the slowest first
# with its tier (quick, or ignored: the full tier). Not a test: prints numbers
# (minutes of work). The quick tier's rule is that no test takes over 20 s on two idle
# cores; a test over it belongs in the full tier (#[ignore = "slow ..."]).
# Usage: scripts/test-times.sh [FILTER]   (FILTER: a substring of the tests' names)
#        TIERS=quick scripts/test-times.sh   (only the quick tier)
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:-}
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# The test programs, as cargo names them ("Executable unittests src/lib.rs (PATH)").
mapfile -t programs < <(cargo test --no-run --lib --test all 2>&1 |
  sed -n 's/^ *Executable .*(\(.*\))$/\1/p')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for program in "${programs[@]}"; do
  # Quick-tier tests, then the ignored ones.
  for tier in quick full; do
    [ "$tier" = full ] && [ "${TIERS:-}" = quick ] && continue
    flag=()
    [ "$tier" = full ] && flag=(--ignored)
    while IFS= read -r name; do
      [ -n "$name" ] || continue
      case $name in *"$filter"*) ;; *) continue ;; esac
      start=$(date +%s.%N)
      if "$program" "${flag[@]}" --exact "$name" --test-threads 1 >/dev/null 2>&1; then
        result=ok
      else
        result=FAILED
      fi
      end=$(date +%s.%N)
      printf '%8.2f s  %-5s %-6s %s\n' "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$tier" "$result" "$name" >>"$out"
    done < <("$program" "${flag[@]}" --list 2>/dev/null | sed -n 's/: test$//p')
  done
done
sort -rn "$out"
awk '{ t[$3] += $1 } END { for (k in t) printf "%s tier: %.0f s in all\n", k, t[k] }' "$out"
