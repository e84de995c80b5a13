#!/bin/sh
# Whether the engine on one thread searches exactly the tree of another build: the
# same `info` and `bestmove` lines, but for their times and speeds, at `go nodes N` and
# `go depth D` on each of the 32 positions of scripts/bench-positions.txt (a fresh
# table for each), with the network and with the hand-written evaluation. The build
# under test first asks for 3 threads and then for 1 again, so that going back to one
# thread is checked too.
#
# usage: scripts/threads-identity.sh OTHER_BINARY [DEPTH] [NODES]
#   default: depth 6, 20000 nodes. OTHER_BINARY is a build of another commit, e.g.
#     git archive COMMIT | tar -x -C /tmp/old
#     (cd /tmp/old && CARGO_TARGET_DIR=/tmp/old/target cargo build --release)
#     scripts/threads-identity.sh /tmp/old/target/release/duckchess
# Prints one line a comparison and exits 1 when any differs (the first differing lines
# are shown).
set -eu
other=$(realpath "$1")
depth=${2:-6}
nodes=${3:-20000}
. "$(dirname "$0")/prepare.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The session: OPTIONS (setoption lines), then every position with the `go` line.
session() {
    {
        printf '%s' "$1"
        while read -r position; do
            printf 'ucinewgame\nposition fen %s\n%s\n' "$position" "$2"
        done <scripts/bench-positions.txt
    } | "$3" uci | sed -E 's/ nps [0-9]+//; s/ time [0-9]+//'
}

failed=0
for nnue in true false; do
    for go in "go nodes $nodes" "go depth $depth"; do
        set_nnue="setoption name Use NNUE value $nnue
"
        threads="setoption name Threads value 3
setoption name Threads value 1
"
        session "$set_nnue" "$go" "$other" >"$work/other"
        session "$set_nnue$threads" "$go" "$bin" >"$work/this"
        lines=$(wc -l <"$work/this")
        answers=$(grep -c '^bestmove' "$work/this" || true)
        if cmp -s "$work/other" "$work/this"; then
            echo "same: Use NNUE $nnue, $go: $lines lines, $answers answers"
        else
            echo "DIFFERENT: Use NNUE $nnue, $go"
            diff "$work/other" "$work/this" | head -n 10
            failed=1
        fi
    done
done
exit $failed
