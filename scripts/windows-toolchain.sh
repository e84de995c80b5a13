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
# Debian's rustc-web (1.96) conflicts with Debian's rustc (1.63), which the bundle test
# needs as /usr/bin/rustc: rustc-web and its cargo are unpacked into a folder of their
# own (RUST_WEB_ROOT) rather than installed.
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

# The tools installed from Debian: the MinGW linker and C++ compiler, Wine, zip for the
# release archive, LLVM 22 for rustc-web, and the libraries cargo-web links with.
PACKAGES="gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64 zip libllvm22
  libcurl4 libgit2-1.5 libssh2-1 libsqlite3-0"
missing=""
for p in $PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

if [ ! -x "$RUST_WEB_ROOT/usr/bin/rustc" ]; then
  apt-get update -qq
  download=$(mktemp -d)
  (cd "$download" && apt-get download -qq rustc-web cargo-web libstd-rust-web-dev \
    "libstd-rust-web-$(apt-cache show rustc-web | sed -n 's/^Version: \([0-9]*\.[0-9]*\).*/\1/p' | head -1)" \
    rust-web-src 2>/dev/null)
  mkdir -p "$RUST_WEB_ROOT.part"
  for deb in "$download"/*.deb; do
    dpkg -x "$deb" "$RUST_WEB_ROOT.part"
  done
  rm -rf "$download" "$RUST_WEB_ROOT"
  mv "$RUST_WEB_ROOT.part" "$RUST_WEB_ROOT"
fi
echo "windows toolchain: tools ready in $(($(seconds) - started)) s" >&2

export LD_LIBRARY_PATH="$RUST_WEB_ROOT/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export RUSTC="$RUST_WEB_ROOT/usr/bin/rustc"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_X86_64_WIN7_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
"$RUSTC" --version >&2
built=$(seconds)
# --locked is not given: the standard library's own lock file drives its dependencies.
"$RUST_WEB_ROOT/usr/bin/cargo" build --quiet --release -Zbuild-std=std,panic_unwind \
  --target "$TARGET" --target-dir "$TARGET_DIR" >&2
echo "windows toolchain: duckchess.exe built in $(($(seconds) - built)) s" >&2
"$WINE" --version >&2

print_env
