#!/usr/bin/env bash
# Fetches the four official cases of THUPC 2019 "Duck Chess" (1.in/1.ans .. 4.in/4.ans)
# from the contest's problem repository, where they are published:
#   https://github.com/wangyurzee7/THUPC2019/tree/master/day1/duckchess/data
# and puts them where the tools' guides and the tests look: ../shared/official/duckchess
# beside this clone (or the folder given as the argument). Each file is checked against
# its SHA-256 sum; the folder is written whole or not at all (into a temporary folder
# first, then renamed into place).
# Needs curl (or wget) and sha256sum (or shasum). Without the network it fails with a
# message and exit status 1, touching nothing; the tests then skip what needs the cases.
# Usage: scripts/fetch-official.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-../shared/official/duckchess}
base=https://raw.githubusercontent.com/wangyurzee7/THUPC2019/master/day1/duckchess/data
sums="95e33f8526aafd2d5233b7c787bc3bc4cda0885f1b40790db46ad3884fbd36c7  1.in
5bd66e589af88f794e1c959025a8216e68e34a3aeb957507d601bc7db9c65aac  1.ans
ffd56a87388301ae66e91402ec2933ef061f53cde5bf65bcd768c0ff8ae28836  2.in
ef24fc1889b26f12bd4bd8e8868f2f7a482ae23ab48fec27782f29bb7be3a6cb  2.ans
1909286595bcc7769d25951562604532f170b9650aee112c39f9a157d1c92418  3.in
b65e36c1e577f180d9576e0144ee477fb87d0c44ba22bd1d7daf2f42124f0340  3.ans
709037b9c0cffda3d27e33c10f4bf0ac85f59bfaa4a2ebe7224e44704e1d11da  4.in
1988f6b912d7dd187cb4e87cfd1837ce4071c0af87e11421635a2202a0c509c3  4.ans"

fail() {
  echo "fetch-official: $*" >&2
  exit 1
}

if [ -f "$dest/1.in" ] && [ -f "$dest/4.ans" ]; then
  echo "fetch-official: the official cases are already in $dest"
  exit 0
fi
if command -v curl >/dev/null; then
  get() { curl -fsL --connect-timeout 10 --max-time 60 -o "$2" "$1"; }
elif command -v wget >/dev/null; then
  get() { wget -q -T 10 -O "$2" "$1"; }
else
  fail "needs curl or wget"
fi
if command -v sha256sum >/dev/null; then
  check() { sha256sum -c --status; }
elif command -v shasum >/dev/null; then
  check() { shasum -a 256 -c --status; }
else
  fail "needs sha256sum or shasum"
fi

parent=$(dirname "$dest")
# The folders this run creates (deepest first): a failed run removes them again.
created=()
d=$parent
while [ ! -d "$d" ]; do
  created+=("$d")
  d=$(dirname "$d")
done
tmp=""
cleanup() {
  [ -z "$tmp" ] || rm -rf "$tmp"
  for c in ${created[@]+"${created[@]}"}; do rmdir "$c" 2>/dev/null || true; done
}
trap cleanup EXIT
mkdir -p "$parent" || fail "cannot create $parent"
tmp=$(mktemp -d "$parent/.official.XXXXXX") || fail "cannot write in $parent"
for f in 1.in 1.ans 2.in 2.ans 3.in 3.ans 4.in 4.ans; do
  get "$base/$f" "$tmp/$f" ||
    fail "cannot download $base/$f (no network here?); nothing was written. Download the four cases by hand from https://github.com/wangyurzee7/THUPC2019/tree/master/day1/duckchess/data into $dest"
done
(cd "$tmp" && printf '%s\n' "$sums" | check) ||
  fail "the files downloaded differ from the published cases (checksums); nothing was written"
rm -rf "$dest"
mv "$tmp" "$dest" || fail "cannot move the cases into $dest"
trap - EXIT
# build.rs looks for the cases when the tests are built: it looks again.
touch build.rs
echo "fetch-official: the four official cases are in $dest"
