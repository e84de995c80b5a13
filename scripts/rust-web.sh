#!/usr/bin/env bash
# Debian 12's rustc-web (Rust 1.96) with the standard library's source (rust-web-src),
# which builds std for targets Debian ships no std for: the Windows build
# (scripts/windows-toolchain.sh) and the WebAssembly site (scripts/site.sh). Idempotent;
# needs root on a fresh machine.
#
#   scripts/rust-web.sh [PACKAGE...]
#     unpacks what is missing, installs the Debian PACKAGEs its caller needs beside it
#     (a linker, say), then prints the lines to export: RUSTC, RUSTC_BOOTSTRAP=1 (for
#     -Zbuild-std), LD_LIBRARY_PATH, and RUST_WEB_CARGO (its cargo)
#
# rustc-web conflicts with Debian's rustc (1.63), which the bundle test needs as
# /usr/bin/rustc: rustc-web and its cargo are unpacked into a folder of their own
# (RUST_WEB_ROOT, default /opt/duckchess-rust-web) rather than installed.
set -euo pipefail

RUST_WEB_ROOT=${RUST_WEB_ROOT:-/opt/duckchess-rust-web}

# LLVM 22 for rustc-web, the libraries cargo-web links with, and the caller's.
PACKAGES="libllvm22 libcurl4 libgit2-1.5 libssh2-1 libsqlite3-0 $*"
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
    rust-web-src)
  mkdir -p "$RUST_WEB_ROOT.part"
  for deb in "$download"/*.deb; do
    dpkg -x "$deb" "$RUST_WEB_ROOT.part"
  done
  rm -rf "$download" "$RUST_WEB_ROOT"
  mv "$RUST_WEB_ROOT.part" "$RUST_WEB_ROOT"
fi

echo "export LD_LIBRARY_PATH=$RUST_WEB_ROOT/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "export RUSTC=$RUST_WEB_ROOT/usr/bin/rustc"
echo "export RUSTC_BOOTSTRAP=1"
echo "export RUST_WEB_CARGO=$RUST_WEB_ROOT/usr/bin/cargo"
