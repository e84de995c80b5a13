#!/bin/sh
# How long a run takes to end past its time limit when the program under test starts
# many busy processes: 'test --timeout 1' on a program that starts N processes spinning
# for ever (N = 1, 100, 400, 1000), with a control group and without one
# (DUCKCHESS_NO_CGROUP=1, as where the runner cannot make one). Prints, for each, the
# median and the largest of RUNS runs: the time the report gives and the wall time of
# the whole 'test' (GNU time). The target: the limit plus a small margin, however many.
#
# usage: scripts/bench-sandbox.sh [RUNS]     (default 3)
#   BIN=path/to/duckchess measures another build with the same runs.
set -eu
runs=${1:-3}
. "$(dirname "$0")/prepare.sh"
bin=${BIN:-$bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '0\n' > "$work/c.in"
: > "$work/c.ans"
cat > "$work/spin.sh" <<'SCRIPT'
i=0
while [ "$i" -lt "$N" ]; do (while :; do :; done) & i=$((i+1)); done
wait
SCRIPT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
largest() { sort -n | tail -1; }
printf '%-12s %-9s %14s %14s %12s %12s\n' processes group "reported (med)" "reported (max)" "wall (med)" "wall (max)"
for n in 1 100 400 1000; do
  for group in yes no; do
    : > "$work/reported"; : > "$work/wall"
    i=0
    while [ "$i" -lt "$runs" ]; do
      if [ "$group" = no ]; then export DUCKCHESS_NO_CGROUP=1; else unset DUCKCHESS_NO_CGROUP; fi
      /usr/bin/time -f '%e' -o "$work/time" "$bin" test "$work/c.in" \
        --cmd "env N=$n sh $work/spin.sh" --timeout 1 > "$work/out" || true
      sed -n 's/^TLE .*  \([0-9]*\) ms  .*/\1/p' "$work/out" >> "$work/reported"
      tail -1 "$work/time" | awk '{printf "%d\n", $1 * 1000}' >> "$work/wall"
      i=$((i+1))
    done
    printf '%-12s %-9s %11s ms %11s ms %9s ms %9s ms\n' "$n" "$group" \
      "$(median < "$work/reported")" "$(largest < "$work/reported")" \
      "$(median < "$work/wall")" "$(largest < "$work/wall")"
  done
done
