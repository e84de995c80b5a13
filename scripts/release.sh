#!/usr/bin/env bash
# The archives a maintainer attaches to a release, written to OUT (default dist/):
#
#   duckchess-VERSION-x86_64-linux.tar.gz    duckchess, site/, README.md, LICENSE, SHA256SUMS
#   duckchess-VERSION-x86_64-windows.zip     duckchess.exe, site/, README.md, LICENSE, SHA256SUMS
#
# each in a folder of the same name, site/ the board as a static site (scripts/site.sh),
# SHA256SUMS holding the sums of the program and of the site's files, and beside
# each archive ARCHIVE.sha256, the archive's own sum (`sha256sum -c` checks it). The
# Windows program comes from scripts/windows-toolchain.sh (Debian 12 packages, run as
# root on a fresh machine; see there why it is built for x86_64-win7-windows-gnu); the
# Linux one is the release build of the rustup toolchain on PATH.
#
#   scripts/release.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-dist}
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
# Every file in the archives gets the last commit's time, so that the same commit gives
# the same archives.
STAMP=$(git log -1 --format=%ct 2>/dev/null || date +%s)

cargo build --quiet --release --locked
windows_env=$(mktemp)
scripts/windows-toolchain.sh >"$windows_env"
. "$windows_env"
if ! command -v zip >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zip >/dev/null
fi

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The static site, built once for both archives.
scripts/site.sh "$stage/site"

# stage NAME PROGRAM: the folder NAME in the stage, with PROGRAM, the site and the
# documents.
stage() {
  local dir="$stage/$1"
  mkdir -p "$dir"
  cp "$2" README.md LICENSE "$dir/"
  cp -r "$stage/site" "$dir/site"
  (cd "$dir" && find site -type f | LC_ALL=C sort | xargs sha256sum "$(basename "$2")" >SHA256SUMS)
  find "$dir" -exec touch -h -d "@$STAMP" {} +
}

linux=duckchess-$VERSION-x86_64-linux
stage "$linux" target/release/duckchess
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$STAMP" \
  -cf - "$linux" | gzip -n -9 >"$OUT/$linux.tar.gz"

windows=duckchess-$VERSION-x86_64-windows
stage "$windows" "$DUCKCHESS_WINDOWS_EXE"
rm -f "$OUT/$windows.zip"
(cd "$stage" && find "$windows" | LC_ALL=C sort | TZ=UTC zip -q -X -9 "$OUT/$windows.zip" -@)

cd "$OUT"
for archive in "$linux.tar.gz" "$windows.zip"; do
  sha256sum "$archive" >"$archive.sha256"
  sha256sum -c --quiet "$archive.sha256"
  echo "$OUT/$archive"
done
