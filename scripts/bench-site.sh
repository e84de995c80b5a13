#!/usr/bin/env bash
# The static site's figures (docs/benchmarks.md): builds the site (scripts/site.sh) and
# runs tests/bench/site.rs in release mode in headless Chromium:
#   speed   the search to DEPTH (default 10) on the 32 positions of
#           scripts/bench-positions.txt, one thread, natively and in WebAssembly
#   load    the time until the board is ready in a fresh browser (RUNS, default 5), and
#           what each file weighs on the wire
#   size    the module's bytes, raw and compressed (gzip -9), the network included
# Usage: scripts/bench-site.sh [speed|load|size|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
site=${DUCKCHESS_SITE:-$PWD/target/site/www}
scripts/site.sh "$site"
export DUCKCHESS_SITE=$site
run() {
  cargo test --release --quiet --test site -- --nocapture --test-threads 1 --exact "$1" 2>&1 |
    grep -v '^running\|^test \|^$\|test result'
}
size() {
  local raw gz net
  raw=$(wc -c <"$site/duckchess.wasm")
  gz=$(gzip -9 -c "$site/duckchess.wasm" | wc -c)
  net=$(wc -c <src/engine/nnue.net)
  echo "duckchess.wasm: $raw bytes ($gz gzip -9), of which the network $net bytes"
  echo "the whole site: $(cat "$site"/* | wc -c) bytes ($(cat "$site"/* | gzip -9 | wc -c) gzip -9)"
}
case $what in
  speed | load) run "$what" ;;
  size) size ;;
  all) size; run load; run speed ;;
  *) echo "usage: scripts/bench-site.sh [speed|load|size|all]" >&2; exit 2 ;;
esac
