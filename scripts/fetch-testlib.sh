#!/usr/bin/env bash
# Fetches testlib.h (github.com/MikeMirzayanov/testlib), pinned to one commit and
# checked against its SHA-256, for the test that builds the validator and the checker
# `duckchess export` writes for UOJ and Polygon (tests/all/export.rs). The judges
# provide testlib.h themselves, and the repository holds none.
#
# usage: scripts/fetch-testlib.sh DEST
#
# DEST is written aside and renamed into place: whole or absent. A DEST that already
# holds the pinned file is left as it is. With DUCKCHESS_TESTLIB_FROM=FILE the copy
# comes from FILE (a machine without the network), checked all the same.
set -euo pipefail

COMMIT=1e4e8a24c79c6bad3becbdb5a332ffc352b7d5dd
SHA256=bb323e3c89285214966076e0d23d5a295c5f6126da7ff198c1276ddb95ecb1a0
URL="https://raw.githubusercontent.com/MikeMirzayanov/testlib/$COMMIT/testlib.h"

dest=${1:?usage: scripts/fetch-testlib.sh DEST}
sum() { sha256sum "$1" | cut -d' ' -f1; }

if [ -f "$dest" ] && [ "$(sum "$dest")" = "$SHA256" ]; then
    exit 0
fi
tmp="$(dirname -- "$dest")/.$(basename -- "$dest").$$.tmp"
trap 'rm -f -- "$tmp"' EXIT
if [ -n "${DUCKCHESS_TESTLIB_FROM:-}" ]; then
    cp -- "$DUCKCHESS_TESTLIB_FROM" "$tmp"
elif ! curl -fsSL --retry 2 -o "$tmp" "$URL"; then
    echo "fetch-testlib.sh: cannot fetch $URL (without the network, set DUCKCHESS_TESTLIB_FROM to a copy)" >&2
    exit 1
fi
got=$(sum "$tmp")
if [ "$got" != "$SHA256" ]; then
    echo "fetch-testlib.sh: testlib.h has SHA-256 $got, expected $SHA256 (commit $COMMIT)" >&2
    exit 1
fi
mv -f -- "$tmp" "$dest"
