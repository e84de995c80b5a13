#!/usr/bin/env bash
# Which toolchain builds the static site's WebAssembly (scripts/site.sh): prints
# `rustup` or `debian`, and changes nothing.
#
#   rustup   rustup is on PATH (with its cargo): the `wasm32-unknown-unknown` target of
#            the active toolchain, added once with `rustup target add`. Any system
#            rustup runs on: Linux, macOS, Windows (Git Bash, WSL).
#   debian   no rustup, but Debian's apt: rustc-web builds the standard library for
#            WebAssembly from source (-Zbuild-std; scripts/rust-web.sh) and lld-19
#            links it. Needs root on a fresh machine, to install them.
#
# DUCKCHESS_SITE_TOOLCHAIN=rustup or =debian chooses instead (for example, Debian's
# path on a machine that also has rustup). Neither found: a message, and status 1.
set -euo pipefail

on_path() {
  command -v "$1" >/dev/null 2>&1
}

case ${DUCKCHESS_SITE_TOOLCHAIN:-} in
  rustup | debian)
    echo "$DUCKCHESS_SITE_TOOLCHAIN"
    exit 0
    ;;
  "") ;;
  *)
    echo "site: DUCKCHESS_SITE_TOOLCHAIN: expected rustup or debian, found '$DUCKCHESS_SITE_TOOLCHAIN'" >&2
    exit 2
    ;;
esac
if on_path rustup && on_path cargo; then
  echo rustup
elif on_path apt-get && on_path dpkg; then
  echo debian
else
  echo "site: no toolchain for WebAssembly here: install rustup (https://rustup.rs), or build on Debian (apt-get)" >&2
  exit 1
fi
