#!/usr/bin/env bash
# The board as a static site: the page `duckchess serve` serves, and the same routes
# built to WebAssembly (duckchess.wasm), so that any static host, or a folder served by
# any web server, runs the rules, the engine and the judge in the browser.
#
#   scripts/site.sh DIR    writes into DIR (made if missing): the page's files
#                          (index.html, its modules app.js, board.js, ..., style.css,
#                          favicon.svg, worker.js), duckchess.wasm, and
#                          api.json, which tells the page that its workers answer
#                          (where `duckchess serve` serves the page, it answers
#                          api.json itself, and the page asks it instead)
#
# No crate and no JavaScript package. Two toolchains build the module the same way
# (scripts/site-toolchain.sh chooses): where rustup is, its wasm32-unknown-unknown
# target (added once); elsewhere Debian's rustc-web, which builds the standard library
# for that target from rust-web-src (-Zbuild-std; scripts/rust-web.sh), and Debian's
# lld-19, which links it (wasm-ld; root on a fresh machine, to install them).
# DUCKCHESS_SITE_TOOLCHAIN=rustup or =debian chooses instead.
# Each file is written aside and renamed into place; nothing else in DIR is touched.
set -euo pipefail
if [ $# -ne 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  echo "usage: scripts/site.sh DIR" >&2
  exit 2
fi
# Refused before anything is built or made: `-` is no folder to `cd` (it means the last
# one), and a name that starts with `-` reads as an option; ./-x names such a folder.
case "$1" in
  -*)
    echo "scripts/site.sh: DIR '$1' looks like an option; write ./$1 for a folder so named" >&2
    echo "usage: scripts/site.sh DIR" >&2
    exit 2
    ;;
esac
# DIR as given, from where the script was run.
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."

toolchain=$(scripts/site-toolchain.sh)
# An interrupted run leaves no part-written file behind.
trap 'rm -f "$OUT"/.*.part' EXIT

# Aborting on a panic: unwinding is not available in the browser, and the page starts
# a fresh instance after a failure anyway. SIMD (every browser since 2021-2023: Chrome
# 91, Firefox 89, Safari 16.4) doubles the engine's speed: the network's sums vectorise.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C panic=abort -C target-feature=+simd128"
started=$(date +%s)
case $toolchain in
  rustup)
    # The active toolchain (a rust-toolchain file or an override may name it), run
    # through rustup so that its cargo finds its own rustc whatever else is on PATH.
    active=$(rustup show active-toolchain | head -1 | cut -d' ' -f1)
    if ! rustup target list --installed --toolchain "$active" | grep -qx wasm32-unknown-unknown; then
      rustup target add --toolchain "$active" wasm32-unknown-unknown >&2
    fi
    # A target folder of its own, kept between builds.
    TARGET_DIR=${DUCKCHESS_SITE_TARGET_DIR:-$PWD/target/site-rustup}
    rustup run "$active" cargo rustc --quiet --release --lib --crate-type cdylib \
      --target wasm32-unknown-unknown --target-dir "$TARGET_DIR" >&2
    ;;
  debian)
    rust_web_env=$(mktemp)
    trap 'rm -f "$rust_web_env" "$OUT"/.*.part' EXIT
    scripts/rust-web.sh lld-19 >"$rust_web_env"
    . "$rust_web_env"
    # A target folder of its own, kept between builds: the standard library is built
    # once.
    TARGET_DIR=${DUCKCHESS_SITE_TARGET_DIR:-$PWD/target/site}
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19
    # --locked is not given: the standard library's own lock file drives its
    # dependencies.
    "$RUST_WEB_CARGO" rustc --quiet --release --lib --crate-type cdylib \
      -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown --target-dir "$TARGET_DIR" >&2
    ;;
esac
echo "site: duckchess.wasm built with $toolchain in $(($(date +%s) - started)) s" >&2

put() {
  cp "$1" "$OUT/.$2.part"
  mv "$OUT/.$2.part" "$OUT/$2"
}
# The module first, the page last: a visitor during an update gets a page whose module
# is already there.
put "$TARGET_DIR/wasm32-unknown-unknown/release/duckchess.wasm" duckchess.wasm
# Every file of the page (its modules, the worker's script, the style), index.html last.
for path in src/web/page/*; do
  file=$(basename "$path")
  [ "$file" = index.html ] || put "$path" "$file"
done
put src/web/page/index.html index.html
printf '{"api":"browser"}\n' >"$OUT/.api.json.part"
mv "$OUT/.api.json.part" "$OUT/api.json"
echo "site: $(cd "$OUT" && pwd) ($(wc -c <"$OUT/duckchess.wasm") bytes of WebAssembly)" >&2
