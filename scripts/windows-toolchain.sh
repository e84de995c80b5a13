#!/usr/bin/env bash
# The Windows build, from Debian 12's packages only, and Wine to run it (tests/all/windows.rs
# and scripts/release.sh use both). Idempotent; needs root on a fresh machine.
#
#   scripts/windows-toolchain.sh            installs what is missing, then builds the .exe
#   . <(scripts/windows-toolchain.sh --env)  only prints the variables below, for a shell
#
# Prints, last, the lines to export:
#   DUCKCHESS_WINDOWS_EXE  the release .exe built for Windows
#   DUCKCHESS_WINE         Wine's loader (Debian does not put it on PATH)
#
# The target is x86_64-win7-windows-gnu, not x86_64-pc-windows-gnu: the standard
# library of the latter imports bcryptprimitives.dll (ProcessPrng), which Wine 8 lacks,
# so its programs do not start under Wine; the win7 target's std uses the older
# RtlGenRandom instead, and its programs run on Windows 7 to 11 alike. No prebuilt std
# exists for it, so std is built from source (-Zbuild-std, rust-web-src).
#
# Debian's rustc-web (1.96) comes from scripts/rust-web.sh, unpacked into a folder of its
# own (RUST_WEB_ROOT).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-win7-windows-gnu
RUST_WEB_ROOT=${RUST_WEB_ROOT:-/opt/duckchess-rust-web}
# A fixed target folder, so that a second build in the same run (the test, the
# release script) reuses the std already built.
TARGET_DIR=${DUCKCHESS_WINDOWS_TARGET_DIR:-$PWD/target/windows}
EXE=$TARGET_DIR/$TARGET/release/duckchess.exe
WINE=/usr/lib/wine/wine64

print_env() {
  echo "export DUCKCHESS_WINDOWS_EXE=$EXE"
  echo "export DUCKCHESS_WINE=$WINE"
}

if [ "${1:-}" = "--env" ]; then
  print_env
  exit 0
fi

seconds() { date +%s; }
started=$(seconds)

# The tools installed from Debian: the MinGW linker and C++ compiler, Wine, and zip for
# the release archive, with rustc-web (scripts/rust-web.sh).
rust_web_env=$(mktemp)
trap 'rm -f "$rust_web_env"' EXIT
RUST_WEB_ROOT=$RUST_WEB_ROOT scripts/rust-web.sh gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 \
  wine64 zip >"$rust_web_env"
. "$rust_web_env"
rm -f "$rust_web_env"
echo "windows toolchain: tools ready in $(($(seconds) - started)) s" >&2

export CARGO_TARGET_X86_64_WIN7_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
"$RUSTC" --version >&2
built=$(seconds)
# --locked is not given: the standard library's own lock file drives its dependencies.
"$RUST_WEB_CARGO" build --quiet --release -Zbuild-std=std,panic_unwind \
  --target "$TARGET" --target-dir "$TARGET_DIR" >&2
echo "windows toolchain: duckchess.exe built in $(($(seconds) - built)) s" >&2
"$WINE" --version >&2

print_env
