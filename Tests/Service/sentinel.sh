#!/usr/bin/env bash
# The Sentinel failover test (Tests/Service/test_sentinel.py): starts, on free loopback ports,
# a Redis primary, one replica, three Sentinels watching them, and one `tactile puzzle serve`
# on `redis-sentinel://…/tactile`; the test kills the primary under load and checks that the
# service follows the new primary. Needs redis-server (scripts/setup.sh installs it; it runs
# Sentinels too) and python3 (the standard library only). About 30 s.
#
#   Tests/Service/sentinel.sh                          builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Service/sentinel.sh   uses that binary
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ -n "${TACTILE:-}" ]]; then
    tactile=$TACTILE
else
    swift build --product tactile >/dev/null
    tactile="$(swift build --show-bin-path)/tactile"
fi
redis=${REDIS_SERVER:-$(command -v redis-server || true)}
[[ -n "$redis" && -x "$redis" ]] || { echo "sentinel.sh: redis-server is missing (scripts/setup.sh)" >&2; exit 2; }
python=$(command -v /usr/bin/python3 || command -v python3)

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
answers() {  # PING a Redis or Sentinel port
    "$python" - "$1" 2>/dev/null <<'PY'
import socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1) as s:
    s.sendall(b"PING\r\n")
    sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)
PY
}
wait_for() {
    for _ in $(seq 100); do answers "$1" && return 0; sleep 0.1; done
    echo "sentinel.sh: nothing answers on port $1" >&2
    tail -n 20 "$work"/*.log >&2
    exit 1
}

primary=$(free_port)
replica=$(free_port)
mkdir -p "$work/primary" "$work/replica"
"$redis" --port "$primary" --bind 127.0.0.1 --save "" --dir "$work/primary" \
    --repl-diskless-sync-delay 0 --logfile "$work/primary.log" &
primary_pid=$!
pids+=($primary_pid)
"$redis" --port "$replica" --bind 127.0.0.1 --save "" --dir "$work/replica" \
    --replicaof 127.0.0.1 "$primary" --logfile "$work/replica.log" &
pids+=($!)
wait_for "$primary"
wait_for "$replica"
# The replica must hold a copy before the test begins (a replica still copying cannot take
# over with what was told).
for _ in $(seq 100); do
    "$python" - "$replica" 2>/dev/null <<'PY' && break
import socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1) as s:
    s.sendall(b"INFO replication\r\n")
    sys.exit(0 if b"master_link_status:up" in s.recv(65536) else 1)
PY
    sleep 0.1
done

sentinels=()
for n in 1 2 3; do
    port=$(free_port)
    mkdir -p "$work/sentinel$n"
    cat >"$work/sentinel$n/sentinel.conf" <<CONF
port $port
bind 127.0.0.1
dir $work/sentinel$n
logfile $work/sentinel$n.log
sentinel monitor tactile 127.0.0.1 $primary 2
sentinel down-after-milliseconds tactile 1000
sentinel failover-timeout tactile 5000
CONF
    "$redis" "$work/sentinel$n/sentinel.conf" --sentinel &
    pids+=($!)
    sentinels+=("127.0.0.1:$port")
    wait_for "$port"
done
store="redis-sentinel://$(IFS=,; echo "${sentinels[*]}")/tactile"

secret="sentinel-test-secret-$("$python" -c 'import secrets; print(secrets.token_hex(16))')"
cat >"$work/sites.json" <<JSON
[{"sitekey": "sentinel-test-site", "secret": "$secret", "hostnames": ["127.0.0.1"],
  "proofOfWorkDifficulty": 8, "puzzlesPerMinute": 100000, "answersPerMinute": 100000,
  "sitePuzzlesPerMinute": 1000000}]
JSON
"$tactile" puzzle serve --listen 127.0.0.1:0 --store "$store" --sites "$work/sites.json" \
    --reveal-answers-for-tests yes >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
pids+=($serve_pid)
for _ in $(seq 100); do
    grep -q '^listening on ' "$work/serve.out" && break
    kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
    sleep 0.1
done
url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/serve.out")
[[ -n "$url" ]] || { echo "sentinel.sh: serve did not start" >&2; cat "$work/serve.err" >&2; exit 1; }
echo "serve at $url on $store (primary :$primary, replica :$replica)"

status=0
TACTILE_SERVICE_URL="$url" TACTILE_SITE_KEY=sentinel-test-site TACTILE_SITE_SECRET="$secret" \
    TACTILE_PRIMARY_PID="$primary_pid" TACTILE_SENTINEL="${sentinels[0]}" \
    "$python" Tests/Service/test_sentinel.py || status=$?
if ((status != 0)); then
    echo "--- serve's errors and notices (each once, with its count)" >&2
    grep -E ' (error|store):' "$work/serve.err" | cut -c22- | sort | uniq -c | sort -rn | head -n 10 >&2 || true
    echo "--- serve (last lines of its log)" >&2
    tail -n 30 "$work/serve.err" >&2
    echo "--- sentinel 1" >&2
    tail -n 20 "$work/sentinel1.log" >&2
    echo "--- replica" >&2
    tail -n 30 "$work/replica.log" >&2
fi
exit $status
