#!/bin/sh
# The ladder of playing strengths: each level against the one below it, and level 1
# against the greedy player, in the arena. Each line plays GAMES games with each
# colour (2 GAMES in all, from the arena's seeded openings) and gives the upper
# player's wins, losses and draws, its score (a draw counts half) and the rating
# difference that score stands for. Levels 1-7 play by node counts and seeded
# mistakes, and level 8 (the full engine) here searches a fixed depth (LEVEL8, the
# arena's options for it, default --depth 9), so the table is the same on every
# machine; give --think MS instead to see level 8 on the clock.
#
# Target: every level scores clearly above 50% against the one below it, and level 1
# well below 50% against greedy.
#
# usage: scripts/bench-levels.sh [GAMES] [SEED] [LEVEL8 OPTIONS]
#   default: 20 games per colour, seed 1, --depth 9. About 10 minutes on one core.
set -eu
games=${1:-20}
seed=${2:-1}
level8=${3:---depth 9}
. "$(dirname "$0")/prepare.sh"

# Plays $1 as red, then as blue; prints "W L D" for $1.
record() {
    # shellcheck disable=SC2086 # $level8 is a list of options
    a=$("$bin" arena --red "$1" --blue "$2" --games "$games" --seed "$seed" $level8 --quiet)
    # shellcheck disable=SC2086
    b=$("$bin" arena --red "$2" --blue "$1" --games "$games" --seed "$seed" $level8 --quiet)
    # "red wins R, blue wins B, draws D", twice
    echo "$a" "$b" | tr -d ',' | awk '{ print $3 + $14, $6 + $11, $8 + $16 }'
}

echo "== the ladder: $games games with each colour per line, seed $seed, level8 with $level8"
printf '%-7s %-7s %5s %4s %6s %5s %6s %6s %6s\n' upper lower games wins losses draws score rating time
for pair in "level1 greedy" "level2 level1" "level3 level2" "level4 level3" \
    "level5 level4" "level6 level5" "level7 level6" "level8 level7"; do
    set -- $pair
    start=$(date +%s)
    set -- "$1" "$2" $(record "$1" "$2")
    end=$(date +%s)
    total=$((2 * games))
    # The score, and the rating difference it stands for (the logistic model; a
    # score of 0 or 1 has none, shown as beyond 800).
    figures=$(awk -v w="$3" -v d="$5" -v n="$total" 'BEGIN {
        s = (w + d / 2) / n
        if (s >= 0.99) r = "+800+"; else if (s <= 0.01) r = "-800-"
        else r = sprintf("%+d", -400 * log(1 / s - 1) / log(10))
        printf "%.1f%% %s", 100 * s, r }')
    set -- "$@" $figures
    printf '%-7s %-7s %5s %4s %6s %5s %6s %6s %5ss\n' "$1" "$2" "$total" "$3" "$4" "$5" "$6" "$7" \
        "$((end - start))"
done
