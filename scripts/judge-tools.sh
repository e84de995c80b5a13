#!/usr/bin/env bash
# Installs the judges' own checking tools into a Python virtual environment, pinned to
# the versions in scripts/judge-tools.txt: Kattis problemtools (`verifyproblem`, which
# checks an ICPC problem package as DOMjudge and Kattis would take it) and
# Polygon2DOMjudge (`p2d`, which converts a Polygon package). The tests of
# `duckchess export` (tests/all/judge_tools.rs) run them when they are on PATH.
#
# usage: scripts/judge-tools.sh VENV BIN
#
# VENV is made (or reused when it already holds the pinned versions); BIN gets links to
# `verifyproblem` and `p2d` alone, to put on PATH without the environment's python, and
# to the testlib.h that p2d carries (DOMjudge's variant of testlib), which the tests
# build the Polygon package's checker and validator against.
set -euo pipefail
venv=${1:?usage: scripts/judge-tools.sh VENV BIN}
bin=${2:?usage: scripts/judge-tools.sh VENV BIN}
pins="$(dirname "$0")/judge-tools.txt"

if ! cmp -s "$pins" "$venv/pins.txt" 2>/dev/null; then
    rm -rf -- "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$pins"
    cp -- "$pins" "$venv/pins.txt"
fi
mkdir -p -- "$bin"
ln -sf -- "$venv/bin/verifyproblem" "$bin/verifyproblem"
ln -sf -- "$venv/bin/p2d" "$bin/p2d"
testlib=$(echo "$venv"/lib/python3*/site-packages/p2d/testlib/testlib.h)
[ -f "$testlib" ] || { echo "judge-tools.sh: p2d carries no testlib.h" >&2; exit 1; }
ln -sf -- "$testlib" "$bin/testlib.h"
"$bin/verifyproblem" --version >/dev/null
"$bin/p2d" --version
