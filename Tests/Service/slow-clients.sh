#!/usr/bin/env bash
# The slow-client load test (Tests/Service/slow-clients.py), which starts one
# `tactile puzzle serve` (memory store) on a free loopback port, attacks it with slow clients
# from many loopback addresses while a probe client asks for answers, and stops it. Python 3's
# standard library only; about 35 s.
#
#   Tests/Service/slow-clients.sh                          builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Service/slow-clients.sh   uses that binary
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ -z "${TACTILE:-}" ]]; then
    swift build --product tactile >/dev/null
    TACTILE="$(swift build --show-bin-path)/tactile"
fi
python=$(command -v /usr/bin/python3 || command -v python3)
TACTILE=$TACTILE exec "$python" Tests/Service/slow-clients.py "$@"
