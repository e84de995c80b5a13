#!/usr/bin/env bash
# How long a contributor waits for the tests: from a fresh clone of HEAD (beside a link
# to ../shared, as CI has it), the seconds of
#   1. `cargo build --release` (the yardstick),
#   2. `cargo test` (the quick tier: building the tests and running them),
#   3. `cargo test` again after touching one file of src/,
#   4. with FULL=1, `cargo test -- --include-ignored` (the full tier, on top of 2),
# and the ratio of 2 to 1. Not a test: prints numbers (minutes of work). The clone gets
# a target folder of its own, so nothing built before counts.
# Usage: scripts/bench-tests.sh        FULL=1 scripts/bench-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(cargo --version)"
git clone --quiet "$root" "$work/main"
if [ -d "$root/../shared" ]; then
  ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
fi
cd "$work/main"
export CARGO_TARGET_DIR="$work/main/target" CARGO_TERM_COLOR=never
# Seconds that `$@` takes; its output goes to $work/log, whose tail shows on failure.
timed() {
  local start end
  start=$(date +%s.%N)
  if ! "$@" >"$work/log" 2>&1; then
    tail -30 "$work/log" >&2
    echo "bench-tests: '$*' failed" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }'
}
release=$(timed cargo build --release)
echo "cargo build --release (fresh):            ${release} s"
quick=$(timed cargo test)
summary=$(grep -E '^test result' "$work/log" | awk '{ p += $4; i += $8 } END { print p " passed, " i " ignored" }')
echo "cargo test (fresh: build and run):        ${quick} s  ($summary)"
awk -v q="$quick" -v r="$release" 'BEGIN { printf "ratio to the release build:               %.1f\n", q / r }'
touch src/judge/board.rs
again=$(timed cargo test)
echo "cargo test after touching src/judge/board.rs: ${again} s"
if [ "${FULL:-}" = 1 ]; then
  full=$(timed cargo test -- --include-ignored)
  summary=$(grep -E '^test result' "$work/log" | awk '{ p += $4; i += $8 } END { print p " passed, " i " ignored" }')
  echo "cargo test -- --include-ignored:          ${full} s  ($summary)"
fi
