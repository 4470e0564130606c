# shellcheck shell=bash
# Sourced by shell scripts that run `tactile puzzle serve` or a redis-server of their own
# (scripts/bench-serve.sh, scripts/soak-serve.sh): each starts on a free loopback port and is
# waited for until it answers; stop_started stops them. Tests/Support/harness.py does the same
# for Python.
#
# The caller sets `tactile` (the binary) and `work` (a scratch folder), and calls stop_started
# from its EXIT trap, such as: trap 'stop_started; rm -rf "$work"' EXIT
#
#   start_serve NAME ARGS...  `$tactile puzzle serve --listen 127.0.0.1:0 ARGS...`, what it prints
#                             in $work/NAME.out, its log in $work/NAME.log; sets serve_pid,
#                             serve_url, metrics_url (the /metrics URL) and, without --sites,
#                             serve_sitekey and serve_secret (the development site's)
#   start_redis [ARGS...]     a redis-server of our own, nothing saved, ARGS as its options;
#                             sets redis_pid, redis_port, redis_url
#   stop_serve, stop_redis, stop_started (both)

serve_pid=""
serve_url=""
metrics_url=""
serve_sitekey=""
serve_secret=""
redis_pid=""
redis_port=""
redis_url=""

# A free TCP port on 127.0.0.1 (free when asked; the caller binds it right away).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_serve() {
    local name=$1
    shift
    # Made here, not by the background job's redirection, which may come after the first look.
    : >"${work:?}/$name.out"
    "${tactile:?}" puzzle serve --listen 127.0.0.1:0 "$@" >>"$work/$name.out" 2>"$work/$name.log" &
    serve_pid=$!
    local _
    for _ in $(seq 200); do
        serve_url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/$name.out")
        if [[ -n "$serve_url" ]]; then
            metrics_url=$(sed -n 's/^metrics on \(http:[^ ]*\)$/\1/p' "$work/$name.out")
            serve_sitekey=$(sed -n 's/^development site: sitekey \([^ ]*\) secret .*/\1/p' "$work/$name.out")
            serve_secret=$(sed -n 's/^development site: sitekey [^ ]* secret \([^ ]*\)$/\1/p' "$work/$name.out")
            return 0
        fi
        if ! kill -0 "$serve_pid" 2>/dev/null; then
            echo "tactile puzzle serve did not start:" >&2
            cat "$work/$name.out" "$work/$name.log" >&2
            serve_pid=""
            return 1
        fi
        sleep 0.1
    done
    echo "tactile puzzle serve did not say where it listens within 20 s; the end of its log:" >&2
    tail -n 20 "$work/$name.log" >&2
    stop_serve
    return 1
}

start_redis() {
    redis_port=$(free_port)
    redis_url="redis://127.0.0.1:$redis_port"
    mkdir -p "${work:?}/redis"
    "${REDIS_SERVER:-redis-server}" --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
        --dir "$work/redis" "$@" >"$work/redis.log" 2>&1 &
    redis_pid=$!
    local _
    for _ in $(seq 100); do
        [[ $(redis-cli -p "$redis_port" ping 2>/dev/null) == PONG ]] && return 0
        if ! kill -0 "$redis_pid" 2>/dev/null; then
            echo "redis-server did not start:" >&2
            cat "$work/redis.log" >&2
            redis_pid=""
            return 1
        fi
        sleep 0.1
    done
    echo "redis-server did not answer within 10 s" >&2
    stop_redis
    return 1
}

# stop_pid PID: SIGTERM, up to 5 s to finish, then SIGKILL.
stop_pid() {
    local pid=$1 _
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

stop_serve() {
    if [[ -n "$serve_pid" ]]; then stop_pid "$serve_pid"; fi
    serve_pid=""
}

stop_redis() {
    if [[ -n "$redis_pid" ]]; then stop_pid "$redis_pid"; fi
    redis_pid=""
    redis_port=""
    redis_url=""
}

stop_started() {
    stop_serve
    stop_redis
}
