#!/bin/sh
# Matches for the engine (not a test): duckchess against Fairy-Stockfish, or against an
# older duckchess build (self-play), through `duckchess match`.
#
# usage:
#   scripts/match.sh build-fsf DIR [REPOSITORY]
#       clones Fairy-Stockfish (default: its public GitHub repository, at the commit
#       docs/results.md used) into DIR and builds it with large-board support;
#       prints the binary's path, to use as FSF (needs git, make and g++)
#   FSF=/path/to/fairy-stockfish scripts/match.sh check
#       perft 1-4 from the start position in both programs: the variant file agrees
#       with our rules when the counts are equal (43, 1849, 80066, 3466638)
#   FSF=/path/to/fairy-stockfish scripts/match.sh fsf [MATCH OPTIONS]
#       e.g. --movetime 100 --openings 10, or --clock 60+0.6; at time odds,
#       --movetime 100 --opponent-movetime 1000 (Fairy-Stockfish thinks ten times as long)
#   scripts/match.sh self OLD_DUCKCHESS_BINARY [MATCH OPTIONS]
#       the current build against an older one
#
# FSF must be a Fairy-Stockfish binary with large-board support (9 x 10); this script
# writes the variant file it needs. Games run one at a time (each engine single
# threaded), so a match takes about 2 x 2 x openings x 150 moves x the time a move;
# --jobs J plays J at once (keep J times each engine's threads within the cores).
set -eu
cd "$(dirname "$0")/.."
mode=${1:-}
[ $# -gt 0 ] && shift

# The Fairy-Stockfish commit that docs/results.md was measured with.
FSF_COMMIT=c19b5f6c66894fdb0e88d0dd100e3885f744760a
if [ "$mode" = build-fsf ]; then
    dir=${1:?usage: scripts/match.sh build-fsf DIR [REPOSITORY]}
    repo=${2:-https://github.com/fairy-stockfish/Fairy-Stockfish}
    [ -e "$dir" ] || git clone --quiet "$repo" "$dir"
    git -C "$dir" -c advice.detachedHead=false checkout --quiet "$FSF_COMMIT"
    # One build per machine: plain x86-64, no NNUE network (none exists for this
    # game), boards up to 12 x 10.
    make -C "$dir/src" -j"$(nproc)" build ARCH=x86-64 COMP=gcc largeboards=yes >"$dir/build.log" 2>&1 ||
        { tail -n 20 "$dir/build.log" >&2; exit 1; }
    echo "$(cd "$dir/src" && pwd)/stockfish"
    exit 0
fi

cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/duckchess

variant_file() {
    : "${FSF:?set FSF to the Fairy-Stockfish binary (built with large-board support)}"
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    # The pieces in Betza notation: captain W (royal by extinction, not by check),
    # guard F, elephant nA, horse nN, car R, duck nZ, soldier K.
    cat >"$dir/duckchess.ini" <<'EOF'
[duckchess]
maxRank = 10
maxFile = 9
pawn = -
knight = -
bishop = -
queen = -
king = -
rook = r
customPiece1 = k:W
customPiece2 = g:F
customPiece3 = e:nA
customPiece4 = h:nN
customPiece5 = d:nZ
customPiece6 = s:K
startFen = rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR w - - 0 1
castling = false
doubleStep = false
promotionPieceTypes = -
checking = false
extinctionValue = loss
extinctionPieceTypes = k
stalemateValue = draw
nMoveRule = 0
EOF
}

case $mode in
check)
    variant_file
    for depth in 1 2 3 4; do
        ours=$("$bin" perft "$depth")
        theirs=$(printf 'load %s\nsetoption name UCI_Variant value duckchess\nposition startpos\ngo perft %s\nquit\n' \
            "$dir/duckchess.ini" "$depth" | "$FSF" | sed -n 's/^Nodes searched: //p')
        status=agree
        [ "$ours" = "$theirs" ] || status=DIFFER
        echo "perft $depth: duckchess $ours, Fairy-Stockfish $theirs: $status"
        [ "$status" = agree ] || exit 1
    done
    ;;
fsf)
    variant_file
    "$bin" match --opponent "$FSF" --opponent-options "VariantPath=$dir/duckchess.ini" "$@"
    ;;
self)
    old=${1:?usage: scripts/match.sh self OLD_DUCKCHESS_BINARY [MATCH OPTIONS]}
    shift
    "$bin" match --opponent "$old uci" "$@"
    ;;
*)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
