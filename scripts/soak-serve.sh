#!/usr/bin/env bash
# Soak test of `tactile puzzle serve`: starts its own service (memory or Redis store, a site with
# the default per-client limits, answers revealed for the test) on a free loopback port and sends
# it a steady mix of challenges, image fetches, answers and siteverify calls, 1 % of them
# malformed, for N minutes at R requests a second, sampling the service's RSS every 10 s.
#
# Usage: scripts/soak-serve.sh [--store memory|redis] [--minutes N] [--rate R] [--warmup S]
#   --store    the store (default memory; redis starts a redis-server of its own, nothing
#              saved, and judges the service's RSS, not Redis's)
#   --minutes  how long (default 10; --minutes 1 is a smoke test)
#   --rate     requests a second (default 100)
#   --warmup   seconds before the RSS is judged (default: a minute, or a quarter of runs
#              shorter than four minutes): long enough for the images of unanswered
#              challenges to start expiring (after two minutes) to matter less than noise.
#   TACTILE    the binary (default .build/release/tactile; build with
#              swift build -c release --product tactile). Nothing is built here.
#
# The client is benchmarks/service/soak_client.py, not wrk: each request's status is judged
# against what its kind must get (a malformed request a 4xx, or the contract's 200 refusal
# for answers and siteverify), which wrk's Lua cannot do since it does not know which request
# a response answers; a flow's next request needs the previous answer; and requests go out on
# a fixed schedule whatever the latency (wrk's delay() paces each connection after its last
# response, so a stall would lower the rate instead of showing).
#
# Reports requests by status, unexpected answers per kind, latencies, and the RSS after the
# warm-up. Exits 1 when any request got an unexpected answer or the RSS grew more than 10 %
# after the warm-up.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/benchmarks/service"
tactile=${TACTILE:-$root/.build/release/tactile}
# shellcheck source=SCRIPTDIR/../benchmarks/service/serve_helpers.sh
source "$here/serve_helpers.sh"

minutes=10
rate=100
warmup=""
store=memory
while (($# > 0)); do
    case "$1" in
        --store)
            check_store soak-serve.sh "${@:2:1}"
            store=$2
            shift 2
            ;;
        --minutes)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || {
                echo "soak-serve.sh: --minutes must be a whole number of minutes, 1 or more" >&2
                exit 2
            }
            minutes=$2
            shift 2
            ;;
        --rate)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ && "$2" -le 3000 ]] || {
                echo "soak-serve.sh: --rate must be 1…3000 requests a second" >&2
                exit 2
            }
            rate=$2
            shift 2
            ;;
        --warmup)
            [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || {
                echo "soak-serve.sh: --warmup must be a whole number of seconds" >&2
                exit 2
            }
            warmup=$2
            shift 2
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "soak-serve.sh: unknown option $1 (see --help)" >&2
            exit 2
            ;;
    esac
done

if [[ ! -x "$tactile" ]]; then
    echo "soak-serve.sh: no $tactile; build with: swift build -c release --product tactile" >&2
    exit 2
fi
need_tools soak-serve.sh python3
[[ $store != redis ]] || need_tools soak-serve.sh redis-server redis-cli

work=$(mktemp -d -t tactile-soak-serve.XXXXXX)
trap 'stop_started; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

sitekey=soak-site
secret="soak-secret-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
cat >"$work/sites.json" <<JSON
[{"sitekey": "$sitekey", "secret": "$secret", "hostnames": ["localhost"]}]
JSON
seconds=$((minutes * 60))
[[ -n "$warmup" ]] || warmup=$((minutes >= 4 ? 60 : seconds / 4))
if ((warmup + 20 > seconds)); then
    echo "soak-serve.sh: --warmup $warmup leaves too little of a $seconds s run to judge the RSS" >&2
    exit 2
fi

start_store "$store" serve --sites "$work/sites.json" --trusted-proxy 127.0.0.1 \
    --reveal-answers-for-tests yes
echo "soak: $minutes min at $rate requests/s against $serve_url (pid $serve_pid, $store store), warm-up $warmup s"
status=0
python3 "$here/soak_client.py" --base "$serve_url" --sitekey "$sitekey" --secret "$secret" \
    --pid "$serve_pid" --seconds "$seconds" --rate "$rate" --warmup "$warmup" || status=$?
if ! kill -0 "$serve_pid" 2>/dev/null; then
    echo "soak-serve.sh: the service died; the end of its log:" >&2
    tail -20 "$work/serve.log" >&2
    status=1
fi
if ((status != 0)); then
    echo "soak-serve.sh: FAILED (see above)" >&2
else
    echo "soak-serve.sh: passed"
fi
exit "$status"
