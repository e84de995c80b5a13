#!/usr/bin/env bash
# How strong is `gen --suite` on mistakes it was not built against? Not a test: prints
# numbers (minutes of work; tests/bench/heldout.rs and, for 3, a test of the full tier
# in tests/all/audit.rs; in release mode).
#  1. Held-out kill rates: for each way of building the suite (the weights of its greedy
#     search: the chosen ones, kills only, one kill each, coverage only, ...), suites of
#     3 files built against part of the catalogue and measured on the rest: a random
#     half held out, for seeds 1..HELDOUT_SEEDS (default 8; mean, sample standard
#     deviation, the worst seed); then each group of the catalogue held out in turn (one
#     row of one piece's table in one use, or one topic of the hand-written mistakes),
#     pooled, with the three weakest groups.
#  2. Each family of the catalogue held out whole in turn (the hand-written mistakes
#     with their variants, the slips grown from the move table, each family that
#     follows a solution's shape), the default suite built against the rest for seeds
#     1..FAMILY_SEEDS (default 20): the rows of the table in docs/test-data-internals.md.
#  3. Every seed 1..SUITE_SEEDS (default 20): the default suite kills every mistake and
#     reaches all but at most a few cells of the statement's model;
#     seconds a suite, and how many mistakes only one file kills.
# Usage: scripts/bench-heldout.sh [halves|groups|both|families|seeds]
#   (default: both, then families, then seeds)
#   HELDOUT_STRATEGIES="chosen,kills only" limits the ways compared.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
  cargo test --release --quiet --test heldout -- --nocapture --test-threads 1 "$1" 2>&1 |
    grep -v '^running\|^test \|^$\|test result'
}
# The every-seed check is a test of the full tier (tests/all/audit.rs).
seeds() {
  cargo test --release --quiet --test all -- --ignored --nocapture --exact \
    audit::every_seed_kills_the_catalogue_and_reaches_the_model 2>&1 |
    grep -v '^running\|^test \|^$\|test result'
}
case $what in
  halves | groups | both) HELDOUT_WHAT=$what run held_out_kill_rates ;;
  families) run held_out_families ;;
  seeds) seeds ;;
  all)
    HELDOUT_WHAT=both run held_out_kill_rates
    run held_out_families
    seeds
    ;;
  *)
    echo "usage: scripts/bench-heldout.sh [halves|groups|both|families|seeds]" >&2
    exit 2
    ;;
esac
