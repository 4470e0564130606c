# shellcheck shell=bash
# Shell functions shared by scripts/bench-serve.sh and scripts/soak-serve.sh (sourced, not run),
# on top of Tests/Support/harness.sh (start_serve, start_redis, stop_started): the store a run
# measures, and the tools it needs. The caller sets `tactile` (the binary) and `work` (a
# temporary directory), and calls stop_started from its EXIT trap.

# shellcheck source=../../Tests/Support/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../Tests/Support/harness.sh"

# start_store STORE NAME ARGS...: `tactile puzzle serve --store STORE ARGS...` (start_serve
# NAME), for redis with a redis-server of its own (start_redis) first.
start_store() {
    local store=$1 name=$2 store_option=memory
    shift 2
    if [[ $store == redis ]]; then
        start_redis
        store_option=$redis_url
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
