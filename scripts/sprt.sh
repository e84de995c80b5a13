#!/bin/sh
# A sequential probability ratio test (SPRT, as Stockfish's fishtest runs one) between
# a candidate engine and a base engine in self-play: game pairs (one opening, each
# engine red once) until the evidence says the candidate is at least ELO1 better
# (H1: accept the change) or at most ELO0 (H0: reject it), or MAX pairs are played.
#
# usage: scripts/sprt.sh [OPTIONS]
#   --candidate BIN      the candidate duckchess binary (default: this build)
#   --base BIN           the base duckchess binary (default: the candidate binary)
#   --candidate-options LIST, --base-options LIST
#                        UCI options of each ('Name=Value;Name=Value'), e.g. the same
#                        binary against itself with one option changed
#   --movetime MS        time a move for both (default 25)
#   --nodes N            N nodes a move for both instead: games that do not depend on
#                        the machine's load (for changes that keep the speed)
#   --elo0 E0 --elo1 E1  the hypotheses' Elo bounds (default 0 and 10)
#   --max N              the most game pairs (default 2000)
#   --jobs J             game pairs played side by side, each a match of its own
#                        (default: the cores over the engines' threads, at least 1:
#                        only one engine of a match thinks at a time, so a match keeps
#                        as many cores busy as its engine's Threads option says)
#   --seed S             the first opening seed (default 1000; pair k plays seed S+k)
#   --out FILE           the results, one line a pair (default: a new file in /tmp)
#   --record FILE        append every game to FILE.J, J the job (match --record),
#                        e.g. for fit
#
# To stop a test early, create the file OUT.stop: each job ends after its pair.
# Both engines get 'Move Overhead' 2 (the match's own grace covers the rest). The
# openings are those `duckchess match --openings 1 --seed S` picks with the base
# binary, so a test of a change plays the same openings as any other test. The
# statistic is the pentanomial one (each pair's score in quarters), with the usual
# approximation LLR = N ((m - s0)^2 - (m - s1)^2) / (2 v), m and v the mean and
# variance of a pair's score and s0, s1 the scores the two bounds stand for; the test
# stops at LLR -2.94 or +2.94 (5% error each way), after 30 pairs at least.
set -eu
cd "$(dirname "$0")/.."
candidate= base= copts= bopts= movetime=25 nodes= elo0=0 elo1=10 max=2000 jobs= seed=1000 out= record=
while [ $# -gt 0 ]; do
    case $1 in
    --candidate) candidate=$2 ;;
    --base) base=$2 ;;
    --candidate-options) copts=$2 ;;
    --base-options) bopts=$2 ;;
    --movetime) movetime=$2 ;;
    --nodes) nodes=$2 ;;
    --elo0) elo0=$2 ;;
    --elo1) elo1=$2 ;;
    --max) max=$2 ;;
    --jobs) jobs=$2 ;;
    --seed) seed=$2 ;;
    --out) out=$2 ;;
    --record) record=$2 ;;
    *)
        sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
    shift 2
done
if [ -z "$candidate" ]; then
    cargo build --release --quiet
    candidate=$(pwd)/${CARGO_TARGET_DIR:-target}/release/duckchess
fi
base=${base:-$candidate}
# The most search threads either engine is given ('Threads=N' in its options).
threads=$(printf '%s;%s' "$copts" "$bopts" | tr ';' '\n' |
    awk -F= '{ gsub(/^ +| +$/, "", $1); gsub(/ /, "", $2) } tolower($1) == "threads" && $2 + 0 > t { t = $2 + 0 } END { print (t > 0 ? t : 1) }')
if [ -z "$jobs" ]; then
    cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    jobs=$((cores / threads))
    [ "$jobs" -ge 1 ] || jobs=1
fi
out=${out:-$(mktemp /tmp/sprt.XXXXXX)}
stop=$out.stop
rm -f "$stop"
trap 'touch "$stop"' INT TERM
: >>"$out"

# The LLR and a summary of the pairs in $out.
summary() {
    awk -v e0="$elo0" -v e1="$elo1" -v max="$max" '
    { n++; s = ($2 + $4 / 2) / 2; sum += s; sq += s * s; w += $2; l += $3; d += $4; p[s * 4]++ }
    END {
        if (n == 0) { print "0 pairs"; exit }
        # The variance is floored (a few pairs can look alike by chance), and no verdict
        # comes before 30 pairs.
        m = sum / n; v = sq / n - m * m; if (v < 0.01) v = 0.01
        s0 = 1 / (1 + 10 ^ (-e0 / 400)); s1 = 1 / (1 + 10 ^ (-e1 / 400))
        llr = n * ((m - s0) ^ 2 - (m - s1) ^ 2) / (2 * v)
        margin = 1.96 * sqrt(v / n)
        elo = (m <= 0 || m >= 1) ? "beyond measure" : sprintf("%+.1f", -400 * log(1 / m - 1) / log(10))
        lo = m - margin; hi = m + margin
        elolo = (lo <= 0) ? -999 : -400 * log(1 / lo - 1) / log(10)
        elohi = (hi >= 1) ? 999 : -400 * log(1 / hi - 1) / log(10)
        verdict = (n >= 30 && llr >= 2.94) ? "H1 accepted" : (n >= 30 && llr <= -2.94) ? "H0 accepted" : (n >= max) ? "inconclusive" : "running"
        printf "%d pairs, %d-%d-%d, pairs %d %d %d %d %d, score %.1f%% +- %.1f%%, Elo %s [%+.0f, %+.0f], LLR %.2f (%+.2f), %s\n", \
            n, w, l, d, p[0], p[1], p[2], p[3], p[4], 100 * m, 100 * margin, elo, elolo, elohi, llr, 2.94, verdict
    }' "$out"
}

control="--movetime $movetime"
if [ -n "$nodes" ]; then
    control="--nodes $nodes"
fi

worker() {
    k=$1
    recording=
    if [ -n "$record" ]; then
        recording="--record $record.$1"
    fi
    while [ "$k" -lt "$max" ] && [ ! -e "$stop" ]; do
        s=$((seed + k))
        # shellcheck disable=SC2086 # $control and $recording are lists of options
        result=$("$base" match --quiet --openings 1 --seed "$s" $control $recording \
            --engine "$candidate uci --tuning" --engine-options "Move Overhead=2;$copts" \
            --opponent "$base uci --tuning" --opponent-options "Move Overhead=2;$bopts" |
            sed -n 's/^engine: wins \([0-9]*\), losses \([0-9]*\), draws \([0-9]*\).*/\1 \2 \3/p')
        [ -n "$result" ] || { echo "pair $s: no result" >&2; k=$((k + jobs)); continue; }
        echo "$s $result" >>"$out"
        line=$(summary)
        case $line in
        *accepted* | *inconclusive*) [ -e "$stop" ] || echo "$line" >"$stop" ;;
        esac
        k=$((k + jobs))
    done
}

echo "sprt: $candidate [$copts] against $base [$bopts], ${control#--}, Elo [$elo0, $elo1], at most $max pairs, $jobs at once; results in $out"
j=0 pids=
while [ "$j" -lt "$jobs" ]; do
    worker "$j" &
    pids="$pids $!"
    j=$((j + 1))
done
running() {
    for pid in $pids; do
        kill -0 "$pid" 2>/dev/null && return 0
    done
    return 1
}
last=
while [ ! -e "$stop" ] && running; do
    sleep 10
    line=$(summary)
    if [ "$line" != "$last" ]; then
        echo "$line"
        last=$line
    fi
done
wait
# The verdict where the test stopped (a pair still running then is counted after it).
if [ -s "$stop" ]; then
    echo "stopped at: $(cat "$stop")"
fi
summary
rm -f "$stop"
