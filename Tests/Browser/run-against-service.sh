#!/usr/bin/env bash
# Runs the widget's browser tests against the real service: starts `tactile puzzle serve` on
# a free loopback port (in memory, drawn pictures, a development site, answers revealed for
# the tests), runs Tests/Browser/run.sh against it, and stops it. The photo test starts its
# own serve with --pictures from the same binary (TACTILE).
#
#   Tests/Browser/run-against-service.sh                        builds tactile with swift build
#   TACTILE=/path/to/tactile Tests/Browser/run-against-service.sh   uses that binary
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -n "${TACTILE:-}" ]]; then
    tactile=$TACTILE
else
    swift build --product tactile >/dev/null
    tactile="$(swift build --show-bin-path)/tactile"
fi
log=$(mktemp -d)
"$tactile" puzzle serve --listen 127.0.0.1:0 --reveal-answers-for-tests yes --skip-drag-model-for-tests yes >"$log/out" 2>"$log/err" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$log"' EXIT
for _ in $(seq 100); do
    grep -q '^listening on ' "$log/out" && break
    kill -0 $pid 2>/dev/null || { cat "$log/err" >&2; exit 1; }
    sleep 0.1
done
url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log/out")
secret=$(sed -n 's/^development site: sitekey [^ ]* secret \(.*\)$/\1/p' "$log/out")
[[ -n "$url" && -n "$secret" ]] || { echo "run-against-service.sh: serve did not start" >&2; cat "$log/err" >&2; exit 1; }
echo "service at $url"
TACTILE="$tactile" TACTILE_SERVICE_URL="$url" TACTILE_SITE_SECRET="$secret" Tests/Browser/run.sh "$@"
