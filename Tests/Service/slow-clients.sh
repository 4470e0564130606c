#!/usr/bin/env bash
# The slow-client load test (Tests/Service/slow-clients.py): starts one `tactile puzzle serve`
# (memory store) on a free loopback port, attacks it with slow clients from many loopback
# addresses while a probe client asks for answers, and stops it. Python 3's standard library
# only; about 35 s.
#
#   Tests/Service/slow-clients.sh                          builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Service/slow-clients.sh   uses that binary
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ -n "${TACTILE:-}" ]]; then
    tactile=$TACTILE
else
    swift build --product tactile >/dev/null
    tactile="$(swift build --show-bin-path)/tactile"
fi
python=$(command -v /usr/bin/python3 || command -v python3)
work=$(mktemp -d)
serve_pid=""
cleanup() {
    if [[ -n "$serve_pid" ]]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/sites.json" <<JSON
[{"sitekey": "slow-clients-site", "secret": "slow-clients-secret-0123456789abcdef",
  "hostnames": ["127.0.0.1"], "proofOfWorkDifficulty": null,
  "puzzlesPerMinute": 1000, "answersPerMinute": 1000}]
JSON
# The attack opens well over a thousand sockets on each side.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
"$tactile" puzzle serve --listen 127.0.0.1:0 --sites "$work/sites.json" \
    >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 100); do
    grep -q '^listening on ' "$work/serve.out" && break
    kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
    sleep 0.1
done
url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/serve.out")
[[ -n "$url" ]] || { echo "slow-clients.sh: serve did not start" >&2; cat "$work/serve.err" >&2; exit 1; }

status=0
TACTILE_SERVICE_URL="$url" TACTILE_SERVE_PID="$serve_pid" \
    "$python" Tests/Service/slow-clients.py || status=$?
echo "--- serve's log about connections (last lines)"
grep -E 'server: in the last 10 s' "$work/serve.err" | tail -n 4 || true
if ((status != 0)); then
    echo "--- serve (last lines of its log)" >&2
    tail -n 25 "$work/serve.err" >&2
fi
exit $status
