# shellcheck shell=bash
# Shell functions shared by scripts/bench-serve.sh and scripts/soak-serve.sh (sourced, not run):
# start `tactile puzzle serve` or a private redis-server on a free loopback port, stop them.
# The caller sets `tactile` (the binary) and `work` (a temporary directory), and calls
# stop_started from its EXIT trap.

serve_pid=""
serve_url=""
metrics_url=""
redis_pid=""
redis_port=""

# A free TCP port on 127.0.0.1 (free when asked; the caller binds it right away).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_serve NAME ARGS...: `tactile puzzle serve --listen 127.0.0.1:0 ARGS...`, its output in
# $work/NAME.out and its log (a line per request) in $work/NAME.log; sets serve_pid, serve_url
# and metrics_url (the metrics listener, loopback).
start_serve() {
    local name=$1
    shift
    # Made here, not by the background job's redirection, which may come after the first look.
    : >"${work:?}/$name.out"
    "${tactile:?}" puzzle serve --listen 127.0.0.1:0 "$@" >>"$work/$name.out" 2>"$work/$name.log" &
    serve_pid=$!
    local _
    for _ in $(seq 100); do
        serve_url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/$name.out")
        metrics_url=$(sed -n 's|^metrics on \(http:[^ ]*\)/metrics$|\1|p' "$work/$name.out")
        [[ -n "$serve_url" ]] && return 0
        if ! kill -0 "$serve_pid" 2>/dev/null; then
            echo "tactile puzzle serve did not start:" >&2
            cat "$work/$name.out" "$work/$name.log" >&2
            serve_pid=""
            return 1
        fi
        sleep 0.1
    done
    echo "tactile puzzle serve did not say where it listens within 10 s" >&2
    return 1
}

# start_redis: a redis-server of our own, nothing saved; sets redis_pid, redis_port.
start_redis() {
    redis_port=$(free_port)
    redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
        --dir "${work:?}" >"$work/redis.log" 2>&1 &
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
    return 1
}

# start_store STORE NAME ARGS...: `tactile puzzle serve --store STORE ARGS...` (start_serve
# NAME), for redis with a redis-server of its own (start_redis) first.
start_store() {
    local store=$1 name=$2 store_option=memory
    shift 2
    if [[ $store == redis ]]; then
        start_redis
        store_option="redis://127.0.0.1:$redis_port"
    fi
    start_serve "$name" --store "$store_option" "$@"
}

# need_tools SCRIPT TOOL...: exits 2, naming the first missing tool, unless every TOOL is on
# the PATH.
need_tools() {
    local script=$1 tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || {
            echo "$script: $tool is missing (scripts/setup.sh --with-bench installs it)" >&2
            exit 2
        }
    done
}

# check_store SCRIPT VALUE...: exits 2 unless VALUE names a store (memory or redis).
check_store() {
    [[ $# -ge 2 && ("$2" == memory || "$2" == redis) ]] || {
        echo "$1: --store must be memory or redis${2+, got \"$2\"}" >&2
        exit 2
    }
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
}

stop_started() {
    stop_serve
    stop_redis
}
