#!/bin/sh
# The time of an analysis: 'duckchess analyze' on a whole game (level 5 against itself,
# seed 3, played by 'play' here: 122 moves) at MS milliseconds a position, against
# the positions times MS (the overhead a position is reading, clearing the engine's
# tables and writing; a position with a forced result takes less than MS); then the
# same game at a fixed depth, which is the same work on every machine; then
# /api/analyze: one request as the page makes them (four positions at 300 ms) and one
# at the bounds (16 positions at 10 ms), through curl.
#
# Target: the whole analysis within the positions times MS plus 5%.
#
# usage: scripts/bench-analyze.sh [MS] [DEPTH]   (default 100 and 8)
set -eu
ms=${1:-100}
depth=${2:-8}
. "$(dirname "$0")/prepare.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'save %s/game.txt\nquit\n' "$dir" |
  "$bin" play --red ai --blue ai --level 5 --seed 3 --ascii >/dev/null
moves=$(sed -n 2p "$dir/game.txt")
positions=$((moves + 1))

echo "== analyze: a game of $moves moves ($positions positions)"
/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" analyze --movetime "$ms" "$dir/game.txt" >"$dir/out"
read -r wall rss <"$dir/time"
awk -v w="$wall" -v p="$positions" -v ms="$ms" -v rss="$rss" 'BEGIN {
  budget = p * ms / 1000
  printf "  --movetime %d: %.2f s, %.1f%% of the %.2f s asked for (a forced result ends a search early), peak RSS %.1f MB\n",
    ms, w, w * 100 / budget, budget, rss / 1024
}'
tail -3 "$dir/out" | sed 's/^/  /'
/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" analyze --depth "$depth" "$dir/game.txt" >"$dir/out"
read -r wall rss <"$dir/time"
awk -v w="$wall" -v p="$positions" -v d="$depth" -v rss="$rss" 'BEGIN {
  printf "  --depth %d: %.2f s, %.1f ms a position, peak RSS %.1f MB\n", d, w, w * 1000 / p, rss / 1024
}'

echo "== /api/analyze on the same game"
: >"$dir/serve"
"$bin" serve --port 0 >"$dir/serve" 2>/dev/null </dev/zero &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in 1 2 3 4 5 6 7 8 9 10; do
  grep -q http "$dir/serve" && break
  sleep 0.2
done
url=$(sed -n 's/.*open \(http[^ ]*\) in a browser.*/\1/p' "$dir/serve")
game=$(tail -n +3 "$dir/game.txt" | awk 'BEGIN { printf "[" } { printf "%s[%s,%s,%s,%s]", (NR > 1 ? "," : ""), $1, $2, $3, $4 } END { printf "]" }')
for ask in '"from":40,"count":4,"movetime":300' '"from":40,"count":99,"movetime":1'; do
  printf '{"moves":%s,%s}' "$game" "$ask" >"$dir/body"
  curl -s -o "$dir/answer" -w '%{time_total}\n' -X POST "${url}api/analyze" --data-binary @"$dir/body" >"$dir/took"
  got=$(grep -o '"eval"' "$dir/answer" | wc -l)
  echo "  {$ask}: $got positions in $(cat "$dir/took") s"
done
