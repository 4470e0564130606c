#!/usr/bin/env bash
# Runs the two-instance tests of `tactile puzzle serve` over HTTP
# (Tests/Service/test_two_instances.py): starts its own redis-server on a free loopback port
# (persistent, in a scratch folder), two serve processes on free ports that share it and one sites file,
# runs the tests, and stops everything. Needs redis-server (scripts/setup.sh installs it) and
# python3 (the standard library only).
#
#   Tests/Service/run.sh                          builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Service/run.sh   uses that binary
#
# Prints "N passed, M failed" last; exits non-zero when a test fails (then the instances' logs
# follow).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ -n "${TACTILE:-}" ]]; then
    tactile=$TACTILE
else
    swift build --product tactile >/dev/null
    tactile="$(swift build --show-bin-path)/tactile"
fi
redis=${REDIS_SERVER:-$(command -v redis-server || true)}
if [[ -z "$redis" || ! -x "$redis" ]]; then
    echo "run.sh: redis-server is missing; install it (scripts/setup.sh)" >&2
    exit 2
fi
python=$(command -v /usr/bin/python3 || command -v python3)

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    # The tests restart Redis, so the one running now is the one its pid file names.
    if [[ -s "$work/redis.pid" ]]; then kill "$(cat "$work/redis.pid")" 2>/dev/null || true; fi
    if [[ -n "${redis_pid:-}" ]]; then kill "$redis_pid" 2>/dev/null || true; fi
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work" || true
}
trap cleanup EXIT

free_port() {
    "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Redis with persistence (an append-only file synced on every write), as it should run for
# the service: a restart keeps what it held. The tests also wipe it to see a loss fail closed.
redis_port=$(free_port)
mkdir -p "$work/redis"
redis_command=("$redis" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly yes
    --appendfsync always --dir "$work/redis" --pidfile "$work/redis.pid" --logfile "$work/redis.log")
"${redis_command[@]}" &
redis_pid=$!
disown $redis_pid  # the tests kill it and start another; the pid file names the live one
redis_answers() {
    "$python" - "$redis_port" 2>/dev/null <<'EOF'
import socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1) as s:
    s.sendall(b"PING\r\n")
    sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)
EOF
}
for _ in $(seq 100); do
    redis_answers && break
    sleep 0.1
done
redis_answers || { echo "run.sh: redis-server did not start" >&2; cat "$work/redis.log" >&2; exit 1; }

# One sites file for both instances: the same site key and secret, limits loose enough for
# every request of the tests coming from 127.0.0.1.
secret="service-test-secret-$("$python" -c 'import secrets; print(secrets.token_hex(16))')"
cat >"$work/sites.json" <<EOF
[{"sitekey": "service-test-site", "secret": "$secret", "hostnames": ["127.0.0.1", "localhost"],
  "proofOfWorkDifficulty": null, "puzzlesPerMinute": 1000, "answersPerMinute": 1000}]
EOF

urls=()
metrics_urls=()
for instance in 1 2; do
    "$tactile" puzzle serve --listen 127.0.0.1:0 --store "redis://127.0.0.1:$redis_port" \
        --sites "$work/sites.json" --reveal-answers-for-tests yes --skip-drag-model-for-tests yes \
        >"$work/serve$instance.out" 2>"$work/serve$instance.err" &
    pid=$!
    pids+=($pid)
    for _ in $(seq 100); do
        grep -q '^listening on ' "$work/serve$instance.out" && break
        kill -0 $pid 2>/dev/null || { cat "$work/serve$instance.err" >&2; exit 1; }
        sleep 0.1
    done
    url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/serve$instance.out")
    [[ -n "$url" ]] || { echo "run.sh: serve $instance did not start" >&2; cat "$work/serve$instance.err" >&2; exit 1; }
    urls+=("$url")
    metrics_urls+=("$(sed -n 's/^metrics on \(http:[^ ]*\).*/\1/p' "$work/serve$instance.out")")
done
echo "instances at ${urls[*]}, sharing redis://127.0.0.1:$redis_port"

status=0
TACTILE_SERVICE_URLS="${urls[*]}" TACTILE_SITE_KEY=service-test-site TACTILE_SITE_SECRET="$secret" \
    TACTILE_REDIS_PORT="$redis_port" TACTILE_REDIS_PIDFILE="$work/redis.pid" \
    TACTILE_REDIS_DIR="$work/redis" TACTILE_SITES_FILE="$work/sites.json" \
    TACTILE_SERVE_PIDS="${pids[*]}" TACTILE_METRICS_URLS="${metrics_urls[*]}" TACTILE_SERVE_LOGS="$work/serve1.err $work/serve2.err" \
    TACTILE_REDIS_COMMAND="$("$python" -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "${redis_command[@]}")" \
    "$python" Tests/Service/test_two_instances.py "$@" || status=$?
if ((status != 0)); then
    for instance in 1 2; do
        echo "--- serve $instance (last lines of its log)" >&2
        tail -n 25 "$work/serve$instance.err" >&2
    done
fi
exit $status
