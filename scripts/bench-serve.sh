#!/usr/bin/env bash
# Load benchmark of `tactile puzzle serve` with wrk: starts a fresh service (and, for the redis
# store, a Redis of its own) on a free loopback port for each store and phase, the stores
# taking turns, drives it from 32 connections as 32 clients, and prints a table of rates and
# latencies.
#
# Usage: scripts/bench-serve.sh [--store memory|redis] [--seconds N]
#   --store    the store to measure (default: memory, then redis, and their ratio)
#   --seconds  timed seconds per phase (default 10)
#   TACTILE    the binary (default .build/release/tactile; build with
#              swift build -c release --product tactile). Nothing is built here.
# Needs wrk, python3 and, for redis, redis-server (scripts/setup.sh --with-bench).
#
# Phases, each wrk -t2 -c32, each request carrying one of 32 client addresses in
# X-Forwarded-For (the service trusts 127.0.0.1 as a proxy), with limits per client high
# enough never to trigger:
#   challenges     POST /v1/challenges, then GET its background and piece: a challenge is
#                  the three (benchmarks/service/bench_challenges.lua).
#   answer+verify  a person's drag onto the hole (the answer looked up at /test/answer/{id},
#                  --reveal-answers-for-tests), then POST /v1/siteverify with the token
#                  (bench_answers.lua). The answers are prepared before each timed round
#                  (bench_prep.py, not timed). The service keeps at most 10,000 puzzles
#                  pending, so a round has at most 9,000 answers; rounds repeat until the
#                  phase has run N seconds.
# Latencies are per request, as wrk sees them; the service's own histograms (/metrics: from
# having a request whole to its answer, and the part of that spent waiting for a worker) are
# shown per endpoint below each phase. Takes a few minutes with the defaults: preparing
# answers is the slow part.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/benchmarks/service"
tactile=${TACTILE:-$root/.build/release/tactile}
# shellcheck source=SCRIPTDIR/../benchmarks/service/serve_helpers.sh
source "$here/serve_helpers.sh"

stores=()
seconds=10
while (($# > 0)); do
    case "$1" in
        --store)
            check_store bench-serve.sh "${@:2:1}"
            stores+=("$2")
            shift 2
            ;;
        --seconds)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || {
                echo "bench-serve.sh: --seconds must be a whole number of seconds, 1 or more" >&2
                exit 2
            }
            seconds=$2
            shift 2
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "bench-serve.sh: unknown option $1 (see --help)" >&2
            exit 2
            ;;
    esac
done
((${#stores[@]} > 0)) || stores=(memory redis)

if [[ ! -x "$tactile" ]]; then
    echo "bench-serve.sh: no $tactile; build with: swift build -c release --product tactile" >&2
    exit 2
fi
need_tools bench-serve.sh wrk python3
[[ " ${stores[*]} " != *" redis "* ]] || need_tools bench-serve.sh redis-server redis-cli

work=$(mktemp -d -t tactile-bench-serve.XXXXXX)
trap 'stop_started; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

connections=32
threads=2
sitekey=bench-site
secret="bench-secret-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
# The most a site may set (the service names the range 1…1000000 when refusing more). No
# price: finding a nonce is the client's work, and checking one costs the service a single
# hash; what is measured is the service. The drag model judges every drag but refuses none:
# the drags here are simulated, and a simulation is not what the model is for.
cat >"$work/sites.json" <<EOF
[{"sitekey": "$sitekey", "secret": "$secret", "hostnames": ["localhost"],
  "puzzlesPerMinute": 1000000, "answersPerMinute": 1000000, "proofOfWorkDifficulty": null,
  "scriptScoreLimit": 1}]
EOF
results="$work/results"
: >"$results"

# result KEY FILE: one field of a RESULT line.
result() { sed -n "s/^RESULT .*\\b$1=\\([^ ]*\\).*/\\1/p" "$2"; }

# The Redis records after a phase: how many keys, and the largest client record (the one an
# answer reads and writes back whole).
redis_state_size() {
    if [[ -n "$redis_port" ]]; then
        local largest=0 name size
        while read -r name; do
            size=$(redis-cli -p "$redis_port" strlen "$name")
            ((size > largest)) && largest=$size
        done < <(redis-cli -p "$redis_port" --scan --pattern 'tactile:client:*')
        echo "    redis: $(redis-cli -p "$redis_port" dbsize) keys; the largest client record" \
            "$largest bytes"
    fi
}

run_wrk() { # run_wrk OUT SECONDS SCRIPT ARGS...
    local out=$1 duration=$2 script=$3
    shift 3
    if ! wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout 5s -s "$script" \
        "$serve_url" -- "$@" >"$out" 2>&1 || ! grep -q '^RESULT ' "$out"; then
        echo "bench-serve.sh: wrk failed:" >&2
        cat "$out" >&2
        exit 1
    fi
}

# The challenges phase of STORE.
phase_challenges() {
    local store=$1 line
    python3 "$here/bench_report.py" snapshot "$metrics_url" "$work/$store-a0.metrics"
    run_wrk "$work/$store-challenges.txt" "$seconds" "$here/bench_challenges.lua" \
        "$sitekey" $((connections / threads))
    python3 "$here/bench_report.py" snapshot "$metrics_url" "$work/$store-a1.metrics"
    line=$(grep '^RESULT ' "$work/$store-challenges.txt")
    printf '%s\tchallenges\t%s\n' "$store" "$line" >>"$results"
    echo "   challenges: $(result units "$work/$store-challenges.txt") in" \
        "$(result seconds "$work/$store-challenges.txt") s," \
        "statuses $(result statuses "$work/$store-challenges.txt")"
    python3 "$here/bench_report.py" server-latency "$work/$store-a0.metrics" "$work/$store-a1.metrics"
    redis_state_size
}

# The answer+verify phase of STORE.
phase_answers() {
    local store=$1 line timed round count answers prepared remaining took pairs passed answered
    local -a rounds snapshots
    timed=0
    round=0
    rounds=()
    snapshots=()
    count=9000
    while awk -v t="$timed" -v s="$seconds" 'BEGIN { exit !(t < s - 0.5) }'; do
        round=$((round + 1))
        answers="$work/$store-answers-$round.tsv"
        python3 "$here/bench_prep.py" --base "$serve_url" --sitekey "$sitekey" --count "$count" \
            --clients "$connections" --budget 30 --out "$answers" 2>"$work/prep.txt" || {
            cat "$work/prep.txt" >&2
            exit 1
        }
        prepared=$(wc -l <"$answers")
        ((prepared > 0)) || {
            echo "bench-serve.sh: no answers could be prepared:" >&2
            cat "$work/prep.txt" >&2
            exit 1
        }
        remaining=$(awk -v t="$timed" -v s="$seconds" 'BEGIN { r = s - t; printf "%d", (r == int(r)) ? r : int(r) + 1 }')
        python3 "$here/bench_report.py" snapshot "$metrics_url" "$work/$store-b$round-0.metrics"
        run_wrk "$work/$store-answers-$round.txt" "$remaining" "$here/bench_answers.lua" \
            "$answers" "$secret" "$threads"
        python3 "$here/bench_report.py" snapshot "$metrics_url" "$work/$store-b$round-1.metrics"
        snapshots+=("$work/$store-b$round-0.metrics" "$work/$store-b$round-1.metrics")
        rounds+=("$work/$store-answers-$round.txt")
        took=$(result seconds "$work/$store-answers-$round.txt")
        pairs=$(result units "$work/$store-answers-$round.txt")
        timed=$(awk -v t="$timed" -v d="$took" 'BEGIN { print t + d }')
        echo "   answer+verify round $round: $(sed 's/^prepared //' "$work/prep.txt" | head -1);" \
            "$pairs pairs in $took s, statuses $(result statuses "$work/$store-answers-$round.txt")," \
            "failures $(result failures "$work/$store-answers-$round.txt")"
        # The next round needs only what the rest of the phase can use, at this round's rate.
        count=$(awk -v p="$pairs" -v d="$took" -v t="$timed" -v s="$seconds" \
            'BEGIN { n = (d > 0 ? p / d : 100) * (s - t) * 1.2 + 100; if (n > 9000) n = 9000; printf "%d", n }')
        # A round that ran out of time, not of answers, has used up the phase.
        [[ $(result exhausted "$work/$store-answers-$round.txt") == 1 && $pairs -gt 0 ]] || break
    done
    line=$(python3 "$here/bench_report.py" combine "${rounds[@]}")
    printf '%s\tanswer+verify\t%s\n' "$store" "$line" >>"$results"
    python3 "$here/bench_report.py" server-latency "${snapshots[@]}"
    redis_state_size
    passed=$(sed -n 's/.* passed=\([0-9]*\).*/\1/p' <<<"$line")
    answered=$(sed -n 's/.* answered=\([0-9]*\).*/\1/p' <<<"$line")
    if ((passed * 100 < answered * 99)); then
        echo "   WARNING: only $passed of $answered answers passed; the rules that failed:" >&2
        grep -ao 'not-passed: .*' "$work/serve-$store.log" | sed 's/[0-9.-]*)$/…)/' |
            sort | uniq -c | sort -rn | head -5 >&2 || true
    fi
}

# The stores take turns phase by phase, so that each ratio compares runs minutes apart at
# most, on a machine whose speed drifts.
for phase in challenges answers; do
    for store in "${stores[@]}"; do
        echo "== $store store, $phase"
        start_store "$store" "serve-$store" --sites "$work/sites.json" \
            --trusted-proxy 127.0.0.1 --reveal-answers-for-tests yes
        echo "   serve $serve_url (pid $serve_pid, log $work/serve-$store.log while it runs)"
        "phase_$phase" "$store"
        stop_started
    done
done

python3 "$here/bench_report.py" table "$results"
