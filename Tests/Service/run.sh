#!/usr/bin/env bash
# Runs the two-instance tests of `tactile puzzle serve` over HTTP
# (Tests/Service/test_two_instances.py), which start their own redis-server (persistent, in a
# scratch folder) and two serve processes sharing it and one sites file, on free loopback
# ports, and stop them at the end. Needs redis-server (scripts/setup.sh installs it) and
# python3 (the standard library only).
#
#   Tests/Service/run.sh                          builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Service/run.sh   uses that binary
#   Tests/Service/run.sh --script test_NAME.py      runs another test of Tests/Service the same
#                                                 way (Tests/Service/sentinel.sh does)
#
# Prints "N passed, M failed" last; exits non-zero when a test fails (then the instances' logs
# follow).
set -euo pipefail
cd "$(dirname "$0")/../.."

script=test_two_instances.py
if [[ "${1:-}" == --script ]]; then
    script=$2
    shift 2
fi
if [[ -z "${TACTILE:-}" ]]; then
    swift build --product tactile >/dev/null
    TACTILE="$(swift build --show-bin-path)/tactile"
fi
if ! command -v "${REDIS_SERVER:-redis-server}" >/dev/null; then
    echo "run.sh: redis-server is missing; install it (scripts/setup.sh)" >&2
    exit 2
fi
python=$(command -v /usr/bin/python3 || command -v python3)
TACTILE=$TACTILE exec "$python" "Tests/Service/$script" "$@"
