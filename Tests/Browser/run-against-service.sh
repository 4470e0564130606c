#!/usr/bin/env bash
# Runs the widget's browser tests (Tests/Browser/run.sh) against the real service: the tests
# start `tactile puzzle serve` processes of the binary TACTILE on free loopback ports (in
# memory, drawn pictures, answers revealed for the tests) and stop them.
#
#   Tests/Browser/run-against-service.sh                        builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Browser/run-against-service.sh   uses that binary
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -z "${TACTILE:-}" ]]; then
    swift build --product tactile >/dev/null
    TACTILE="$(swift build --show-bin-path)/tactile"
fi
TACTILE=$TACTILE exec Tests/Browser/run.sh "$@"
