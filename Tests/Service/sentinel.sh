#!/usr/bin/env bash
# The Sentinel failover test (Tests/Service/test_sentinel.py), which starts, on free loopback
# ports, a Redis primary, one replica, three Sentinels watching them, and one
# `tactile puzzle serve` on `redis-sentinel://…/tactile`, kills the primary under load and
# checks that the service follows the new primary. Needs redis-server (scripts/setup.sh
# installs it; it runs Sentinels too) and python3 (the standard library only). About 30 s.
#
#   Tests/Service/sentinel.sh                          builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Service/sentinel.sh   uses that binary
set -euo pipefail
exec "$(dirname "$0")/run.sh" --script test_sentinel.py "$@"
