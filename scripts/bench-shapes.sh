#!/usr/bin/env bash
# How strong is `gen --suite` against wrong solutions of another shape than the judge's?
# Not a test: prints numbers (minutes of work). The programs are
# tests/fixtures/shapes/pieces.cpp (the 32 pieces in an array by id, names per id, the
# look for check once per colour, another order of validation), compiled with each of
# its BUG_ switches: one slip each, every one passing the statement's sample. They are
# held out: the suite is never tuned on them.
#  1. For each seed 1..SEEDS (default 20): `gen --suite DIR --seed S` (3 files), which
#     planted programs pass all of it, how many of the 30 coverage cells of a piece
#     threatening from where it was taken (what tells a piece kept alive when taken) the
#     suite never reaches, and how many of the 32 cells of a piece giving check alone
#     (what tells a piece left out of the look for check).
#  2. The official cases (../shared/official/duckchess beside the repository, or the
#     folder OFFICIAL names, when present): which pass them.
# Prints each seed's survivors, the kill rate over all seeds, and each program's
# number of surviving seeds.
# Usage: scripts/bench-shapes.sh   (SEEDS=5 for fewer seeds)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
root=$PWD
seeds=${SEEDS:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=tests/fixtures/shapes/pieces.cpp
bugs=$(sed -n 's|^//   BUG_\([A-Z_]*\).*|\1|p' "$src")
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
g++ -O2 -o "$work/correct" "$src"
for b in $bugs; do g++ -O2 -o "$work/$b" "-DBUG_$b" "$src"; done
n=$(echo $bugs | wc -w)
# Whether program $1 passes every case of folder $2 (NAME.in with NAME.ans or .out).
passes() {
  local f ans
  for f in "$2"/*.in; do
    ans=${f%.in}.ans
    [ -f "$ans" ] || ans=${f%.in}.out
    "$1" <"$f" | cmp -s - "$ans" || return 1
  done
}
passes "$work/correct" samples || { echo "the correct program fails a sample" >&2; exit 1; }
declare -A survived
total=0
killed=0
for s in $(seq 1 "$seeds"); do
  (cd "$work" && "$root/$bin" gen --suite "s$s" --seed "$s" >/dev/null 2>&1) || true
  passes "$work/correct" "$work/s$s" || { echo "the correct program fails seed $s" >&2; exit 1; }
  left=""
  for b in $bugs; do
    total=$((total + 1))
    if passes "$work/$b" "$work/s$s"; then
      left="$left $b"
      survived[$b]=$((${survived[$b]:-0} + 1))
    else
      killed=$((killed + 1))
    fi
  done
  map=$("$bin" audit --coverage "$work/s$s" | tr '\n' ' ' | tr -s ' ' || true)
  unreached=$(grep -o "never threatens a captain" <<<"$map" | wc -l || true)
  alone=$(grep -o "never gives check alone" <<<"$map" | wc -l || true)
  echo "seed $s: $(($n - $(echo $left | wc -w))) of $n killed${left:+; survive:$left};" \
    "threats from where taken never reached: $unreached of 30;" \
    "checks alone never given: $alone of 32"
done
echo "suites of seeds 1..$seeds: $killed of $total kills ($(awk "BEGIN{printf \"%.1f\", 100*$killed/$total}")%)"
for b in $bugs; do
  [ -n "${survived[$b]:-}" ] && echo "  $b survives ${survived[$b]} of $seeds seeds"
done
official=${OFFICIAL:-../shared/official/duckchess}
if [ -d "$official" ]; then
  left=""
  for b in $bugs; do passes "$work/$b" "$official" && left="$left $b"; done
  echo "official cases: $(($n - $(echo $left | wc -w))) of $n killed${left:+; survive:$left}"
else
  echo "note: the official cases are absent ($official); that part is skipped"
fi
