#!/usr/bin/env bash
# `duckchess diagnose` benchmark. Not a test: prints numbers.
# For the C++ solution of tests/fixtures/stress/solution.cpp built correct, with one
# planted mistake (HORSE_LEG, CHECK_MOVER_ONLY: the one that fails most witnesses) and
# with two (CAR_SCAN_RETURN and CAR_DOWN_SKIP): the wall time, CPU time and peak memory
# of a whole `diagnose` run (every kept witness run once, then every failure compared
# with every catalogued mistake), by farm-bench (medians of 5 runs after a warm-up).
# Usage: scripts/bench-diagnose.sh [JOBS]   (default: the number of cores)
set -euo pipefail
. "$(dirname "$0")/prepare.sh"
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
jobs=${1:-$(nproc)}
command -v g++ >/dev/null || { echo "g++ is needed (apt-get install g++)" >&2; exit 1; }
command -v farm-bench >/dev/null || { echo "farm-bench is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for variant in correct HORSE_LEG CHECK_MOVER_ONLY CAR_SCAN_RETURN+CAR_DOWN_SKIP; do
  defines=()
  if [ "$variant" != correct ]; then
    IFS=+ read -r -a bugs <<<"$variant"
    for b in "${bugs[@]}"; do defines+=("-DBUG_$b"); done
  fi
  g++ -O2 "${defines[@]}" -o "$dir/$variant" tests/fixtures/stress/solution.cpp
  echo "== $variant: $("$bin" diagnose --cmd "$dir/$variant" --jobs "$jobs" | head -1)"
  farm-bench -n 5 --timeout 300 -- "$bin" diagnose --cmd "$dir/$variant" --jobs "$jobs"
done
