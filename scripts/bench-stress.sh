#!/usr/bin/env bash
# `duckchess stress` benchmarks. Not a test: prints numbers.
#  1. Cases per second against a fast, correct C++ solution (tests/fixtures/stress/
#     solution.cpp with g++ -O2): short cases (--q 20) and the default mix of lengths,
#     with the default --jobs (the number of cores), and peak RSS.
#  2. For each solution with a planted mistake: the time to find a failure, the size it
#     shrinks to and the time that takes, with --time 60, for a few seeds.
#  3. `test` comparing 68 MB of output as it streams (4 million commands, the judge
#     itself as --cmd), against an answer file and against the built-in judge: time
#     and peak RSS.
#  4. Programs that try to stall the runner (a child that leaves the process group
#     with setsid and holds the output, a flood of output, a program that never
#     answers against stress --time): wall time and peak RSS of each, and what a kill
#     at the time limit costs.
# Usage: scripts/bench-stress.sh [SECONDS] [SEEDS...]   (default: 10 s; seeds 1 2 3)
set -euo pipefail
. "$(dirname "$0")/prepare.sh"
# prepare.sh built the release binary; it lives under CARGO_TARGET_DIR when that is set.
bin=${CARGO_TARGET_DIR:-target}/release/duckchess
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
seconds=${1:-10}
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
command -v g++ >/dev/null || { echo "g++ is needed (apt-get install g++)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bugs=(HORSE_LEG ELEPHANT_EYE DUCK_LEG CAR_JUMP CAPTAIN_DIAGONAL SOLDIER_BACKWARDS
      CHECK_AFTER_END MOVES_AFTER_END CHECK_MOVER_ONLY FLYING_CAPTAIN)
src=tests/fixtures/stress/solution.cpp
g++ -O2 -o "$dir/correct" "$src"
for b in "${bugs[@]}"; do g++ -O2 -DBUG_"$b" -o "$dir/$b" "$src" & done
wait
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

echo "1. throughput against the correct C++ solution, $seconds s each"
for q in 20 1000; do
  /usr/bin/time -f '%M' -o "$dir/rss" "$bin" stress --cmd "$dir/correct" --seed 1 \
    --time "$seconds" --q "$q" --save "$dir/none.in" >"$dir/out" || true
  read -r _ _ _ cases _ commands _ _ secs _ <"$dir/out" || true
  cases=${cases//[!0-9]/}; commands=${commands//[!0-9]/}; secs=${secs//[!0-9.]/}
  awk -v q="$q" -v c="$cases" -v n="$commands" -v s="$secs" -v k="$(cat "$dir/rss")" 'BEGIN{
    printf "  --q %-5s %7d cases %9d commands in %5.1f s: %6.0f cases/s, %8.0f commands/s, peak RSS %.1f MB\n",
      q, c, n, s, c / s, n / s, k / 1024 }'
  grep -q '^no failure found' "$dir/out" || { echo "  the correct solution was flagged:"; cat "$dir/out"; }
done

echo "2. find and shrink each planted mistake (--time 60)"
printf '  %-18s %5s %9s %10s %9s %9s\n' mistake seed found-in "from->to" shrink total
for b in "${bugs[@]}"; do
  for s in "${seeds[@]}"; do
    start=$(date +%s%N)
    "$bin" stress --cmd "$dir/$b" --seed "$s" --time 60 --save "$dir/$b.in" >"$dir/out" || true
    end=$(date +%s%N)
    found=$(sed -n 's/^found: .* in \([0-9.]*\) s; seed.*/\1/p' "$dir/out")
    sizes=$(sed -n 's/^shrunk from \([0-9]*\) to \([0-9]*\) commands\{0,1\} in \([0-9.]*\) s.*/\1->\2 \3/p' "$dir/out")
    [ -n "$found" ] || found="none"
    [ -n "$sizes" ] || sizes="- -"
    read -r fromto shrink <<<"$sizes"
    printf '  %-18s %5s %8ss %10s %8ss %8.1fs\n' "$b" "$s" "$found" "$fromto" "$shrink" \
      "$(awk -v a="$start" -v b="$end" 'BEGIN{print (b - a) / 1e9}')"
  done
done

echo "3. test on 4,000,000 commands (32 MB in, 68 MB out), the judge as --cmd"
awk 'BEGIN{ print 4000000; split("0 0 1 0|9 0 8 0|1 0 0 0|8 0 9 0", m, "|");
  for (i = 0; i < 4000000; i++) print m[i % 4 + 1] }' >"$dir/big.in"
for answer in file built-in; do
  if [ $answer = file ]; then "$bin" <"$dir/big.in" >"$dir/big.out"; else rm -f "$dir/big.out"; fi
  /usr/bin/time -f '%e %M' -o "$dir/t" "$bin" test "$dir/big.in" --cmd "$bin" --timeout 60 >"$dir/out" || true
  read -r secs kb <"$dir/t"
  printf '  answer from a %-8s %5.2f s, peak RSS %5.1f MB: %s\n' "$answer" "$secs" \
    "$(awk -v k="$kb" 'BEGIN{print k / 1024}')" "$(head -c 3 "$dir/out")"
done

echo "4. programs that try to stall the runner (wall time, peak RSS)"
cp samples/statement.in "$dir/case.in"
cp samples/statement.out "$dir/case.out"
printf 'setsid sleep 6 &\nexec sleep 100\n' >"$dir/escape.sh"
printf 'cat "%s"\nsetsid sleep 30 &\nexit 0\n' "$dir/case.out" >"$dir/leave.sh"
printf 'yes | tr -d "\\n"\n' >"$dir/line.sh"
printf 'exec sleep 100\n' >"$dir/hang.sh"
hostile() { # LABEL ARGS...: one run, its first line, wall time and peak RSS
  local label=$1
  shift
  /usr/bin/time -f '%e %M' -o "$dir/t" "$bin" "$@" >"$dir/out" 2>&1 || true
  # GNU time says "Command exited with non-zero status" first: the figures end the file.
  read -r secs kb < <(tail -n 1 "$dir/t")
  printf '  %-44s %6.2f s %5.1f MB  %s\n' "$label" "$secs" \
    "$(awk -v k="$kb" 'BEGIN{print k / 1024}')" "$(head -n 1 "$dir/out" | cut -c1-40)"
}
hostile "test --timeout 1, setsid child holds 6 s" test "$dir/case.in" --cmd "sh $dir/escape.sh" --timeout 1
hostile "test --timeout 10, exits, setsid holds 30 s" test "$dir/case.in" --cmd "sh $dir/leave.sh" --timeout 10
hostile "test --timeout 10, yes" test "$dir/case.in" --cmd yes --timeout 10
hostile "test --timeout 10, one endless line" test "$dir/case.in" --cmd "sh $dir/line.sh" --timeout 10
hostile "stress --time 1 --timeout 5, never answers" stress --cmd "sh $dir/hang.sh" --time 1 \
  --timeout 5 --seed 1 --save "$dir/hang.in"
total=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
  /usr/bin/time -f '%e' -o "$dir/t" "$bin" test "$dir/case.in" --cmd "sh $dir/hang.sh" \
    --timeout 0.2 >/dev/null 2>&1 || true
  total=$(awk -v a="$total" -v b="$(tail -n 1 "$dir/t")" 'BEGIN{print a + b}')
done
echo "  a kill at the time limit (--timeout 0.2, 10 runs): $(awk -v t="$total" \
  'BEGIN{printf "%.0f", (t / 10 - 0.2) * 1000}') ms a run beyond the limit, \
$(ls /proc | grep -c '^[0-9]') processes on the machine"
