#!/usr/bin/env bash
# `duckchess stress` benchmarks. Not a test: prints numbers.
#  1. Cases per second against a fast, correct C++ solution (tests/fixtures/stress/
#     solution.cpp with g++ -O2): short cases (--q 20) and the default mix of lengths,
#     with the default --jobs (the number of cores), and peak RSS.
#  2. For each of 25 wrong programs with one planted mistake (the C++ solution built
#     with each -D BUG_ switch, and the mutant judge of 15 catalogued mistakes run as a
#     program): the time to find a failure, its size, the size of the first 1-minimal
#     case and of the case kept, and the time to find and shrink, with --time 60, for
#     each seed; then the median, 90th percentile and maximum over all runs.
#  3. `test` comparing 68 MB of output as it streams (4 million commands, the judge
#     itself as --cmd), against an answer file and against the built-in judge: time
#     and peak RSS.
#  4. Programs that try to stall the runner (a child that leaves the process group
#     with setsid and holds the output, a flood of output, a program that never
#     answers against stress --time): wall time and peak RSS of each, and what a kill
#     at the time limit costs.
# Usage: [PARTS="1 2 3 4"] [KEEP=DIR] scripts/bench-stress.sh [SECONDS] [SEEDS...]
#        (default: all four parts, 10 s, seeds 1 to 5; KEEP=DIR keeps each case part 2
#        saved, as DIR/MISTAKE-SEED.in, with stress's output beside it as .txt)
set -euo pipefail
. "$(dirname "$0")/prepare.sh"
# prepare.sh built the release binary; it lives under CARGO_TARGET_DIR when that is set.
bin=${CARGO_TARGET_DIR:-target}/release/duckchess
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
seconds=${1:-10}
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5)
# PARTS="2" runs only the second part, and so on.
parts=${PARTS:-1 2 3 4}
command -v g++ >/dev/null || { echo "g++ is needed (apt-get install g++)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bugs=(HORSE_LEG ELEPHANT_EYE DUCK_LEG CAR_JUMP CAPTAIN_DIAGONAL SOLDIER_BACKWARDS
      CHECK_AFTER_END MOVES_AFTER_END CHECK_MOVER_ONLY FLYING_CAPTAIN)
mutants=(turn-passes-after-invalid check-only-by-moved-piece captured-na-when-red-captures
  own-piece-captured-by-elephant opponent-piece-moved-by-red
  move-horse-up1-right2-leg-from-target move-duck-up3-left2-second-leg-from-target
  move-car-left-dropped check-horse-down2-left1-leg-forgotten
  check-horse-up2-right1-leg-transposed check-duck-down3-right2-second-leg-forgotten
  check-elephant-down2-right2-eye-forgotten check-car-right-dropped
  check-blue-soldier-down1-right1-dropped move-elephant-up2-left2-eye-mirrored-up-down)
cargo build --release --quiet --example mutant
mutant=${CARGO_TARGET_DIR:-target}/release/examples/mutant
case $mutant in /*) ;; *) mutant=$(pwd)/$mutant ;; esac
src=tests/fixtures/stress/solution.cpp
g++ -O2 -o "$dir/correct" "$src"
for b in "${bugs[@]}"; do g++ -O2 -DBUG_"$b" -o "$dir/$b" "$src" & done
wait
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ " $parts " == *" 1 "* ]]; then
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
fi

if [[ " $parts " == *" 2 "* ]]; then
echo "2. find and shrink ${#bugs[@]} planted C++ mistakes and ${#mutants[@]} catalogued ones (--time 60), seeds ${seeds[*]}"
# The catalogued mistakes run as programs: the mutant judge of each (examples/mutant.rs).
printf '  %-44s %4s %8s %5s %8s %6s %8s\n' mistake seed found-in found 1-minimal final total
: >"$dir/runs"
shrink_one() { # NAME SEED COMMAND...
  local name=$1 s=$2 start end
  shift 2
  start=$(date +%s%N)
  "$bin" stress --cmd "$*" --seed "$s" --time 60 --save "$dir/case.in" >"$dir/out" || true
  end=$(date +%s%N)
  found=$(sed -n 's/^found: .* in \([0-9.]*\) s; seed.*/\1/p' "$dir/out")
  from=$(sed -n 's/^shrunk from \([0-9]*\) to .*/\1/p' "$dir/out")
  to=$(sed -n 's/^shrunk from [0-9]* to \([0-9]*\) commands\{0,1\} in.*/\1/p' "$dir/out")
  first=$(sed -n 's/^shrunk from .*(the first shrunk case had \([0-9]*\);.*/\1/p' "$dir/out")
  [ -n "$found" ] || found=none
  [ -n "$to" ] || { from=-; to=-; }
  [ -n "$first" ] || first=$to
  total=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", (b - a) / 1e9}')
  printf '  %-44s %4s %7ss %5s %8s %6s %7ss\n' "$name" "$s" "$found" "$from" "$first" "$to" "$total"
  echo "$name $s $found $from $first $to $total" >>"$dir/runs"
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP"
    cp "$dir/out" "$KEEP/$name-$s.txt"
    [ ! -f "$dir/case.in" ] || cp "$dir/case.in" "$KEEP/$name-$s.in"
  fi
  rm -f "$dir/case.in"
}
for b in "${bugs[@]}"; do for s in "${seeds[@]}"; do shrink_one "$b" "$s" "$dir/$b"; done; done
for m in "${mutants[@]}"; do for s in "${seeds[@]}"; do shrink_one "$m" "$s" "$mutant" "$m"; done; done
# Median, 90th percentile and maximum of column $1 of the runs (nearest rank).
spread() {
  awk -v c="$1" '$c != "-" && $c != "none" { print $c }' "$dir/runs" | sort -n | awk '
    { v[NR] = $1 } END { p = int(NR * 0.9); if (p < NR * 0.9) p++;
      printf "median %s, 90th percentile %s, maximum %s (%d runs)", v[int((NR + 1) / 2)], v[p], v[NR], NR }'
}
echo "  commands, the first 1-minimal case: $(spread 5)"
echo "  commands, the case kept:            $(spread 6)"
echo "  seconds to find and shrink:         $(spread 7)"
echo "  not shrunk: $(awk '$6 == "-"' "$dir/runs" | wc -l) runs; over 12 commands: $(awk '$6 != "-" && $6 > 12' "$dir/runs" | wc -l) runs"
fi

if [[ " $parts " == *" 3 "* ]]; then
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
fi

if [[ " $parts " == *" 4 "* ]]; then
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
fi
