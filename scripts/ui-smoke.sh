#!/usr/bin/env bash
# Starts the showcase without a display (it must refuse clearly, yet show --help) and under
# Xvfb (its window must open, and Start must animate without the app dying), then closes it.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product showcase >/dev/null
scripts/build-translations.sh
app="$(swift build --show-bin-path)/showcase"

set +e
message=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" 2>&1 >/dev/null)
code=$?
set -e
if [[ $code -eq 0 || "$message" != *"no display"* ]]; then
    echo "showcase without a display: expected a message and a non-zero exit, got $code: $message" >&2
    exit 1
fi
help=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" --help)
if [[ "$help" != "Usage: showcase"* || "$help" != *"--captcha-server"* ]]; then
    echo "showcase --help without a display: expected the help, got: $help" >&2
    exit 1
fi

xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    set -euo pipefail
    "$1" --page hanoi >/tmp/tactile-showcase.log 2>&1 &
    pid=$!
    trap "kill $pid 2>/dev/null || true" EXIT
    window=$(timeout 20 xdotool search --sync --name "^Tactile$" | head -1)
    [[ -n "$window" ]] || { echo "showcase window did not appear" >&2; exit 1; }
    xdotool key --window "$window" space    # keyboard focus may be anywhere; Space is harmless
    sleep 1
    kill -0 $pid || { echo "showcase exited early:" >&2; cat /tmp/tactile-showcase.log >&2; exit 1; }
    echo "showcase: window $window open under Xvfb"
' _ "$app"
