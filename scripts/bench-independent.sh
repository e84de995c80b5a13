#!/usr/bin/env bash
# How strong is `gen --suite` against wrong solutions written by someone who never saw
# the catalogue of mistakes? Not a test: prints numbers (minutes of work). The programs
# are the solutions of two sets written apart: tests/fixtures/independent/ (four C++
# solutions: a board of chars, the pieces in an array by id, a class per kind, a list of
# generated moves) and tests/fixtures/independent2/ (six in C, C++ and Rust: a flat
# board, bitboards, a map, cached move lists, tables), each compiled with every switch
# its bugs.tsv lists: one plausible mistake each. They were written from the rules alone
# and are held out: neither the suite nor the model is tuned on them. The second set's
# TAB_NO_NEWLINE shows only on an input with a tab and no final newline, which no valid
# suite holds: it is left out here, and `stress --messy` finds it.
#  1. Each correct solution must answer every sample as the judge does.
#  2. For each seed 1..SEEDS (default 20): `gen --suite DIR --seed S` (20 files at
#     most, the default; or FILES), the seconds it took, which planted programs pass all of it, and
#     the model's cells the suite leaves.
#  3. The official cases (../shared/official/duckchess beside the repository, or the
#     folder OFFICIAL names, when present): which pass them.
# Prints each seed's survivors, the kill rate over all seeds, and each program's
# number of surviving seeds.
# Usage: scripts/bench-independent.sh   (SEEDS=5 for fewer seeds; FILES=3 for suites of
# that many files at most: FILES=3 is the three files built against the catalogue alone)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
root=$PWD
seeds=${SEEDS:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir=tests/fixtures/independent
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# Whether program $1 passes every case of folder $2 (NAME.in with NAME.ans or .out).
passes() {
  local f ans
  for f in "$2"/*.in; do
    ans=${f%.in}.ans
    [ -f "$ans" ] || ans=${f%.in}.out
    timeout 10 "$1" <"$f" 2>/dev/null | cmp -s - "$ans" || return 1
  done
}
# Only the samples in the official format: the others test the lenient reader.
mkdir -p "$work/samples"
for f in samples/*.in; do cp "$f" "${f%.in}.out" "$work/samples/"; done
for src in "$dir"/*.cpp; do
  name=$(basename "$src" .cpp)
  g++ -O2 -std=c++17 -o "$work/$name" "$src"
  passes "$work/$name" "$work/samples" || { echo "$src fails a sample" >&2; exit 1; }
done
progs=()
for set in tests/fixtures/independent tests/fixtures/independent2; do
  while IFS=$'\t' read -r file bug _; do
    [ -n "$file" ] || continue
    [ "$bug" = TAB_NO_NEWLINE ] && continue
    case $file in
      *.rs) rustc --edition 2021 -O --cfg "$bug" -o "$work/$bug" "$set/$file" 2>/dev/null ;;
      *.c) gcc -O2 -std=c11 "-D$bug" -o "$work/$bug" "$set/$file" ;;
      *) g++ -O2 -std=c++17 "-D$bug" -o "$work/$bug" "$set/$file" ;;
    esac
    progs+=("$bug")
  done <"$set/bugs.tsv"
done
n=${#progs[@]}
echo "$n planted mistakes in two sets of solutions written apart"
declare -A survived
total=0
killed=0
for s in $(seq 1 "$seeds"); do
  start=$(date +%s.%N)
  (cd "$work" && "$root/$bin" gen --suite "s$s" --seed "$s" --files "${FILES:-20}" >/dev/null 2>&1) || true
  secs=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $start}")
  files=$(ls "$work/s$s"/*.in | wc -l)
  left=""
  for b in "${progs[@]}"; do
    total=$((total + 1))
    if passes "$work/$b" "$work/s$s"; then
      left="$left $b"
      survived[$b]=$((${survived[$b]:-0} + 1))
    else
      killed=$((killed + 1))
    fi
  done
  never=$("$bin" audit --coverage "$work/s$s" | sed -n "s/^the statement's model: .* \([0-9]*\) never$/\1/p" || true)
  echo "seed $s: $files files in $secs s; $(($n - $(echo $left | wc -w))) of $n killed${left:+; survive:$left};" \
    "model cells never reached: $never"
  rm -rf "$work/s$s"
done
echo "suites of seeds 1..$seeds: $killed of $total kills ($(awk "BEGIN{printf \"%.1f\", 100*$killed/$total}")%)"
for b in "${progs[@]}"; do
  [ -n "${survived[$b]:-}" ] && echo "  $b survives ${survived[$b]} of $seeds seeds"
done
official=${OFFICIAL:-../shared/official/duckchess}
if [ -d "$official" ]; then
  left=""
  for b in "${progs[@]}"; do passes "$work/$b" "$official" && left="$left $b"; done
  echo "official cases: $(($n - $(echo $left | wc -w))) of $n killed${left:+; survive:$left}"
else
  echo "note: the official cases are absent ($official); that part is skipped"
fi
