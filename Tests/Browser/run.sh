#!/usr/bin/env bash
# Runs the browser tests of the captcha widget (widget.js, /demo) in headless Chromium.
# Installs nothing: needs the Debian packages chromium, chromium-driver and python3-selenium
# (and python3-pil, python3-numpy and python3-skimage's photos for the photo test).
#
#   TACTILE=/path/to/tactile Tests/Browser/run.sh    starts `tactile puzzle serve` processes of
#                                                     that binary (run-against-service.sh builds it)
#   TACTILE_SERVICE_URL=http://127.0.0.1:8080 Tests/Browser/run.sh    also against a running
#                                                     service (the tests that need their own skip
#                                                     without TACTILE)
#
# Prints "N passed, M failed" last; exits non-zero when a test fails. Screenshots of each
# step go to Tests/Browser/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/../.."

python=""
for candidate in /usr/bin/python3 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import selenium' 2>/dev/null; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    echo "run.sh: no python3 with selenium; install python3-selenium chromium chromium-driver" >&2
    exit 2
fi
for binary in "${CHROMIUM:-/usr/bin/chromium}" "${CHROMEDRIVER:-/usr/bin/chromedriver}"; do
    if [ ! -x "$binary" ]; then
        echo "run.sh: $binary is missing; install chromium chromium-driver" >&2
        exit 2
    fi
done
exec "$python" Tests/Browser/test_widget.py "$@"
